// The td player's pieces: the network's features (against values worked out by hand), the
// generic network's gradient (against finite differences), its fitting and TD(lambda) returns,
// the weights files (binary and text, round trip and refusals) and the shipped networks.

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <vector>

#include "core/random.hpp"
#include "engines/ur/features.hpp"
#include "engines/ur/nets/embedded.hpp"
#include "engines/ur/td_network.hpp"
#include "search/learning/network_fit.hpp"
#include "search/learning/value_network.hpp"
#include "ur_test_helpers.hpp"

using namespace bge;
using namespace bge::ur;
using search::learning::Activation;
using search::learning::FeatureList;
using search::learning::ValueNetwork;

namespace {

std::map<int, float> active(const State& state, FeatureSet set) {
    FeatureList x;
    encode_features(state, set, x);
    std::map<int, float> result;
    for (int k = 0; k < x.size; ++k) {
        CHECK(x.index[static_cast<std::size_t>(k)] < feature_count(set));
        result[x.index[static_cast<std::size_t>(k)]] = x.value[static_cast<std::size_t>(k)];
    }
    return result;
}

void check_features(const std::map<int, float>& got, const std::map<int, float>& expected) {
    CHECK(got.size() == expected.size());
    for (const auto& [index, value] : expected) {
        INFO("feature " << index);
        REQUIRE(got.count(index) == 1);
        CHECK(got.at(index) == Approx(value).margin(1e-6));
    }
}

}  // namespace

TEST_CASE("ur td: basic features are the study's 36 inputs", "[ur][td]") {
    // Light (to move): A4 (path index 0), A1 (3), 4 waiting, 1 borne off. Dark: C4 (0), C2 (2),
    // C1 (3), B4 (7), B5 (8), 2 waiting.
    const State state = testing::ur_position("L..L__../...DD.../DD.D__.. 4,1 2,0 l -");
    CHECK(feature_count(FeatureSet::basic) == 36);
    check_features(active(state, FeatureSet::basic), {{0, 1}, {3, 1}, {16, 4.0f / 7}, {17, 1.0f / 7},  //
                                                      {18, 1}, {20, 1}, {21, 1}, {25, 1}, {26, 1}, {34, 2.0f / 7}});
}

TEST_CASE("ur td: rich features: occupancy, counts, race and capture chances", "[ur][td]") {
    CHECK(feature_count(FeatureSet::rich) == 96);
    // Finkel, 2 pieces, Dark to move: Dark on B3 (its index 6) and B5 (8); Light on A1 (3) and B2
    // (5). Light hits B3 with a 1 (from B2) or a 3 (from A1): 4/16 + 4/16; B5 with a 3 (from B2).
    const State finkel = testing::ur_position("L...__../.LD.D.../....__.. 0,0 0,0 d -", Ruleset::finkel, 2);
    check_features(active(finkel, FeatureSet::rich), {{6, 1},
                                                      {8, 1},
                                                      {30, 16.0f / 30},  // (7 + 9) of 2 x 15
                                                      {37, 0.5f},
                                                      {39, 0.25f},
                                                      {47, 0.5f},
                                                      {48 + 3, 1},
                                                      {48 + 5, 1},
                                                      {48 + 30, 10.0f / 30}});
    // Masters, 2 pieces, Light to move: Light on C8 (its index 12), one waiting; Dark on B7 (10) and
    // A8 (12). The ends are crossed both ways: Dark reaches C8 (its index 14) from A8 with a 2
    // (3/8) and from B7 with a 4 (1/8); Light reaches A8 (its index 14) from C8 with a 2.
    const State masters = testing::ur_position("....__.D/......D./....__.L 1,0 0,0 l -", Ruleset::masters, 2);
    check_features(active(masters, FeatureSet::rich), {{12, 1},
                                                       {16, 1},
                                                       {30, 13.0f / 34},
                                                       {43, 0.5f},
                                                       {47, 0.5f},
                                                       {48 + 10, 1},
                                                       {48 + 12, 1},
                                                       {48 + 30, 24.0f / 34},
                                                       {48 + 43, 0.375f},
                                                       {48 + 47, 0.375f}});
    // A piece on Finkel's safe B4 is never at risk.
    const State safe = testing::ur_position("L...__../.L.D..../....__.. 0,0 1,0 d -", Ruleset::finkel, 2);
    CHECK(active(safe, FeatureSet::rich).count(31 + 7) == 0);
}

