#pragma once
// Expendibots for the arbiter: one variant (8x8, no komi; -size 8 is accepted, any other size or
// komi is refused); UGI by default (`uginewgame`, `position fen <fen>`); the 4-fold repetition
// draw always applies (-repetition changes nothing); records are the referee-style game logs of
// core/expendibots/game_log.hpp, which format=ptn openings read back.

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/expendibots/expendibots.hpp"
#include "tools/arbiter/game_adapter.hpp"

namespace bge::arbiter {

struct ExpendibotsAdapter {
    using Game = expendibots::Expendibots;
    static constexpr protocol::Dialect default_dialect = protocol::Dialect::ugi;
    // The options rule_options() may send: the rules', never the page's (tools/gui/engine_options.hpp).
    static constexpr std::array<std::string_view, 0> rule_option_names{};
    static constexpr std::string_view tei_position_keyword = "fen";

    static Expected<expendibots::Variant> make_variant(const MatchConfig& config);
    static std::string variant_text(const expendibots::Variant& variant);
    static Expected<OptionList> rule_options(const expendibots::Variant& variant, const EnginePlayer& player);
    static std::string new_game_command(protocol::Dialect dialect, const expendibots::Variant& variant);
    static constexpr SideNames side_names{"White", "Black"};  // the first player, then the second
    static std::string rule_phrase(const Outcome& outcome);
    static Expected<std::vector<Opening<Game>>> parse_record_openings(std::string_view text,
                                                                      const expendibots::Variant& variant);
    static std::string format_record(const PlayedGame<Game>& played, const RecordInfo& info);
    static Expected<std::vector<AnalysisRecord<Game>>> analysis_records(std::string_view text,
                                                                      const expendibots::Variant& variant);
};

static_assert(GameAdapter<ExpendibotsAdapter>);

}  // namespace bge::arbiter
