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

template <Game G>
std::string move_record_text(const RecordTags& tags, const PlayedGame<G>& played, std::string_view result) {
    std::string text;
    for (const auto& [name, value] : tags) text += fmt::format("[{} \"{}\"]\n", name, escape_tag_value(value));
    text += '\n';
    auto position = played.start;
    std::string line;
    auto append = [&](const std::string& word) {
        if (line.size() + word.size() + 1 > 79) {
            text += line + '\n';
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += word;
    };
    for (std::size_t i = 0; i < played.moves.size(); ++i) {
        std::string word;
        if (i % 2 == 0) word = fmt::format("{}. ", i / 2 + 1);
        word += G::format_move(position, played.moves[i]);
        if (i < played.comments.size() && !played.comments[i].empty())
            word += fmt::format(" {{{}}}", played.comments[i]);
        G::play(position, played.moves[i]);
        append(word);
    }
    append(std::string(result));
    return text + line + '\n';
}

// One game of a record file: its tags, and its move words (move numbers, comments and the
// result left out).
struct RecordGame {
    RecordTags tags;
    std::vector<std::string> moves;
    std::vector<std::string> comments;  // one per move: the {comment} right after it, or empty
    std::string tag(std::string_view name) const;  // empty when absent
};

// Tags in [Name "value"], comments in {braces}, move numbers ("12.") skipped; a result token
// (1-0, 0-1, 1/2-1/2, *) ends a game, and so does a tag after moves.
Expected<std::vector<RecordGame>> parse_move_records(std::string_view text);

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
        GameRecord<G> record(*start);
        for (const std::string& move : game.moves)
            if (auto status = record.play_text(move); !status)
                return make_error(fmt::format("game {}: move '{}': {}", g + 1, move, status.error()));
        openings.push_back({record.start(), record.moves()});
    }
    return openings;
}

}  // namespace bge::arbiter
