#pragma once
// The td player's network (docs/ur.md, "Players"): a multilayer perceptron whose output is the
// probability that the side to move wins a position where a roll is due (an afterstate), over the
// inputs of engines/ur/features.hpp, trained by tools/train/train_ur_td.cpp. One network per
// ruleset ships in engines/ur/nets/RULESET.net, built into the engine (nets/embedded.hpp) and read
// by the same parser as the TdWeights option (td_network_file.cpp).

#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/ur/ur.hpp"
#include "engines/ur/features.hpp"
#include "search/learning/value_network.hpp"

namespace bge::ur {

enum class WeightsFormat { binary, text };

struct TdNetwork {
    Ruleset ruleset = Ruleset::finkel;  // the rules it was trained for
    FeatureSet features = FeatureSet::rich;
    search::learning::ValueNetwork net;
    std::string description;  // how it was trained (one line; binary files only)

    // Random weights (seeded); hidden2 = 0: one hidden layer.
    static TdNetwork random(Ruleset ruleset, FeatureSet features, int hidden1, int hidden2,
                            search::learning::Activation activation, std::uint64_t seed);

    // For the side to move (1 or 0 when the game is over). The roll, if any, is ignored.
    double win_probability(const State& state) const;

    // The weights file (td_network_file.cpp, docs/ur.md "The weights file"): binary "BGEURTDN"
    // (what the trainer writes and the engine ships), or text "ur-td-network 2" (one number a
    // line). parse reads both and the study's "ur-td-network 1" text (basic features, one
    // sigmoid layer, trained on Finkel); a file that is cut short, corrupt or inconsistent is
    // refused with the reason.
    std::string to_bytes(WeightsFormat format = WeightsFormat::binary) const;
    static Expected<TdNetwork> parse(std::string_view bytes);
    Status save(const std::string& path, WeightsFormat format = WeightsFormat::binary) const;
    static Expected<TdNetwork> load(const std::string& path);
};

// The shipped network for a ruleset (nets/RULESET.net), parsed on first use.
const TdNetwork& builtin_td_network(Ruleset ruleset);

}  // namespace bge::ur
