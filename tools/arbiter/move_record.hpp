#pragma once
// The PGN-like game records of the games without a record format of their own (Gomoku, TwixT,
// Ur): [Tag "value"] lines, a blank line, then the moves with their {comments} and the result.
// Writing (Gomoku and TwixT number the moves in pairs and wrap at 79 columns), and reading them
// back as openings (all three).

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/expected.hpp"
#include "core/game.hpp"
#include "core/game_record.hpp"
#include "tools/arbiter/game_adapter.hpp"

namespace bge::arbiter {

using RecordTags = std::vector<std::pair<std::string, std::string>>;

// A tag value with `"` and `\` escaped, as PGN does.
inline std::string escape_tag_value(std::string_view value) {
    std::string escaped;
    for (const char c : value) {
        if (c == '"' || c == '\\') escaped += '\\';
        escaped += c;
    }
    return escaped;
}

// Numbered in pairs ("1. h8 i9") for the games whose moves alternate; Ur's rolls and moves are
// written one after another without numbers.
enum class MoveNumbers { pairs, none };

// The record text: the tags, then the moves, each with its mark ("?", "??") and {comment} when
// it has one, wrapped at 79 columns, then the result.
template <Game G>
std::string record_text(const RecordTags& tags, const typename G::State& start, const std::vector<typename G::Move>& moves,
                        const std::vector<std::string>& comments, const std::vector<std::string>& marks,
                        std::string_view result, MoveNumbers numbers = MoveNumbers::pairs) {
    std::string text;
    for (const auto& [name, value] : tags) text += fmt::format("[{} \"{}\"]\n", name, escape_tag_value(value));
    text += '\n';
    auto position = start;
    std::string line;
    auto append = [&](const std::string& word) {
        if (line.size() + word.size() + 1 > 79) {
            text += line + '\n';
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += word;
    };
    for (std::size_t i = 0; i < moves.size(); ++i) {
        std::string word;
        if (numbers == MoveNumbers::pairs && i % 2 == 0) word = fmt::format("{}. ", i / 2 + 1);
        word += G::format_move(position, moves[i]);
        if (i < marks.size()) word += marks[i];
        if (i < comments.size() && !comments[i].empty()) word += fmt::format(" {{{}}}", comments[i]);
        G::play(position, moves[i]);
        append(word);
    }
    append(std::string(result));
    return text + line + '\n';
}

template <Game G>
std::string move_record_text(const RecordTags& tags, const PlayedGame<G>& played, std::string_view result) {
    return record_text<G>(tags, played.start, played.moves, played.comments, {}, result);
}

// One game of a record file: its tags, and its move words (move numbers, comments and the
// result left out).
struct RecordGame {
    RecordTags tags;
    std::vector<std::string> moves;
    std::vector<std::string> comments;  // one per move: the {comment} right after it, or empty
    std::string result;                 // the result token that ended it, or empty
    std::string tag(std::string_view name) const;  // empty when absent
};

// Tags in [Name "value"], comments in {braces}, move numbers ("12.") skipped, a move's marks
// ("h8?", "c3!?") dropped; a result token (1-0, 0-1, 1/2-1/2, *) ends a game, and so does a tag
// after moves.
Expected<std::vector<RecordGame>> parse_move_records(std::string_view text);

// A record's move words played from `start` by the rules, up to the first that does not parse or
// is illegal; `problem` says which and why ("ply 12 (h8): ..."), empty when all were played.
template <Game G>
struct ReplayedRecord {
    GameRecord<G> record;
    std::string problem;
};
template <Game G>
ReplayedRecord<G> replay_record(const typename G::State& start, const RecordGame& game) {
    ReplayedRecord<G> replayed{GameRecord<G>(start), {}};
    for (const std::string& move : game.moves)
        if (auto status = replayed.record.play_text(move); !status) {
            replayed.problem = fmt::format("ply {} ({}): {}", replayed.record.moves().size() + 1, move, status.error());
            break;
        }
    return replayed;
}

// The openings in a record file: each game's start (from `start_of`, which reads its tags and
// explains a refusal) and its moves, replayed and checked by the rules. Errors name the game.
template <Game G, class StartOf>
Expected<std::vector<Opening<G>>> openings_from_records(std::string_view text, StartOf start_of) {
    auto games = parse_move_records(text);
    if (!games) return make_error(games.error());
    std::vector<Opening<G>> openings;
    for (std::size_t g = 0; g < games->size(); ++g) {
        const RecordGame& game = (*games)[g];
        Expected<typename G::State> start = start_of(game);
        if (!start) return make_error(fmt::format("game {}: {}", g + 1, start.error()));
        const ReplayedRecord<G> replayed = replay_record<G>(*start, game);
        if (!replayed.problem.empty()) return make_error(fmt::format("game {}: {}", g + 1, replayed.problem));
        openings.push_back({replayed.record.start(), replayed.record.moves()});
    }
    return openings;
}

// The records of a file for analysis: each game's start (from `start_of`, as for openings) and
// its legal moves; a game with an illegal move keeps the moves before it, one whose start cannot
// be read is kept with only its problem. Each writes itself again with its own tags.
template <Game G, class StartOf>
Expected<std::vector<AnalysisRecord<G>>> analysis_records_from_text(std::string_view text, StartOf start_of,
                                                                    MoveNumbers numbers = MoveNumbers::pairs) {
    auto games = parse_move_records(text);
    if (!games) return make_error(games.error());
    std::vector<AnalysisRecord<G>> records;
    for (const RecordGame& game : *games) {
        AnalysisRecord<G> record;
        record.result = game.result.empty() ? game.tag("Result") : game.result;
        Expected<typename G::State> start = start_of(game);
        if (!start) {
            record.problem = fmt::format("its start: {}", start.error());
            records.push_back(std::move(record));
            continue;
        }
        const ReplayedRecord<G> replayed = replay_record<G>(*start, game);
        record.start = *start;
        record.moves = replayed.record.moves();
        record.problem = replayed.problem;
        record.write = [tags = game.tags, start = *start, moves = record.moves,
                        result = record.result.empty() ? std::string("*") : record.result,
                        numbers](const std::vector<std::string>& comments, const std::vector<std::string>& marks) {
            return record_text<G>(tags, start, moves, comments, marks, result, numbers);
        };
        records.push_back(std::move(record));
    }
    return records;
}

}  // namespace bge::arbiter
