#include "engines/ur/td_network.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace bge::ur {

using search::learning::Activation;
using search::learning::ValueNetwork;

namespace {

Expected<Ruleset> parse_ruleset(const std::string& name) {
    if (name == "finkel") return Ruleset::finkel;
    if (name == "masters") return Ruleset::masters;
    if (name == "blitz") return Ruleset::blitz;
    return make_error(fmt::format("unknown ruleset '{}'", name));
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

Status TdNetwork::save(const std::string& path) const {
    std::ofstream out(path, std::ios::trunc);
    if (!out) return make_error(fmt::format("cannot write {}", path));
    out << "ur-td-network 2\nruleset " << ruleset_name(ruleset) << "\nfeatures " << feature_set_name(features)
        << "\nactivation " << (net.activation() == Activation::relu ? "relu" : "sigmoid") << "\nlayers "
        << net.inputs() << ' ' << net.hidden1() << ' ' << net.hidden2() << '\n';
    for (float w : net.parameters()) out << fmt::format("{:.9g}\n", w);
    out.flush();
    if (!out) return make_error(fmt::format("writing {} failed", path));
    return success();
}

Expected<TdNetwork> TdNetwork::load(const std::string& path) {
    std::ifstream in(path);
    if (!in) return make_error(fmt::format("cannot open {}", path));
    std::string magic;
    int version = 0;
    in >> magic >> version;
    if (!in || magic != "ur-td-network" || (version != 1 && version != 2))
        return make_error(fmt::format("{}: not an ur-td-network 1 or 2 file", path));
    TdNetwork result;
    if (version == 1) {
        // The study's network: basic features, one sigmoid layer, weights unit-major.
        int inputs = 0, hidden = 0;
        in >> inputs >> hidden;
        const int expected = feature_count(FeatureSet::basic);
        if (!in || inputs != expected || hidden < 1 || hidden > ValueNetwork::max_hidden)
            return make_error(fmt::format("{}: {} inputs and {} hidden units; expected {} inputs", path, inputs,
                                          hidden, expected));
        result.features = FeatureSet::basic;
        result.net = ValueNetwork(inputs, hidden, 0, Activation::sigmoid);
        auto& p = result.net.parameters();
        for (int h = 0; h < hidden; ++h)
            for (int i = 0; i < inputs; ++i) in >> p[static_cast<std::size_t>(i) * hidden + h];
        for (std::size_t k = result.net.b1_offset(); k < p.size(); ++k) in >> p[k];
        if (!in) return make_error(fmt::format("{}: truncated or not numbers", path));
        return result;
    }
    std::string key, ruleset, features, activation;
    int inputs = 0, hidden1 = 0, hidden2 = 0;
    in >> key >> ruleset;
    if (!in || key != "ruleset") return make_error(fmt::format("{}: no ruleset line", path));
    in >> key >> features;
    if (!in || key != "features") return make_error(fmt::format("{}: no features line", path));
    in >> key >> activation;
    if (!in || key != "activation" || (activation != "relu" && activation != "sigmoid"))
        return make_error(fmt::format("{}: the activation must be relu or sigmoid", path));
    in >> key >> inputs >> hidden1 >> hidden2;
    if (!in || key != "layers") return make_error(fmt::format("{}: no layers line", path));
    auto parsed_ruleset = parse_ruleset(ruleset);
    if (!parsed_ruleset) return make_error(fmt::format("{}: {}", path, parsed_ruleset.error()));
    auto parsed_features = parse_feature_set(features);
    if (!parsed_features) return make_error(fmt::format("{}: {}", path, parsed_features.error()));
    if (inputs != feature_count(*parsed_features) || hidden1 < 1 || hidden1 > ValueNetwork::max_hidden ||
        hidden2 < 0 || hidden2 > ValueNetwork::max_hidden)
        return make_error(fmt::format("{}: layers {} {} {}; {} features need {} inputs, hidden layers 1 to {}", path,
                                      inputs, hidden1, hidden2, features, feature_count(*parsed_features),
                                      ValueNetwork::max_hidden));
    result.ruleset = *parsed_ruleset;
    result.features = *parsed_features;
    result.net = ValueNetwork(inputs, hidden1, hidden2, activation == "relu" ? Activation::relu : Activation::sigmoid);
    for (float& w : result.net.parameters()) in >> w;
    if (!in) return make_error(fmt::format("{}: truncated or not numbers", path));
    std::string rest;
    if (in >> rest) return make_error(fmt::format("{}: trailing text after the weights", path));
    return result;
}

std::string TdNetwork::to_cpp(const std::string& comment) const {
    std::ostringstream out;
    const std::string name(ruleset_name(ruleset));
    out << "// Generated by train_ur_td --cpp; do not edit. " << comment << "\n"
        << "#include \"engines/ur/td_network.hpp\"\n\nnamespace bge::ur {\n\nnamespace {\n\n"
        << "const float parameters[] = {";
    const auto& p = net.parameters();
    for (std::size_t i = 0; i < p.size(); ++i) out << (i % 8 == 0 ? "\n    " : " ") << fmt::format("{:.8g}f,", p[i]);
    out << "\n};\n\n}  // namespace\n\nconst TdNetwork& builtin_td_network_" << name << "() {\n"
        << "    static const TdNetwork network = [] {\n        TdNetwork n;\n"
        << "        n.ruleset = Ruleset::" << name << ";\n"
        << "        n.features = FeatureSet::" << feature_set_name(features) << ";\n"
        << "        n.net = search::learning::ValueNetwork(" << net.inputs() << ", " << net.hidden1() << ", "
        << net.hidden2() << ", search::learning::Activation::"
        << (net.activation() == Activation::relu ? "relu" : "sigmoid") << ");\n"
        << "        n.net.parameters().assign(std::begin(parameters), std::end(parameters));\n"
        << "        return n;\n    }();\n    return network;\n}\n\n}  // namespace bge::ur\n";
    return out.str();
}

const TdNetwork& builtin_td_network(Ruleset ruleset) {
    switch (ruleset) {
        case Ruleset::masters:
            return builtin_td_network_masters();
        case Ruleset::blitz:
            return builtin_td_network_blitz();
        case Ruleset::finkel:
            break;
    }
    return builtin_td_network_finkel();
}

}  // namespace bge::ur