TEST_CASE("ur td: features are the same for a position and its colour mirror", "[ur][td]") {
    const State light = testing::ur_position("L..L__../...DD.../DD.D__.. 4,1 2,0 l -");
    // The same pieces with colours and columns swapped, Dark to move.
    const State dark = testing::ur_position("LL.L__../...LL.../D..D__.. 2,0 4,1 d -");
    for (FeatureSet set : {FeatureSet::basic, FeatureSet::rich}) CHECK(active(light, set) == active(dark, set));
    CHECK(builtin_td_network(Ruleset::finkel).win_probability(light) ==
          Approx(builtin_td_network(Ruleset::finkel).win_probability(dark)));
}

TEST_CASE("ur td: the network's gradient matches finite differences", "[ur][td][learning]") {
    for (Activation activation : {Activation::relu, Activation::sigmoid}) {
        for (int hidden2 : {0, 5}) {
            INFO("activation " << static_cast<int>(activation) << " hidden2 " << hidden2);
            ValueNetwork net(6, 7, hidden2, activation);
            net.randomize(11, 3);
            for (float& w : net.parameters()) w += 0.05f;  // biases off zero, so ReLUs differ
            FeatureList x;
            x.add(1, 1.0f);
            x.add(3, 0.5f);
            x.add(4, -0.25f);
            const double target = 0.3;
            auto loss = [&] { return search::learning::cross_entropy(net.probability(x), target); };
            ValueNetwork::Activations act;
            const double p = net.forward(x, act);
            std::vector<float> gradient(net.parameters().size(), 0.0f);
            net.backward(x, act, p - target, gradient.data());
            int checked = 0;
            for (std::size_t i = 0; i < net.parameters().size(); ++i) {
                float& w = net.parameters()[i];
                const float saved = w;
                const float h = 1e-3f;
                w = saved + h;
                const double up = loss();
                w = saved - h;
                const double down = loss();
                w = saved;
                const double numeric = (up - down) / (2 * h);
                INFO("parameter " << i);
                CHECK(gradient[i] == Approx(numeric).margin(2e-3));
                checked += gradient[i] != 0.0f ? 1 : 0;
            }
            CHECK(checked > 10);
        }
    }
}

TEST_CASE("ur td: fitting learns targets, the same for any thread count", "[ur][td][learning]") {
    search::learning::SparseDataset samples;
    // Input i alone means "probability i / 10".
    for (int i = 1; i <= 9; ++i) {
        FeatureList x;
        x.add(i, 1.0f);
        samples.add(x, static_cast<float>(i) / 10);
    }
    std::vector<std::uint32_t> order;
    for (std::uint32_t r = 0; r < 40; ++r)
        for (std::uint32_t i = 0; i < 9; ++i) order.push_back((i * 7 + r) % 9);
    std::vector<float> weights[2];
    for (int threads = 1; threads <= 2; ++threads) {
        ValueNetwork net(10, 8, 4, Activation::relu);
        net.randomize(5, 1);
        search::learning::NetworkFit fit(net, threads);
        search::learning::FitLoss loss;
        for (int epoch = 0; epoch < 30; ++epoch) loss = fit.train(samples, order, 6, 0.01);
        for (int i = 1; i <= 9; ++i) {
            FeatureList x;
            x.add(i, 1.0f);
            CHECK(net.probability(x) == Approx(i / 10.0).margin(0.02));
        }
        CHECK(loss.squared_error < 0.02 * 0.02);
        CHECK(loss.cross_entropy < 0.7);
        weights[threads - 1] = net.parameters();
    }
    CHECK(weights[0] == weights[1]);
}

