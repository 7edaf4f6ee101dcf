#include "tools/arbiter/twixt_adapter.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "core/game_record.hpp"
#include "tools/arbiter/move_record.hpp"

namespace bge::arbiter {

Expected<twixt::Variant> TwixtAdapter::make_variant(const MatchConfig& config) {
    twixt::Variant variant;
    variant.size = config.size.value_or(twixt::default_size);
    if (config.half_komi != 0) return make_error("-komi has no meaning in twixt");
    if (!config.rule.empty()) return make_error("-rule has no meaning in twixt");
    auto checked = twixt::check_variant(variant);
    if (!checked) return make_error(fmt::format("-size: {}", checked.error()));
    return variant;
}

std::string TwixtAdapter::variant_text(const twixt::Variant& v) { return fmt::format("{}x{}", v.size, v.size); }

Expected<OptionList> TwixtAdapter::rule_options(const twixt::Variant& variant, const EnginePlayer& player) {
    OptionList options;
    if (player.declares_option("BoardSize")) {
        options.emplace_back("BoardSize", std::to_string(variant.size));
        return options;
    }
    if (variant.size != twixt::default_size)
        return make_error(fmt::format("engine {} declares no BoardSize option, so it cannot play {}x{}", player.name(),
                                      variant.size, variant.size));
    return options;
}

std::string TwixtAdapter::new_game_command(protocol::Dialect dialect, const twixt::Variant& variant) {
    return dialect == protocol::Dialect::tei ? fmt::format("teinewgame {}", variant.size) : "uginewgame";
}

std::string TwixtAdapter::rule_phrase(const Outcome& outcome) {
    if (outcome.reason == "connection") return "by connecting its borders";
    if (outcome.reason == "no placement") return "with no placement left";
    return fmt::format("by {}", outcome.reason);
}

namespace {

// A record's start: its FEN, or the empty board of the match's size (a record of another size is
// refused).
Expected<twixt::State> record_start(const RecordGame& game, const twixt::Variant& variant) {
    twixt::Variant size = variant;
    if (const std::string tag = game.tag("Size"); !tag.empty()) size.size = std::atoi(tag.c_str());
    if (size.size != variant.size)
        return make_error(
            fmt::format("a {}x{} game, but the match is {}x{}", size.size, size.size, variant.size, variant.size));
    const std::string fen = game.tag("FEN");
    if (fen.empty()) return twixt::start_state(variant);
    auto parsed = twixt::parse_position(fen, variant);
    if (!parsed) return make_error(fmt::format("FEN: {}", parsed.error()));
    if (parsed->size != variant.size)
        return make_error(fmt::format("the FEN is not {}x{}", variant.size, variant.size));
    return *parsed;
}

}  // namespace

Expected<std::vector<Opening<twixt::Twixt>>> TwixtAdapter::parse_record_openings(std::string_view text,
                                                                                 const twixt::Variant& variant) {
    return openings_from_records<twixt::Twixt>(text,
                                               [&](const RecordGame& game) { return record_start(game, variant); });
}

Expected<std::vector<AnalysisRecord<twixt::Twixt>>> TwixtAdapter::analysis_records(std::string_view text,
                                                                                   const twixt::Variant& variant) {
    return analysis_records_from_text<twixt::Twixt>(text,
                                                    [&](const RecordGame& game) { return record_start(game, variant); });
}

std::string TwixtAdapter::format_record(const PlayedGame<twixt::Twixt>& played, const RecordInfo& info) {
    const twixt::Variant variant = twixt::variant_of(played.start);
    const std::string result = twixt::result_text(played.end.outcome);
    // clang-format off
    RecordTags tags = {
        {"Game", "twixt"},
        {"X", info.white},  // the first player, whom the arbiter calls White
        {"O", info.black},
        {"Size", std::to_string(variant.size)},
        {"Date", info.date},
        {"Round", std::to_string(info.round)},
        {"Result", result},
        {"Termination", termination_tag(played.end)},
    };
    // clang-format on
    const std::string start = twixt::format_position(played.start);
    if (start != twixt::format_position(twixt::start_state(variant))) tags.emplace_back("FEN", start);
    return move_record_text(tags, played, result);
}

}  // namespace bge::arbiter
