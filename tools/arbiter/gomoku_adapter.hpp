#pragma once
// Gomoku for the arbiter: -size N (or WxH) and -rule freestyle|standard|renju make the Variant.
// UGI engines learn the rules from their Width/Height/InARow/Rule options and start a game with
// `uginewgame`; pbrain engines (proto=pbrain) get `START n` (or `RECTSTART w,h`) and
// `INFO rule <bitmask>`, then, for every move, the clock as INFO lines and the position as
// EnginePlayer::think_pbrain sends it (BEGIN, TURN or BOARD). Records are the text format of docs/gomoku.md ("Game records").

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/game_record.hpp"
#include "core/gomoku/gomoku.hpp"
#include "tools/arbiter/game_adapter.hpp"

namespace bge::arbiter {

struct GomokuAdapter {
    using Game = gomoku::Gomoku;
    static constexpr protocol::Dialect default_dialect = protocol::Dialect::ugi;
    // The options rule_options() may send: the rules', never the page's (tools/gui/engine_options.hpp).
    static constexpr std::array<std::string_view, 4> rule_option_names{"Width", "Height", "InARow", "Rule"};
    static constexpr std::string_view tei_position_keyword = "fen";
    static constexpr int default_size = 15;

    static Expected<gomoku::Variant> make_variant(const MatchConfig& config);
    static std::string variant_text(const gomoku::Variant& variant);
    static Expected<OptionList> rule_options(const gomoku::Variant& variant, const EnginePlayer& player);
    static std::string new_game_command(protocol::Dialect dialect, const gomoku::Variant& variant);
    static constexpr SideNames side_names{"Black", "White"};  // the first player, then the second
    static std::string rule_phrase(const Outcome& outcome);
    static Expected<std::vector<Opening<gomoku::Gomoku>>> parse_record_openings(std::string_view text,
                                                                                const gomoku::Variant& variant);
    static std::string format_record(const PlayedGame<gomoku::Gomoku>& played, const RecordInfo& info);
    static Expected<std::vector<AnalysisRecord<gomoku::Gomoku>>> analysis_records(std::string_view text,
                                                                      const gomoku::Variant& variant);

    // pbrain: the stones in the order they were played (the start position's first) and the mover.
    static PbrainPosition pbrain_position(const GameRecord<gomoku::Gomoku>& record);
    // pbrain's rule bitmask: 0 freestyle, 1 exactly five, 4 renju.
    static int pbrain_rule(const gomoku::Variant& variant);
    // Cells from the move to the board's centre, in any direction (`arbiter book -radius`).
    static int distance_from_centre(const gomoku::State& state, const gomoku::Move& move) {
        return std::max(std::abs(move.x() - state.width / 2), std::abs(move.y() - state.height / 2));
    }
};

static_assert(GameAdapter<GomokuAdapter>);

}  // namespace bge::arbiter