TEST_CASE("ur td: TD(lambda) returns", "[ur][td][learning]") {
    const std::vector<float> values = {0.5f, 0.6f, 0.2f};
    // lambda 0: the next value; lambda 1: the result; in between, the recursion by hand.
    const auto zero = search::learning::lambda_returns(values, 1.0, 0.0);
    CHECK(zero == std::vector<float>{0.6f, 0.2f, 1.0f});
    const auto one = search::learning::lambda_returns(values, 1.0, 1.0);
    CHECK(one == std::vector<float>{1.0f, 1.0f, 1.0f});
    const auto half = search::learning::lambda_returns(values, 0.0, 0.5);
    CHECK(half[2] == 0.0f);
    CHECK(half[1] == Approx(0.5 * 0.2 + 0.5 * 0.0));
    CHECK(half[0] == Approx(0.5 * 0.6 + 0.5 * 0.1));
}

TEST_CASE("ur td: weights files round-trip, the study's format loads, bad files are refused", "[ur][td]") {
    const auto dir = std::filesystem::temp_directory_path() / "bge_ur_td_test";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "net.txt").string();
    const State state = testing::ur_position("L..L__../...DD.../DD.D__.. 4,1 2,0 l -", Ruleset::masters);
    TdNetwork random = TdNetwork::random(Ruleset::masters, FeatureSet::rich, 9, 4, Activation::relu, 3);
    random.description = "nine and four";
    for (const WeightsFormat format : {WeightsFormat::binary, WeightsFormat::text}) {
        REQUIRE(random.save(path, format));
        auto loaded = TdNetwork::load(path);
        REQUIRE(loaded);
        CHECK(loaded->ruleset == Ruleset::masters);
        CHECK(loaded->features == FeatureSet::rich);
        CHECK(loaded->net.activation() == Activation::relu);
        CHECK(loaded->net.hidden2() == 4);
        CHECK(loaded->net.parameters() == random.net.parameters());
        CHECK(loaded->win_probability(state) == random.win_probability(state));
        CHECK(loaded->description == (format == WeightsFormat::binary ? "nine and four" : ""));
    }

    // Version 1: 36 inputs, one sigmoid layer, weights unit by unit. One unit whose weight from
    // input 0 (a Light piece on A4) is 2, output weight 3, output bias -1.
    std::ofstream v1(dir / "v1.txt");
    v1 << "ur-td-network 1\n36 1\n2\n";
    for (int i = 1; i < 36; ++i) v1 << "0\n";
    v1 << "0\n3\n-1\n";
    v1.close();
    auto study = TdNetwork::load((dir / "v1.txt").string());
    REQUIRE(study);
    CHECK(study->features == FeatureSet::basic);
    auto sigmoid = [](double z) { return 1 / (1 + std::exp(-z)); };
    const State with = testing::ur_position("...L__../......../....__.. 6,0 7,0 l -");
    const State without = testing::ur_position("..L.__../......../....__.. 6,0 7,0 l -");
    CHECK(study->win_probability(with) == Approx(sigmoid(3 * sigmoid(2) - 1)));
    CHECK(study->win_probability(without) == Approx(sigmoid(3 * 0.5 - 1)));

    auto refused = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir / name) << text;
        auto bad = TdNetwork::load((dir / name).string());
        REQUIRE_FALSE(bad);
        return bad.error();
    };
    CHECK_THAT(refused("inputs.txt", "ur-td-network 1\n10 5\n1 2 3\n"), Catch::Contains("expected 36 inputs"));
    CHECK_THAT(refused("short.txt", "ur-td-network 1\n36 2\n1 2 3\n"), Catch::Contains("truncated"));
    CHECK_THAT(refused("ruleset.txt", "ur-td-network 2\nruleset chess\nfeatures rich\nactivation relu\nlayers 96 2 0\n"),
               Catch::Contains("unknown ruleset 'chess'"));
    CHECK_THAT(refused("layers.txt", "ur-td-network 2\nruleset finkel\nfeatures rich\nactivation relu\nlayers 36 2 0\n"),
               Catch::Contains("rich features need 96 inputs"));
    CHECK_THAT(refused("cut.txt", "ur-td-network 2\nruleset finkel\nfeatures basic\nactivation relu\nlayers 36 2 0\n1\n"),
               Catch::Contains("truncated"));
    std::string full = "ur-td-network 2\nruleset blitz\nfeatures basic\nactivation sigmoid\nlayers 36 1 0\n";
    for (std::size_t i = 0; i < ValueNetwork::parameter_count(36, 1, 0); ++i) full += "0.5\n";
    std::ofstream(dir / "full.txt") << full;
    CHECK(TdNetwork::load((dir / "full.txt").string()));
    CHECK_THAT(refused("trailing.txt", full + "7\n"), Catch::Contains("trailing"));
    CHECK_THAT(refused("missing.txt", ""), Catch::Contains("not an ur td network"));
    CHECK_THAT(refused("version.txt", "ur-td-network 3\n"), Catch::Contains("not an ur-td-network 1 or 2"));
    std::filesystem::remove_all(dir);
}

