#include "tools/arbiter/ur_adapter.hpp"

#include <fmt/format.h>

#include "core/game_record.hpp"
#include "tools/arbiter/move_record.hpp"

namespace bge::arbiter {

Expected<ur::Variant> UrAdapter::make_variant(const MatchConfig& config) {
    if (config.size) return make_error("-size: ur has one board");
    if (config.half_komi != 0) return make_error("-komi has no meaning in ur");
    if (!config.rule.empty()) return make_error("-rule is gomoku's; ur uses -ruleset finkel|masters|blitz");
    ur::Variant variant;
    if (config.ruleset.empty() || config.ruleset == "finkel")
        variant.ruleset = ur::Ruleset::finkel;
    else if (config.ruleset == "masters")
        variant.ruleset = ur::Ruleset::masters;
    else if (config.ruleset == "blitz")
        variant.ruleset = ur::Ruleset::blitz;
    else
        return make_error(fmt::format("-ruleset {}: expected finkel, masters or blitz", config.ruleset));
    variant.pieces = config.pieces;
    auto resolved = ur::resolve_variant(variant);
    if (!resolved) return make_error(fmt::format("-pieces: {}", resolved.error()));
    return *resolved;
}

std::string UrAdapter::variant_text(const ur::Variant& variant) {
    return fmt::format("{}, {} pieces", ur::ruleset_name(variant.ruleset), variant.pieces);
}

Expected<OptionList> UrAdapter::rule_options(const ur::Variant& variant, const EnginePlayer& player) {
    OptionList options;
    const bool standard = variant == ur::Variant{};
    for (const char* name : {"Ruleset", "Pieces"}) {
        if (!player.declares_option(name)) {
            if (!standard)
                return make_error(fmt::format("engine {} declares no {} option, so it cannot play {}", player.name(),
                                              name, variant_text(variant)));
            continue;
        }
        options.emplace_back(name, name == std::string_view("Ruleset") ? std::string(ur::ruleset_name(variant.ruleset))
                                                                       : std::to_string(variant.pieces));
    }
    return options;
}

std::string UrAdapter::new_game_command(protocol::Dialect dialect, const ur::Variant&) {
    return dialect == protocol::Dialect::tei ? "teinewgame" : "uginewgame";
}

std::string UrAdapter::rule_phrase(const Outcome& outcome) {
    if (outcome.reason == "all pieces borne off") return "by bearing off every piece";
    return fmt::format("by {}", outcome.reason);
}

namespace {

// A record's start: its FEN, or the start of the match's ruleset.
Expected<ur::State> record_start(const RecordGame& game, const ur::Variant& variant) {
    const std::string fen = game.tag("FEN");
    if (fen.empty()) return ur::start_state(variant);
    auto parsed = ur::parse_position(variant, fen);
    if (!parsed) return make_error(fmt::format("FEN: {}", parsed.error()));
    return *parsed;
}

}  // namespace

Expected<std::vector<Opening<ur::Ur>>> UrAdapter::parse_record_openings(std::string_view text,
                                                                        const ur::Variant& variant) {
    return openings_from_records<ur::Ur>(text, [&](const RecordGame& game) { return record_start(game, variant); });
}

// A record of another ruleset than -ruleset is refused, not misread.
Expected<std::vector<AnalysisRecord<ur::Ur>>> UrAdapter::analysis_records(std::string_view text,
                                                                          const ur::Variant& variant) {
    return analysis_records_from_text<ur::Ur>(
        text,
        [&](const RecordGame& game) -> Expected<ur::State> {
            const std::string ruleset = game.tag("Ruleset");
            if (!ruleset.empty() && ruleset != ur::ruleset_name(variant.ruleset))
                return make_error(
                    fmt::format("a {} game, but -ruleset is {}", ruleset, ur::ruleset_name(variant.ruleset)));
            return record_start(game, variant);
        },
        MoveNumbers::none);
}

std::string UrAdapter::format_record(const PlayedGame<ur::Ur>& played, const RecordInfo& info) {
    const ur::Variant variant = played.start.variant();
    const std::string result = ur::result_text(played.end.outcome);
    std::string text;
    auto tag = [&](std::string_view name, std::string_view value) {
        text += fmt::format("[{} \"{}\"]\n", name, escape_tag_value(value));
    };
    tag("Game", "ur");
    tag("Light", info.white);
    tag("Dark", info.black);
    tag("Date", info.date);
    tag("Round", std::to_string(info.round));
    tag("Ruleset", ur::ruleset_name(variant.ruleset));
    tag("Pieces", std::to_string(variant.pieces));
    if (played.start != ur::start_state(variant)) tag("FEN", ur::format_position(played.start));
    tag("Result", result);
    tag("Termination", termination_tag(played.end));
    text += '\n';
    ur::State position = played.start;
    std::string line;
    for (const auto& move : played.moves) {
        const std::string word = ur::format_move(position, move);
        if (!line.empty() && line.size() + word.size() + 1 > 100) {
            text += line + '\n';
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        ur::play(position, move);
    }
    line += (line.empty() ? "" : " ") + result;
    text += line + "\n\n";
    return text;
}

}  // namespace bge::arbiter
