#include "engines/ur/features.hpp"

#include <array>
#include <bit>

#include <fmt/format.h>

namespace bge::ur {

namespace {

constexpr int basic_per_side = max_path_length + 2;
constexpr int rich_per_side = 48;

// Per ruleset: for a side's path index, the other side's path index of the same tile (-1: not on
// its path) and whether a piece there can be captured at all; the chance of each roll.
struct RulesetTables {
    std::array<int, max_path_length> other_index{};
    std::array<bool, max_path_length> capturable{};
    std::array<float, 5> roll_probability{};
    explicit RulesetTables(Ruleset ruleset) {
        const int length = traits_of(ruleset).path_length;
        other_index.fill(-1);
        for (int index = 0; index < length; ++index) {
            const int tile = path_tile(ruleset, 0, index);
            other_index[index] = path_index_of(ruleset, 1, tile);
            capturable[index] = other_index[index] >= 0 && !(is_rosette(tile) && traits_of(ruleset).rosettes_safe);
        }
        for (const Roll& roll : roll_outcomes(ruleset))
            roll_probability[roll.number] = static_cast<float>(roll.probability);
    }
};

const RulesetTables& tables(Ruleset ruleset) {
    static const std::array<RulesetTables, 3> all = {RulesetTables(Ruleset::finkel),
                                                     RulesetTables(Ruleset::masters),
                                                     RulesetTables(Ruleset::blitz)};
    return all[static_cast<int>(ruleset)];
}

}  // namespace

int feature_count(FeatureSet set) { return set == FeatureSet::basic ? 2 * basic_per_side : 2 * rich_per_side; }

std::string_view feature_set_name(FeatureSet set) { return set == FeatureSet::basic ? "basic" : "rich"; }

Expected<FeatureSet> parse_feature_set(std::string_view name) {
    if (name == "basic") return FeatureSet::basic;
    if (name == "rich") return FeatureSet::rich;
    return make_error(fmt::format("unknown feature set '{}': basic or rich", name));
}

void encode_features(const State& state, FeatureSet set, search::learning::FeatureList& features) {
    features.clear();
    const int me = index_of(state.to_move);
    const int length = state.path_length();
    const unsigned masks[2] = {path_mask(state, me), path_mask(state, 1 - me)};
    const int sides[2] = {me, 1 - me};
    const float pieces = static_cast<float>(state.pieces);
    if (set == FeatureSet::basic) {
        for (int view = 0; view < 2; ++view) {
            const int base = view * basic_per_side;
            for (unsigned rest = masks[view]; rest; rest &= rest - 1) features.add(base + std::countr_zero(rest), 1.0f);
            features.add(base + max_path_length, static_cast<float>(state.waiting[sides[view]]) / pieces);
            features.add(base + max_path_length + 1, static_cast<float>(state.scored[sides[view]]) / pieces);
        }
        return;
    }
    const RulesetTables& t = tables(state.ruleset);
    for (int view = 0; view < 2; ++view) {
        const int base = view * rich_per_side;
        const int side = sides[view];
        const unsigned mine = masks[view], theirs = masks[1 - view];
        for (unsigned rest = mine; rest; rest &= rest - 1) features.add(base + std::countr_zero(rest), 1.0f);
        for (int k = 1; k <= state.waiting[side]; ++k) features.add(base + 15 + k, 1.0f);
        for (int k = 1; k <= state.scored[side]; ++k) features.add(base + 22 + k, 1.0f);
        features.add(base + 30,
                     static_cast<float>(race_progress(state, side)) / (pieces * static_cast<float>(length + 1)));
        unsigned any_roll = 0;  // bit r: roll r captures something
        for (unsigned rest = mine; rest; rest &= rest - 1) {
            const int index = std::countr_zero(rest);
            if (!t.capturable[index]) continue;
            const int there = t.other_index[index];  // the tile on the other side's path
            unsigned rolls = 0;
            for (int roll = 1; roll <= 4; ++roll)
                if (there - roll >= 0 && (theirs & (1u << (there - roll))) && t.roll_probability[roll] > 0)
                    rolls |= 1u << roll;
            if (!rolls) continue;
            float chance = 0;
            for (unsigned r = rolls; r; r &= r - 1) chance += t.roll_probability[std::countr_zero(r)];
            features.add(base + 31 + index, chance);
            any_roll |= rolls;
        }
        float any = 0;
        for (unsigned r = any_roll; r; r &= r - 1) any += t.roll_probability[std::countr_zero(r)];
        features.add(base + 47, any);
    }
}

}  // namespace bge::ur