namespace {

// FNV-1a over the parameters' bits: the same weights, bit for bit, on any machine.
std::uint64_t parameter_hash(const TdNetwork& network) {
    std::uint64_t hash = 1469598103934665603ULL;
    for (float w : network.net.parameters()) {
        std::uint32_t bits;
        std::memcpy(&bits, &w, sizeof bits);
        hash = (hash ^ bits) * 1099511628211ULL;
    }
    return hash;
}

// Positions where a roll is due, from a seeded random game of `ruleset`.
std::vector<State> game_positions(Ruleset ruleset, std::uint64_t seed) {
    std::vector<State> positions;
    Random dice(seed);
    State state = start_state({ruleset, 0});
    while (!outcome(state).is_over()) {
        positions.push_back(state);
        play(state, *drawn_chance_outcome<Ur>(state, dice.unit()));
        FixedVector<Move, max_legal_moves> moves;
        generate_moves(state, moves);
        play(state, moves[dice.below(static_cast<std::uint32_t>(moves.size()))]);
    }
    return positions;
}

}  // namespace

TEST_CASE("ur td: a network per ruleset is built in, the weights of the former C++ tables", "[ur][td]") {
    // The parameter hashes of td_weights_<ruleset>.cpp, the tables these files replaced.
    const std::map<Ruleset, std::uint64_t> former = {{Ruleset::finkel, 0x8a23862aa361d33aULL},
                                                     {Ruleset::masters, 0x13cc9bd7fd5c35e7ULL},
                                                     {Ruleset::blitz, 0xc676e6e4d9551fadULL}};
    for (Ruleset ruleset : {Ruleset::finkel, Ruleset::masters, Ruleset::blitz}) {
        INFO(ruleset_name(ruleset));
        const TdNetwork& net = builtin_td_network(ruleset);
        CHECK(net.ruleset == ruleset);
        CHECK(net.features == FeatureSet::rich);
        CHECK(net.net.inputs() == 96);
        CHECK(net.net.hidden1() == 256);
        CHECK(net.net.hidden2() == 64);
        CHECK(net.net.parameters().size() == ValueNetwork::parameter_count(96, 256, 64));
        CHECK(parameter_hash(net) == former.at(ruleset));
        CHECK_THAT(net.description, Catch::StartsWith("train_ur_td: " + std::string(ruleset_name(ruleset))));
        const double p = net.win_probability(start_state({ruleset, 0}));
        CHECK(p > 0.3);
        CHECK(p < 0.7);
    }
}

