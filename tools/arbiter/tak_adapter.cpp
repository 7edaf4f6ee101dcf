#include "tools/arbiter/tak_adapter.hpp"

#include <fmt/format.h>

#include "core/tak/ptn_file.hpp"
#include "core/tak/scoring.hpp"

namespace bge::arbiter {

Expected<tak::Variant> TakAdapter::make_variant(const MatchConfig& config) {
    tak::Variant variant;
    variant.size = config.size.value_or(default_size);
    if (variant.size < tak::min_size || variant.size > tak::max_size)
        return make_error(
            fmt::format("-size {}: tak is played on sizes {} to {}", variant.size, tak::min_size, tak::max_size));
    if (config.half_komi < -max_half_komi || config.half_komi > max_half_komi)
        return make_error(fmt::format("-komi {}: komi must be between -{} and {} flats",
                                      tak::komi_text(config.half_komi), max_half_komi / 2, max_half_komi / 2));
    variant.half_komi = config.half_komi;
    variant.repetition_draw = config.repetition_draw;
    return variant;
}

std::string TakAdapter::variant_text(const tak::Variant& variant) {
    return fmt::format("size {}, komi {}", variant.size, tak::komi_text(variant.half_komi));
}

Expected<OptionList> TakAdapter::rule_options(const tak::Variant& variant, const EnginePlayer& player) {
    OptionList options;
    // Komi 0 is sent too: an engine that played a game with komi before (an analysis of records
    // of both kinds, the GUI's next game) must not keep it.
    if (player.declares_option("HalfKomi"))
        options.emplace_back("HalfKomi", std::to_string(variant.half_komi));
    else if (variant.half_komi != 0)
        return make_error(fmt::format("-komi {}: engine {} declares no HalfKomi option, so it cannot play with komi",
                                      tak::komi_text(variant.half_komi), player.name()));
    // UGI's `uginewgame` names no size, and games from the start are `position startpos`: a UGI
    // engine learns the size from its Size option (TEI's `teinewgame <size>` carries it).
    if (player.dialect() == protocol::Dialect::ugi) {
        if (player.declares_option("Size"))
            options.emplace_back("Size", std::to_string(variant.size));
        else if (variant.size != tak::Variant{}.size)
            return make_error(fmt::format("engine {} speaks UGI and declares no Size option, so it cannot play {}x{}",
                                          player.name(), variant.size, variant.size));
    }
    // Not a standard rule, so engines that know it are told (either way, for the same reason as
    // komi 0); the arbiter judges it either way.
    if (player.declares_option("RepetitionDraw"))
        options.emplace_back("RepetitionDraw", variant.repetition_draw ? "true" : "false");
    return options;
}

std::string TakAdapter::new_game_command(protocol::Dialect dialect, const tak::Variant& variant) {
    return dialect == protocol::Dialect::tei ? fmt::format("teinewgame {}", variant.size) : "uginewgame";
}

std::string TakAdapter::rule_phrase(const Outcome& outcome) {
    if (outcome.reason == "flats") return "on flats";
    return fmt::format("by {}", outcome.reason);
}

Expected<std::vector<Opening<tak::Tak>>> TakAdapter::parse_record_openings(std::string_view text,
                                                                           const tak::Variant& variant) {
    auto games = tak::parse_ptn_games(text);
    if (!games) return make_error(games.error());
    std::vector<Opening<tak::Tak>> openings;
    for (std::size_t i = 0; i < games->size(); ++i) {
        const tak::PtnGame& game = (*games)[i];
        // The match's komi and repetition rule apply, whatever the file's Komi tag says.
        auto start = tak::parse_tps(tak::format_tps(game.start), variant);
        if (!start) return make_error(fmt::format("game {}: {}", i + 1, start.error()));
        openings.push_back({*start, game.moves});
    }
    return openings;
}

std::string TakAdapter::format_record(const PlayedGame<tak::Tak>& played, const RecordInfo& info) {
    tak::PtnGame game;
    game.set_tag("Player1", info.white);
    game.set_tag("Player2", info.black);
    game.set_tag("Size", std::to_string(played.start.size));
    game.set_tag("Komi", tak::komi_text(played.start.half_komi));
    game.set_tag("Date", info.date);
    game.set_tag("Round", std::to_string(info.round));
    game.result = tak::Tak::result_text(played.final_position, played.end.outcome);
    game.set_tag("Result", game.result);
    game.set_tag("Termination", termination_tag(played.end));
    // The Tak study's score: the winner's board area plus unplayed pieces (docs/tak.md, "Scoring").
    game.set_tag("StudyScore", tak::study_score_text(played.final_position, played.end.outcome));
    game.start = played.start;
    game.moves = played.moves;
    game.comments = played.comments;
    return tak::write_ptn(game);
}

// The record's own Size and Komi tags say what game it was, whatever -size and -komi say.
Expected<std::vector<AnalysisRecord<tak::Tak>>> TakAdapter::analysis_records(std::string_view text,
                                                                             const tak::Variant&) {
    auto games = tak::parse_ptn_games(text, IllegalMoves::end_game_there);
    if (!games) return make_error(games.error());
    std::vector<AnalysisRecord<tak::Tak>> records;
    for (tak::PtnGame& game : *games) {
        AnalysisRecord<tak::Tak> record;
        record.start = game.start;
        record.moves = game.moves;
        record.problem = game.problem;
        record.result = game.result;
        record.write = [game = std::move(game)](const std::vector<std::string>& comments,
                                                const std::vector<std::string>& marks) {
            tak::PtnGame annotated = game;
            annotated.comments = comments;
            annotated.marks = marks;
            annotated.problem.clear();
            return tak::write_ptn(annotated);
        };
        records.push_back(std::move(record));
    }
    return records;
}

}  // namespace bge::arbiter
