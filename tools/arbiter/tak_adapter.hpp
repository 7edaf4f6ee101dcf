#pragma once
// Tak for the arbiter: -size/-komi/-repetition make the Variant; TEI starts a game with
// `teinewgame <size>` and learns komi from the HalfKomi option; positions are TPS; records and
// format=ptn openings are PTN.

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/tak/tak.hpp"
#include "tools/arbiter/game_adapter.hpp"

namespace bge::arbiter {

struct TakAdapter {
    using Game = tak::Tak;
    static constexpr protocol::Dialect default_dialect = protocol::Dialect::tei;
    // The options rule_options() may send: the rules', never the page's (tools/gui/engine_options.hpp).
    static constexpr std::array<std::string_view, 3> rule_option_names{"HalfKomi", "Size", "RepetitionDraw"};
    static constexpr std::string_view tei_position_keyword = "tps";
    static constexpr int default_size = 6;
    static constexpr int max_half_komi = 40;  // 20 flats

    static Expected<tak::Variant> make_variant(const MatchConfig& config);
    static std::string variant_text(const tak::Variant& variant);
    static Expected<OptionList> rule_options(const tak::Variant& variant, const EnginePlayer& player);
    static std::string new_game_command(protocol::Dialect dialect, const tak::Variant& variant);
    static constexpr SideNames side_names{"White", "Black"};  // the first player, then the second
    static std::string rule_phrase(const Outcome& outcome);
    static Expected<std::vector<Opening<tak::Tak>>> parse_record_openings(std::string_view text,
                                                                          const tak::Variant& variant);
    static std::string format_record(const PlayedGame<tak::Tak>& played, const RecordInfo& info);
    static Expected<std::vector<AnalysisRecord<tak::Tak>>> analysis_records(std::string_view text,
                                                                      const tak::Variant& variant);
};

static_assert(GameAdapter<TakAdapter>);

}  // namespace bge::arbiter