TEST_CASE("ur td: the embedded files are what the trainer's writer writes, and read back the same", "[ur][td]") {
    const auto files = nets::embedded_files();
    REQUIRE(files.size() == 3);
    const auto dir = std::filesystem::temp_directory_path() / "bge_ur_td_embedded_test";
    std::filesystem::create_directories(dir);
    for (const auto& file : files) {
        INFO(file.name);
        auto parsed = TdNetwork::parse(file.bytes);
        REQUIRE(parsed);
        CHECK(std::string(ruleset_name(parsed->ruleset)) + ".net" == file.name);
        const TdNetwork& builtin = builtin_td_network(parsed->ruleset);
        CHECK(parsed->net.parameters() == builtin.net.parameters());
        // The writer gives back the shipped bytes: a trainer's file can replace one by a copy.
        CHECK(parsed->to_bytes() == file.bytes);
        for (const WeightsFormat format : {WeightsFormat::binary, WeightsFormat::text}) {
            const std::string path = (dir / file.name).string();
            REQUIRE(builtin.save(path, format));
            auto loaded = TdNetwork::load(path);
            REQUIRE(loaded);
            CHECK(loaded->net.parameters() == builtin.net.parameters());
            for (const State& position : game_positions(parsed->ruleset, 11)) {
                const double expected = builtin.win_probability(position);
                if (loaded->win_probability(position) != expected || parsed->win_probability(position) != expected)
                    FAIL_CHECK("a different value at " << format_position(position));
            }
        }
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("ur td: a binary file cut short, corrupt or inconsistent is refused with the reason", "[ur][td]") {
    const TdNetwork net = TdNetwork::random(Ruleset::blitz, FeatureSet::basic, 5, 0, Activation::sigmoid, 9);
    const std::string good = net.to_bytes();
    REQUIRE(TdNetwork::parse(good));
    auto refused = [](const std::string& bytes) {
        auto bad = TdNetwork::parse(bytes);
        REQUIRE_FALSE(bad);
        return bad.error();
    };
    // Little-endian uint32 fields after the 8-byte magic: version, ruleset, features, activation,
    // inputs, hidden1, hidden2, parameter count, description length.
    auto with_field = [&](int field, std::uint32_t value) {
        std::string bytes = good;
        for (int i = 0; i < 4; ++i)
            bytes[static_cast<std::size_t>(8 + 4 * field + i)] = static_cast<char>(value >> (8 * i));
        return bytes;
    };
    CHECK_THAT(refused(good.substr(0, 20)), Catch::Contains("cut short in its header"));
    CHECK_THAT(refused(good.substr(0, good.size() - 1)),
               Catch::Contains(fmt::format("cut short: {} bytes of the {}", good.size() - 1, good.size())));
    CHECK_THAT(refused(good + "x"), Catch::Contains("1 bytes after the end"));
    std::string flipped = good;
    flipped[good.size() / 2] ^= 0x10;
    CHECK_THAT(refused(flipped), Catch::Contains("checksum does not match"));
    CHECK_THAT(refused(with_field(0, 2)), Catch::Contains("format version 2; this program reads version 1"));
    CHECK_THAT(refused(with_field(1, 7)), Catch::Contains("unknown ruleset code 7"));
    CHECK_THAT(refused(with_field(4, 96)), Catch::Contains("basic features need 36 inputs"));
    CHECK_THAT(refused(with_field(7, 12)), Catch::Contains("the header counts 12 parameters"));
    TdNetwork infinite = net;
    infinite.net.parameters()[3] = std::numeric_limits<float>::infinity();
    CHECK_THAT(refused(infinite.to_bytes()), Catch::Contains("parameter 3 is not a finite number"));
    CHECK_THAT(refused("BGEURTDX"), Catch::Contains("not an ur td network"));
}
