#include "engines/ur/td_network.hpp"

#include <array>
#include <cstdio>

#include <fmt/format.h>

#include "engines/ur/nets/embedded.hpp"

namespace bge::ur {

using search::learning::Activation;
using search::learning::ValueNetwork;

namespace {

// The shipped network for `ruleset`. A shipped file that does not parse is a build defect (the
// tests parse every one); the engine still runs, with a network that rates every position even.
TdNetwork builtin_or_stand_in(Ruleset ruleset) {
    const std::string name = fmt::format("{}.net", ruleset_name(ruleset));
    std::string error = "not built in";
    for (const auto& file : nets::embedded_files()) {
        if (file.name != name) continue;
        auto parsed = TdNetwork::parse(file.bytes);
        if (parsed && parsed->ruleset == ruleset) return std::move(*parsed);
        error = parsed ? fmt::format("trained for {}", ruleset_name(parsed->ruleset)) : parsed.error();
    }
    std::fprintf(stderr, "ur: the built-in network nets/%s: %s; every position rates even\n", name.c_str(),
                 error.c_str());
    TdNetwork stand_in;
    stand_in.ruleset = ruleset;
    stand_in.net = ValueNetwork(feature_count(stand_in.features), 1, 0, Activation::sigmoid);
    return stand_in;
}

// Active inputs in a typical position, for the initial weights' scale.
double typical_active_inputs(FeatureSet features) { return features == FeatureSet::basic ? 10.0 : 30.0; }

}  // namespace

TdNetwork TdNetwork::random(Ruleset ruleset, FeatureSet features, int hidden1, int hidden2, Activation activation,
                            std::uint64_t seed) {
    TdNetwork result;
    result.ruleset = ruleset;
    result.features = features;
    result.net = ValueNetwork(feature_count(features), hidden1, hidden2, activation);
    result.net.randomize(seed, typical_active_inputs(features));
    return result;
}

double TdNetwork::win_probability(const State& state) const {
    if (const Outcome o = outcome(state); o.is_over()) return o.winner == state.to_move ? 1.0 : 0.0;
    search::learning::FeatureList x;
    encode_features(state, features, x);
    return net.probability(x);
}

const TdNetwork& builtin_td_network(Ruleset ruleset) {
    static const std::array<TdNetwork, 3> networks = [] {
        std::array<TdNetwork, 3> result;
        for (Ruleset r : {Ruleset::finkel, Ruleset::masters, Ruleset::blitz})
            result[static_cast<std::size_t>(r)] = builtin_or_stand_in(r);
        return result;
    }();
    return networks[static_cast<std::size_t>(ruleset)];
}

}  // namespace bge::ur
