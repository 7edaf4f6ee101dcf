#pragma once
// The Royal Game of Ur for the arbiter: -ruleset finkel|masters|blitz and -pieces N choose the
// variant, sent to engines as the Ruleset and Pieces options; UGI by default. The arbiter rolls
// the dice (game_runner.hpp) and the rolls are moves of the record (`r3`), so engines get the
// roll in the position's move list. Records are PGN-like: tags, then the moves and rolls.

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/ur/ur.hpp"
#include "tools/arbiter/game_adapter.hpp"

namespace bge::arbiter {

struct UrAdapter {
    using Game = ur::Ur;
    static constexpr protocol::Dialect default_dialect = protocol::Dialect::ugi;
    // The options rule_options() may send: the rules', never the page's (tools/gui/engine_options.hpp).
    static constexpr std::array<std::string_view, 2> rule_option_names{"Ruleset", "Pieces"};
    static constexpr std::string_view tei_position_keyword = "fen";

    static Expected<ur::Variant> make_variant(const MatchConfig& config);
    static std::string variant_text(const ur::Variant& variant);
    static Expected<OptionList> rule_options(const ur::Variant& variant, const EnginePlayer& player);
    static std::string new_game_command(protocol::Dialect dialect, const ur::Variant& variant);
    static constexpr SideNames side_names{"Light", "Dark"};  // the first player, then the second
    static std::string rule_phrase(const Outcome& outcome);
    static Expected<std::vector<Opening<Game>>> parse_record_openings(std::string_view text,
                                                                      const ur::Variant& variant);
    static std::string format_record(const PlayedGame<Game>& played, const RecordInfo& info);
    static Expected<std::vector<AnalysisRecord<Game>>> analysis_records(std::string_view text,
                                                                      const ur::Variant& variant);
};

static_assert(GameAdapter<UrAdapter>);

}  // namespace bge::arbiter
