#include "tools/arbiter/gomoku_adapter.hpp"

#include <fmt/format.h>

#include "protocol/text.hpp"
#include "tools/arbiter/move_record.hpp"

namespace bge::arbiter {

using gomoku::Rule;

Expected<gomoku::Variant> GomokuAdapter::make_variant(const MatchConfig& config) {
    gomoku::Variant variant;
    variant.width = variant.height = config.size.value_or(default_size);
    if (!config.rule.empty()) {
        auto rule = gomoku::parse_rule(config.rule);
        if (!rule) return make_error(fmt::format("-rule {}: expected freestyle, standard or renju", config.rule));
        variant.rule = *rule;
    }
    if (config.half_komi != 0) return make_error("-komi has no meaning in gomoku");
    auto checked = gomoku::check_variant(variant);
    if (!checked) return make_error(fmt::format("-size: {}", checked.error()));
    return variant;
}

std::string GomokuAdapter::variant_text(const gomoku::Variant& v) {
    return fmt::format("{}x{}, {}, {} in a row", v.width, v.height, gomoku::rule_name(v.rule), v.k);
}

int GomokuAdapter::pbrain_rule(const gomoku::Variant& variant) {
    return variant.rule == Rule::renju ? 4 : variant.rule == Rule::standard ? 1 : 0;
}

Expected<OptionList> GomokuAdapter::rule_options(const gomoku::Variant& variant, const EnginePlayer& player) {
    OptionList options;
    if (player.dialect() == protocol::Dialect::pbrain) {
        if (variant.k != 5) return make_error(fmt::format("engine {}: pbrain plays five in a row only", player.name()));
        options.emplace_back("rule", std::to_string(pbrain_rule(variant)));
        return options;
    }
    const gomoku::Variant standard;
    auto want = [&](std::string_view name, const std::string& value, bool non_default) -> Status {
        if (player.declares_option(name)) {
            options.emplace_back(std::string(name), value);
            return success();
        }
        if (non_default)
            return make_error(fmt::format("engine {} declares no {} option, so it cannot play {}", player.name(), name,
                                          variant_text(variant)));
        return success();
    };
    for (const Status& status :
         {want("Width", std::to_string(variant.width), variant.width != standard.width),
          want("Height", std::to_string(variant.height), variant.height != standard.height),
          want("InARow", std::to_string(variant.k), variant.k != standard.k),
          want("Rule", std::string(gomoku::rule_name(variant.rule)), variant.rule != standard.rule)})
        if (!status) return make_error(status.error());
    return options;
}

std::string GomokuAdapter::new_game_command(protocol::Dialect dialect, const gomoku::Variant& variant) {
    if (dialect == protocol::Dialect::pbrain)
        return variant.width == variant.height ? fmt::format("START {}", variant.width)
                                               : fmt::format("RECTSTART {},{}", variant.width, variant.height);
    return dialect == protocol::Dialect::tei ? "teinewgame" : "uginewgame";
}

std::string GomokuAdapter::rule_phrase(const Outcome& outcome) {
    if (outcome.reason == "five") return "by five in a row";
    if (outcome.reason == "line") return "by a line of k";
    if (outcome.reason == "forbidden") return "by Black's forbidden move";
    if (outcome.reason == "board full") return "on a full board";
    if (outcome.reason == "move limit") return "at the move limit";
    return fmt::format("by {}", outcome.reason);
}

PbrainPosition GomokuAdapter::pbrain_position(const GameRecord<gomoku::Gomoku>& record) {
    auto owner_of = [](Side side) { return side == Side::first ? 1 : 2; };
    PbrainPosition position;
    position.mover = owner_of(gomoku::Gomoku::side_to_move(record.current()));
    // Stones of the start position first (their order is unknown), then the moves in order.
    const gomoku::State& start = record.start();
    for (int y = 0; y < start.height; ++y)
        for (int x = 0; x < start.width; ++x) {
            const std::uint8_t cell = start.cells[static_cast<std::size_t>(gomoku::square_at(x, y))];
            if (cell == gomoku::empty) continue;
            const int owner = cell == gomoku::wall ? 3 : cell == gomoku::stone_of(Side::first) ? 1 : 2;
            position.stones.push_back({x, y, owner});
        }
    auto state = start;
    for (const auto& move : record.moves()) {
        position.stones.push_back({move.x(), move.y(), owner_of(gomoku::Gomoku::side_to_move(state))});
        gomoku::Gomoku::play(state, move);
    }
    return position;
}

// ---------------------------------------------------------------------------------------------
// Records: PGN-like (tools/arbiter/move_record.hpp).

namespace {

// A record's start: its FEN, or the empty board of the match's variant.
Expected<gomoku::State> record_start(const RecordGame& game, const gomoku::Variant& variant) {
    const std::string fen = game.tag("FEN");
    if (fen.empty()) return gomoku::start_state(variant);
    auto parsed = gomoku::parse_position(fen, variant);
    if (!parsed) return make_error(fmt::format("FEN: {}", parsed.error()));
    return *parsed;
}

}  // namespace

Expected<std::vector<Opening<gomoku::Gomoku>>> GomokuAdapter::parse_record_openings(std::string_view text,
                                                                                    const gomoku::Variant& variant) {
    return openings_from_records<gomoku::Gomoku>(text,
                                                 [&](const RecordGame& game) { return record_start(game, variant); });
}

// A record of other rules or another board than -rule and -size is refused, not misread.
Expected<std::vector<AnalysisRecord<gomoku::Gomoku>>> GomokuAdapter::analysis_records(std::string_view text,
                                                                                      const gomoku::Variant& variant) {
    return analysis_records_from_text<gomoku::Gomoku>(text, [&](const RecordGame& game) -> Expected<gomoku::State> {
        const std::string rule = game.tag("Rule"), size = game.tag("Size");
        if (!rule.empty() && rule != gomoku::rule_name(variant.rule))
            return make_error(fmt::format("a {} game, but -rule is {}", rule, gomoku::rule_name(variant.rule)));
        if (!size.empty() && size != fmt::format("{}x{}", variant.width, variant.height))
            return make_error(fmt::format("a {} game, but -size is {}x{}", size, variant.width, variant.height));
        return record_start(game, variant);
    });
}

std::string GomokuAdapter::format_record(const PlayedGame<gomoku::Gomoku>& played, const RecordInfo& info) {
    const gomoku::Variant variant = gomoku::variant_of(played.start);
    const std::string result = gomoku::result_text(played.end.outcome);
    RecordTags tags = {
        {"Game", "gomoku"},
        {"Black", info.white},  // the first player, whom the arbiter calls White
        {"White", info.black},
        {"Size", fmt::format("{}x{}", variant.width, variant.height)},
        {"Rule", std::string(gomoku::rule_name(variant.rule))},
        {"InARow", std::to_string(variant.k)},
        {"Date", info.date},
        {"Round", std::to_string(info.round)},
        {"Result", result},
        {"Termination", termination_tag(played.end)},
    };
    const std::string start = gomoku::format_position(played.start);
    if (start != gomoku::format_position(gomoku::start_state(variant))) tags.emplace_back("FEN", start);
    return move_record_text(tags, played, result);
}

}  // namespace bge::arbiter
