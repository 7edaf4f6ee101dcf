#pragma once
// The td player's network (docs/ur.md, "Players"): a one-hidden-layer sigmoid network whose output
// is the probability that the side to move wins a position where a roll is due (an afterstate),
// trained by TD(lambda) self-play in tools/train/train_ur_td.cpp. Inputs, from the side to move:
// for each side (mover first) a 0/1 per path index (16), the pieces waiting and the pieces borne
// off (each / pieces).

#include <string>

#include "core/expected.hpp"
#include "core/ur/ur.hpp"
#include "search/learning/td_network.hpp"

namespace bge::ur {

constexpr int td_inputs = 2 * (max_path_length + 2);

void td_features(const State& state, float* features);

struct TdNetwork {
    search::learning::SigmoidNetwork net;

    // For the side to move (1 or 0 when the game is over). The roll, if any, is ignored.
    double win_probability(const State& state) const;

    Status save(const std::string& path) const;  // text: "ur-td-network 1", sizes, then the numbers
    static Expected<TdNetwork> load(const std::string& path);
    std::string to_cpp(const std::string& comment) const;  // the source of td_weights.cpp
};

// The shipped network (td_weights.cpp, written by train_ur_td --cpp).
const TdNetwork& builtin_td_network();

}  // namespace bge::ur
