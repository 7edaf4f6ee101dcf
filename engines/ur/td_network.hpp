#pragma once
// The td player's network (docs/ur.md, "Players"): a multilayer perceptron whose output is the
// probability that the side to move wins a position where a roll is due (an afterstate), over the
// inputs of engines/ur/features.hpp, trained by tools/train/train_ur_td.cpp. One network per
// ruleset ships compiled in (td_weights_<ruleset>.cpp).

#include <string>

#include "core/expected.hpp"
#include "core/ur/ur.hpp"
#include "engines/ur/features.hpp"
#include "search/learning/value_network.hpp"

namespace bge::ur {

struct TdNetwork {
    Ruleset ruleset = Ruleset::finkel;  // the rules it was trained for
    FeatureSet features = FeatureSet::rich;
    search::learning::ValueNetwork net;

    // Random weights (seeded); hidden2 = 0: one hidden layer.
    static TdNetwork random(Ruleset ruleset, FeatureSet features, int hidden1, int hidden2,
                            search::learning::Activation activation, std::uint64_t seed);

    // For the side to move (1 or 0 when the game is over). The roll, if any, is ignored.
    double win_probability(const State& state) const;

    // Text: "ur-td-network 2", the ruleset, feature set, activation and layer sizes, then one
    // number a line. load also reads the study's "ur-td-network 1" files (basic features, one
    // sigmoid layer, trained on Finkel).
    Status save(const std::string& path) const;
    static Expected<TdNetwork> load(const std::string& path);
    std::string to_cpp(const std::string& comment) const;  // the source of td_weights_<ruleset>.cpp
};

// The shipped network for a ruleset.
const TdNetwork& builtin_td_network(Ruleset ruleset);

// Defined in the generated td_weights_<ruleset>.cpp files.
const TdNetwork& builtin_td_network_finkel();
const TdNetwork& builtin_td_network_masters();
const TdNetwork& builtin_td_network_blitz();

}  // namespace bge::ur
