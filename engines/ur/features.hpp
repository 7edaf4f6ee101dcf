#pragma once
// Inputs of the td player's network (docs/ur.md, "Players"), always from the side to move's view
// (mover first, then the opponent), so a position and its colour mirror look the same.
//
// basic (36, the study's): per side a 0/1 per path index (16) and the pieces waiting and borne
//     off, each as a fraction of the pieces.
// rich (96): per side
//     0-15   a 0/1 per path index
//     16-22  at least k pieces waiting (k = 1..7)
//     23-29  at least k pieces borne off
//     30     the race: the side's progress (a piece at index i counts i + 1, a borne-off piece the
//            path length + 1) over the most it can have
//     31-46  per path index holding a piece: the chance that the other side's next roll can
//            capture it (the sum over the rolls that bring one of its pieces there)
//     47     the chance that the other side's next roll can capture any of this side's pieces

#include <cstdint>
#include <string_view>

#include "core/expected.hpp"
#include "core/ur/ur.hpp"
#include "search/learning/value_network.hpp"

namespace bge::ur {

enum class FeatureSet : std::uint8_t { basic = 1, rich = 2 };

int feature_count(FeatureSet set);
std::string_view feature_set_name(FeatureSet set);
Expected<FeatureSet> parse_feature_set(std::string_view name);

void encode_features(const State& state, FeatureSet set, search::learning::FeatureList& features);

}  // namespace bge::ur
