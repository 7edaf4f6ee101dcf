// The td network's weights file, written by train_ur_td and read by the TdWeights option and for
// the built-in networks (docs/ur.md, "The weights file").
//
// Binary, little-endian (what the trainer writes and engines/ur/nets/ holds):
//   char[8]  "BGEURTDN"
//   uint32   format version: 1
//   uint32   ruleset: 0 finkel, 1 masters, 2 blitz
//   uint32   features: 0 basic, 1 rich
//   uint32   activation: 0 sigmoid, 1 relu
//   uint32   inputs, hidden1, hidden2 (0: one hidden layer)
//   uint32   parameter count, which the layer sizes must give
//   uint32   description length in bytes, then the description (how it was trained; UTF-8)
//   float32  the parameters in ValueNetwork's order (search/learning/value_network.hpp)
//   uint32   FNV-1a checksum of every byte before it
// Floats are stored bit for bit, so a network reads back exactly as it was written.
//
// Text (still read; written on request): "ur-td-network 2", then the lines "ruleset R",
// "features F", "activation A", "layers I H1 H2", then one number a line. The study's
// "ur-td-network 1": "I H", then the first layer unit by unit, then the rest (basic features, one
// sigmoid layer, Finkel).

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "engines/ur/td_network.hpp"

namespace bge::ur {

using search::learning::Activation;
using search::learning::ValueNetwork;

namespace {

constexpr std::string_view binary_magic = "BGEURTDN";
constexpr std::string_view text_magic = "ur-td-network";
constexpr std::uint32_t binary_version = 1;
constexpr std::uint32_t max_description = 1 << 16;
// Magic, version, ruleset, features, activation, three layer sizes, parameter count,
// description length.
constexpr std::size_t fixed_header_bytes = binary_magic.size() + 9 * 4;

std::uint32_t fnv1a(std::string_view bytes) {
    std::uint32_t hash = 2166136261u;
    for (char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
    return hash;
}

// The codes in the file, spelled out so that reordering an enum cannot change the format.
std::uint32_t ruleset_code(Ruleset ruleset) {
    return ruleset == Ruleset::masters ? 1 : ruleset == Ruleset::blitz ? 2 : 0;
}
std::uint32_t features_code(FeatureSet features) { return features == FeatureSet::rich ? 1 : 0; }
std::uint32_t activation_code(Activation activation) { return activation == Activation::relu ? 1 : 0; }

Expected<Ruleset> parse_ruleset(const std::string& name) {
    if (name == "finkel") return Ruleset::finkel;
    if (name == "masters") return Ruleset::masters;
    if (name == "blitz") return Ruleset::blitz;
    return make_error(fmt::format("unknown ruleset '{}'", name));
}

void put32(std::string& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

std::uint32_t get32(std::string_view bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return v;
}

// Inputs and hidden layers that make sense together; the message says what is wrong.
Status check_layers(FeatureSet features, long inputs, long hidden1, long hidden2) {
    if (inputs != feature_count(features) || hidden1 < 1 || hidden1 > ValueNetwork::max_hidden || hidden2 < 0 ||
        hidden2 > ValueNetwork::max_hidden)
        return make_error(fmt::format("layers {} {} {}; {} features need {} inputs, hidden layers 1 to {}", inputs,
                                      hidden1, hidden2, feature_set_name(features), feature_count(features),
                                      ValueNetwork::max_hidden));
    return success();
}

std::string binary_bytes(const TdNetwork& network) {
    const ValueNetwork& net = network.net;
    std::string out(binary_magic);
    put32(out, binary_version);
    put32(out, ruleset_code(network.ruleset));
    put32(out, features_code(network.features));
    put32(out, activation_code(net.activation()));
    put32(out, static_cast<std::uint32_t>(net.inputs()));
    put32(out, static_cast<std::uint32_t>(net.hidden1()));
    put32(out, static_cast<std::uint32_t>(net.hidden2()));
    put32(out, static_cast<std::uint32_t>(net.parameters().size()));
    const std::string_view description = std::string_view(network.description).substr(0, max_description);
    put32(out, static_cast<std::uint32_t>(description.size()));
    out += description;
    for (float w : net.parameters()) {
        std::uint32_t bits;
        std::memcpy(&bits, &w, sizeof bits);
        put32(out, bits);
    }
    put32(out, fnv1a(out));
    return out;
}

std::string text_bytes(const TdNetwork& network) {
    const ValueNetwork& net = network.net;
    std::string out = fmt::format("{} 2\nruleset {}\nfeatures {}\nactivation {}\nlayers {} {} {}\n", text_magic,
                                  ruleset_name(network.ruleset), feature_set_name(network.features),
                                  net.activation() == Activation::relu ? "relu" : "sigmoid", net.inputs(),
                                  net.hidden1(), net.hidden2());
    for (float w : net.parameters()) out += fmt::format("{:.9g}\n", w);  // 9 digits: exact for a float
    return out;
}

Expected<TdNetwork> parse_binary(std::string_view bytes) {
    if (bytes.size() < fixed_header_bytes)
        return make_error(fmt::format("cut short in its header ({} bytes)", bytes.size()));
    std::size_t at = binary_magic.size();
    auto next = [&] {
        const std::uint32_t v = get32(bytes, at);
        at += 4;
        return v;
    };
    const std::uint32_t version = next();
    if (version != binary_version)
        return make_error(fmt::format("format version {}; this program reads version {}", version, binary_version));
    const std::uint32_t ruleset = next(), features = next(), activation = next();
    const std::uint32_t inputs = next(), hidden1 = next(), hidden2 = next(), count = next(), text = next();
    if (ruleset > 2) return make_error(fmt::format("unknown ruleset code {}", ruleset));
    if (features > 1) return make_error(fmt::format("unknown feature set code {}", features));
    if (activation > 1) return make_error(fmt::format("unknown activation code {}", activation));
    TdNetwork result;
    result.ruleset = ruleset == 1 ? Ruleset::masters : ruleset == 2 ? Ruleset::blitz : Ruleset::finkel;
    result.features = features == 1 ? FeatureSet::rich : FeatureSet::basic;
    if (auto layers = check_layers(result.features, inputs, hidden1, hidden2); !layers)
        return make_error(layers.error());
    const std::size_t expected_count =
        ValueNetwork::parameter_count(static_cast<int>(inputs), static_cast<int>(hidden1), static_cast<int>(hidden2));
    if (count != expected_count)
        return make_error(fmt::format("the header counts {} parameters; layers {} {} {} have {}", count, inputs,
                                      hidden1, hidden2, expected_count));
    if (text > max_description) return make_error(fmt::format("a description of {} bytes", text));
    const std::size_t expected_size = fixed_header_bytes + text + 4 * std::size_t{count} + 4;
    if (bytes.size() < expected_size)
        return make_error(
            fmt::format("cut short: {} bytes of the {} its header announces", bytes.size(), expected_size));
    if (bytes.size() > expected_size)
        return make_error(fmt::format("{} bytes after the end its header announces", bytes.size() - expected_size));
    if (get32(bytes, expected_size - 4) != fnv1a(bytes.substr(0, expected_size - 4)))
        return make_error("the checksum does not match: the file is corrupt");
    result.description = std::string(bytes.substr(at, text));
    at += text;
    result.net = ValueNetwork(static_cast<int>(inputs), static_cast<int>(hidden1), static_cast<int>(hidden2),
                              activation == 1 ? Activation::relu : Activation::sigmoid);
    auto& parameters = result.net.parameters();
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const std::uint32_t bits = next();
        std::memcpy(&parameters[i], &bits, sizeof bits);
        if (!std::isfinite(parameters[i])) return make_error(fmt::format("parameter {} is not a finite number", i));
    }
    return result;
}

// The study's network: basic features, one sigmoid layer, weights unit-major.
Expected<TdNetwork> parse_text_version_1(std::istream& in) {
    int inputs = 0, hidden = 0;
    in >> inputs >> hidden;
    const int expected = feature_count(FeatureSet::basic);
    if (!in || inputs != expected || hidden < 1 || hidden > ValueNetwork::max_hidden)
        return make_error(fmt::format("{} inputs and {} hidden units; expected {} inputs", inputs, hidden, expected));
    TdNetwork result;
    result.features = FeatureSet::basic;
    result.net = ValueNetwork(inputs, hidden, 0, Activation::sigmoid);
    auto& p = result.net.parameters();
    for (int h = 0; h < hidden; ++h)
        for (int i = 0; i < inputs; ++i) in >> p[static_cast<std::size_t>(i) * hidden + h];
    for (std::size_t k = result.net.b1_offset(); k < p.size(); ++k) in >> p[k];
    if (!in) return make_error("truncated or not numbers");
    return result;
}

Expected<TdNetwork> parse_text_version_2(std::istream& in) {
    std::string key, ruleset, features, activation;
    long inputs = 0, hidden1 = 0, hidden2 = 0;
    in >> key >> ruleset;
    if (!in || key != "ruleset") return make_error("no ruleset line");
    in >> key >> features;
    if (!in || key != "features") return make_error("no features line");
    in >> key >> activation;
    if (!in || key != "activation" || (activation != "relu" && activation != "sigmoid"))
        return make_error("the activation must be relu or sigmoid");
    in >> key >> inputs >> hidden1 >> hidden2;
    if (!in || key != "layers") return make_error("no layers line");
    auto parsed_ruleset = parse_ruleset(ruleset);
    if (!parsed_ruleset) return make_error(parsed_ruleset.error());
    auto parsed_features = parse_feature_set(features);
    if (!parsed_features) return make_error(parsed_features.error());
    if (auto layers = check_layers(*parsed_features, inputs, hidden1, hidden2); !layers)
        return make_error(layers.error());
    TdNetwork result;
    result.ruleset = *parsed_ruleset;
    result.features = *parsed_features;
    result.net = ValueNetwork(static_cast<int>(inputs), static_cast<int>(hidden1), static_cast<int>(hidden2),
                              activation == "relu" ? Activation::relu : Activation::sigmoid);
    for (float& w : result.net.parameters()) in >> w;
    if (!in) return make_error("truncated or not numbers");
    std::string rest;
    if (in >> rest) return make_error("trailing text after the weights");
    return result;
}

Expected<TdNetwork> parse_text(std::string_view bytes) {
    std::istringstream in{std::string(bytes)};
    std::string magic;
    int version = 0;
    in >> magic >> version;
    if (!in || magic != text_magic || (version != 1 && version != 2))
        return make_error("not an ur-td-network 1 or 2 text file");
    return version == 1 ? parse_text_version_1(in) : parse_text_version_2(in);
}

}  // namespace

std::string TdNetwork::to_bytes(WeightsFormat format) const {
    return format == WeightsFormat::binary ? binary_bytes(*this) : text_bytes(*this);
}

Expected<TdNetwork> TdNetwork::parse(std::string_view bytes) {
    if (bytes.starts_with(binary_magic)) return parse_binary(bytes);
    if (bytes.starts_with(text_magic)) return parse_text(bytes);
    return make_error(fmt::format("not an ur td network: it starts with neither {} (binary) nor {} (text)",
                                  binary_magic, text_magic));
}

Status TdNetwork::save(const std::string& path, WeightsFormat format) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return make_error(fmt::format("cannot write {}", path));
    const std::string bytes = to_bytes(format);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) return make_error(fmt::format("writing {} failed", path));
    return success();
}

Expected<TdNetwork> TdNetwork::load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(fmt::format("cannot open {}", path));
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return make_error(fmt::format("reading {} failed", path));
    auto parsed = parse(bytes);
    if (!parsed) return make_error(fmt::format("{}: {}", path, parsed.error()));
    return parsed;
}

}  // namespace bge::ur
