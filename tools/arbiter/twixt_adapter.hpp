#pragma once
// TwixT for the arbiter: -size N (5..24, default 24) makes the Variant. UGI engines learn the
// size from their BoardSize option and start a game with `uginewgame`. Records are PGN-like: tags
// (Size, and FEN when the game does not start from the empty board), the moves numbered in pairs
// (`swap` included), then the result; docs/twixt.md ("Game records").

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/twixt/twixt.hpp"
#include "tools/arbiter/game_adapter.hpp"

namespace bge::arbiter {

struct TwixtAdapter {
    using Game = twixt::Twixt;
    static constexpr protocol::Dialect default_dialect = protocol::Dialect::ugi;
    // The options rule_options() may send: the rules', never the page's (tools/gui/engine_options.hpp).
    static constexpr std::array<std::string_view, 1> rule_option_names{"BoardSize"};
    static constexpr std::string_view tei_position_keyword = "fen";

    static Expected<twixt::Variant> make_variant(const MatchConfig& config);
    static std::string variant_text(const twixt::Variant& variant);
    static Expected<OptionList> rule_options(const twixt::Variant& variant, const EnginePlayer& player);
    static std::string new_game_command(protocol::Dialect dialect, const twixt::Variant& variant);
    static constexpr SideNames side_names{"x", "o"};  // the first player, then the second
    static std::string rule_phrase(const Outcome& outcome);
    static Expected<std::vector<Opening<twixt::Twixt>>> parse_record_openings(std::string_view text,
                                                                              const twixt::Variant& variant);
    static std::string format_record(const PlayedGame<twixt::Twixt>& played, const RecordInfo& info);
    static Expected<std::vector<AnalysisRecord<twixt::Twixt>>> analysis_records(std::string_view text,
                                                                      const twixt::Variant& variant);
};

static_assert(GameAdapter<TwixtAdapter>);

}  // namespace bge::arbiter
