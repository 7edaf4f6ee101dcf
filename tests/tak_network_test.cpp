// The Tak value network (engines/tak/network.hpp, search/learning/nnue.hpp):
// - the accumulators kept from one position to the next equal a full recomputation, exactly,
//   over random games on every size and in positions visited out of order;
// - the quantised forward pass stays within a bound derived from the weights of the float one;
// - the board symmetries map inputs one to one; network files round-trip and bad ones are refused
//   with the reason; every shipped network loads;
// - `train_tak_eval network` lowers its loss on a tiny run and writes a file the engine plays with;
// - the move policy: every move's features are in range, files round-trip and bad ones are
//   refused, `train_tak_eval policy` beats the uniform policy on held-out games.

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <set>

#include "arbiter_run.hpp"
#include "core/random.hpp"
#include "core/tak/tak.hpp"
#include "engines/tak/evaluation.hpp"
#include "engines/tak/nets/embedded.hpp"
#include "engines/tak/network.hpp"
#include "engines/tak/policy.hpp"
#include "search/learning/nnue.hpp"

using namespace bge;
using namespace bge::tak;
using bge::search::learning::FeatureList;
using bge::search::learning::PerspectiveNetwork;
using bge::testing::run_program;
using bge::testing::scratch;
using bge::testing::transcript;

namespace {

PerspectiveNetwork random_network(int size, int hidden, std::uint64_t seed) {
    PerspectiveNetwork net(network::input_count(size), hidden);
    net.randomize(seed, 40);
    // Biases too, so units sit on both sides of crelu's corners.
    Random random(seed + 1);
    for (std::size_t i = net.b1_offset(); i < net.wo_offset(); ++i)
        net.parameters()[i] = static_cast<float>(random.unit() - 0.3);
    net.parameters().back() = 0.1f;
    return net;
}

std::shared_ptr<network::NetworkSet> set_of(const std::vector<PerspectiveNetwork>& nets) {
    auto set = std::make_shared<network::NetworkSet>();
    for (const auto& net : nets) {
        const auto added = set->add_bytes(search::learning::format_network(net), "test");
        REQUIRE(added.ok());
    }
    return set;
}

// Plays a random game from the start, calling visit(state) before every move.
template <class Visit>
void random_game(int size, int half_komi, Random& random, Visit&& visit) {
    Variant variant;
    variant.size = size;
    variant.half_komi = half_komi;
    State state = start_state(variant);
    MoveList<Tak> moves;
    for (int ply = 0; ply < 300 && !outcome(state).is_over(); ++ply) {
        visit(state);
        moves.clear();
        generate_moves(state, moves);
        play(state, moves[random.below(static_cast<std::uint32_t>(moves.size()))]);
    }
    visit(state);
}

// The largest error the quantisation can make (nnue.hpp): each accumulator is off by at most half
// a unit per row added (bias included), crelu passes at most that on, and each output weight and
// the output bias are rounded by at most half a unit.
double quantisation_bound(const PerspectiveNetwork& net, const FeatureList& x) {
    namespace q = search::learning::nnue;
    int rows[2] = {0, 0};
    for (int k = 0; k < x.size; ++k) ++rows[x.index[static_cast<std::size_t>(k)] >= net.inputs() ? 1 : 0];
    double bound = 0.5 / (q::activation_scale * q::output_scale);
    for (int h = 0; h < 2 * net.hidden(); ++h) {
        const double wo = std::abs(net.parameters()[net.wo_offset() + static_cast<std::size_t>(h)]);
        const double accumulator_error = (rows[h < net.hidden() ? 0 : 1] + 1) * 0.5 / q::activation_scale;
        bound += (wo + 0.5 / q::output_scale) * accumulator_error + 0.5 / q::output_scale;
    }
    return bound;
}

}  // namespace

TEST_CASE("the network's accumulators follow random games exactly, on every size", "[tak][network]") {
    std::vector<PerspectiveNetwork> nets;
    for (int size = min_size; size <= max_size; ++size) nets.push_back(random_network(size, 32, 100 + size));
    const auto set = set_of(nets);
    Random random(7);
    for (int size = min_size; size <= max_size; ++size) {
        const PerspectiveNetwork& exact = nets[static_cast<std::size_t>(size - min_size)];
        network::NetworkEvaluator evaluator(set);
        REQUIRE(evaluator.covers(size));
        double worst_error = 0, total_error = 0;
        int positions = 0;
        for (int game = 0; game < 6; ++game) {
            random_game(size, game % 2 ? 4 : 0, random, [&](const State& state) {
                const double incremental = evaluator.logit(state);
                REQUIRE(incremental == evaluator.logit_from_scratch(state));
                FeatureList x;
                network::sample_inputs(state, x);
                const double error = std::abs(incremental - exact.logit(x));
                REQUIRE(error <= quantisation_bound(exact, x));
                worst_error = std::max(worst_error, error);
                total_error += error;
                ++positions;
            });
        }
        INFO("size " << size << ": mean quantisation error " << total_error / positions << " logit, worst "
                     << worst_error);
        CHECK(total_error / positions < 0.05);
    }
}

TEST_CASE("the network's accumulators are right for positions visited in any order", "[tak][network]") {
    const auto set = set_of({random_network(6, 64, 3)});
    Random random(11);
    std::vector<State> positions;
    for (int game = 0; game < 8; ++game) random_game(6, 4, random, [&](const State& s) { positions.push_back(s); });
    network::NetworkEvaluator evaluator(set);
    for (int k = 0; k < 2000; ++k) {
        const State& state = positions[random.below(static_cast<std::uint32_t>(positions.size()))];
        REQUIRE(evaluator.logit(state) == evaluator.logit_from_scratch(state));
    }
    // A copy starts afresh and agrees too.
    const network::NetworkEvaluator copy = evaluator;
    CHECK(copy.logit(positions[5]) == evaluator.logit_from_scratch(positions[5]));
}

TEST_CASE("the evaluation uses the network only where asked and where it covers the size", "[tak][network]") {
    const auto set = set_of({random_network(5, 32, 9)});
    TakEvaluator linear, with_network;
    with_network.use_networks(set);
    Random random(3);
    for (int size : {5, 6}) {
        random_game(size, 4, random, [&](const State& state) {
            if (TakEvaluator::road_in_one_squares(state, state.side_to_move())) return;
            const int expected = size == 5 ? static_cast<int>(std::lround(network::NetworkEvaluator(set).logit(state) *
                                                                          network::centiflats_per_logit))
                                           : linear.evaluate_quiet(state);
            REQUIRE(with_network.evaluate_quiet(state) ==
                    std::clamp(expected, -TakEvaluator::road_in_one_score + 1, TakEvaluator::road_in_one_score - 1));
        });
    }
}

TEST_CASE("board symmetries map the inputs one to one", "[tak][network]") {
    for (int size = min_size; size <= max_size; ++size) {
        const int inputs = network::input_count(size);
        CHECK(network::size_for_inputs(inputs) == size);
        for (int symmetry = 0; symmetry < 8; ++symmetry) {
            std::set<int> images;
            for (int i = 0; i < inputs; ++i) {
                const int image = network::transformed_input(i, size, symmetry);
                REQUIRE(image >= 0);
                REQUIRE(image < inputs);
                images.insert(image);
                if (symmetry == 0) REQUIRE(image == i);
            }
            CHECK(static_cast<int>(images.size()) == inputs);
        }
    }
    // A quarter turn four times is the identity; a mirror twice too.
    for (int i = 0; i < network::input_count(6); ++i) {
        int turned = i;
        for (int k = 0; k < 4; ++k) turned = network::transformed_input(turned, 6, 1);
        REQUIRE(turned == i);
        REQUIRE(network::transformed_input(network::transformed_input(i, 6, 4), 6, 4) == i);
    }
}

TEST_CASE("network files round-trip, and bad ones are refused with the reason", "[tak][network]") {
    PerspectiveNetwork net = random_network(6, 32, 1);
    net.description = "a test";
    const std::string bytes = search::learning::format_network(net);
    auto back = search::learning::parse_network(bytes);
    REQUIRE(back.ok());
    CHECK(back->parameters() == net.parameters());
    CHECK(back->description == "a test");

    CHECK(search::learning::parse_network("hello").error().find("not a network file") != std::string::npos);
    CHECK(search::learning::parse_network(bytes.substr(0, 14)).error().find("cut short") != std::string::npos);
    CHECK(search::learning::parse_network(bytes.substr(0, bytes.size() - 6)).error().find("expected") !=
          std::string::npos);
    network::NetworkSet set;
    PerspectiveNetwork odd(100, 32);
    CHECK(set.add_bytes(search::learning::format_network(odd), "odd.nnue").error().find("no Tak board size") !=
          std::string::npos);
    PerspectiveNetwork big = random_network(6, 32, 2);
    big.parameters()[0] = 3.0f;  // could overflow an int16 accumulator
    CHECK(set.add_bytes(search::learning::format_network(big), "big.nnue").error().find("outside") !=
          std::string::npos);
    CHECK(set.add_file(scratch().file("no_such.nnue")).error().find("cannot read") != std::string::npos);
}

TEST_CASE("every shipped network loads and covers its size", "[tak][network]") {
    const auto builtin = network::NetworkSet::builtin();
    for (const auto& file : nets::embedded_files()) {
        if (!file.name.ends_with(".nnue")) continue;
        network::NetworkSet one;
        INFO(file.name);
        REQUIRE(one.add_bytes(file.bytes, file.name).ok());
        const auto net = search::learning::parse_network(file.bytes);
        REQUIRE(net.ok());
        CHECK(builtin->for_size(network::size_for_inputs(net->inputs())) != nullptr);
    }
}

TEST_CASE("train_tak_eval network: a tiny fit lowers the loss and the engine plays with its file",
          "[tak][network][learning]") {
    const std::string trainer = BGE_TRAIN_TAK_EVAL_BINARY;
    const std::string games = scratch().file("network_games.bin");
    const auto played = run_program(trainer, {"selfplay", "--size", "5", "--half-komi", "4", "--games", "40",
                                              "--nodes", "300", "--threads", "2", "--seed", "9", "--out", games});
    INFO(transcript(played));
    REQUIRE(played.status == 0);
    const std::string file = scratch().file("tiny.nnue");
    const std::string curve = scratch().file("tiny_network_curve.csv");
    const auto fitted = run_program(trainer, {"network", "--games", games, "--size", "5", "--hidden", "16", "--epochs",
                                              "8", "--batch", "64", "--learning-rate", "0.003", "--symmetries", "2",
                                              "--validation-every", "5", "--out", file, "--curve", curve});
    INFO(transcript(fitted));
    REQUIRE(fitted.status == 0);
    REQUIRE(fitted.lines.size() == 11);
    CHECK(fitted.lines.back().rfind("kept the network of epoch ", 0) == 0);
    const auto number_after = [](const std::string& line, const std::string& word) {
        const auto at = line.find(word);
        REQUIRE(at != std::string::npos);
        return std::stod(line.substr(at + word.size()));
    };
    const double start = number_after(fitted.lines[1], "network at the start ");
    const double end = number_after(fitted.lines.back(), "validation ");
    CHECK(end < start - 0.01);
    const std::string& last_epoch = fitted.lines[fitted.lines.size() - 2];
    CHECK(number_after(last_epoch, "train ") < number_after(fitted.lines[2], "train "));
    network::NetworkSet set;
    REQUIRE(set.add_file(file).ok());
    CHECK(set.for_size(5) != nullptr);

    // The engine plays with it, and says why when a file will not do.
    const auto engine = run_program(BGE_TAK_BINARY, {"setoption name UseNnue value true",
                                                     "setoption name NnueFile value " + file, "teinewgame 5",
                                                     "position startpos moves a1 e5", "go depth 3"});
    INFO(transcript(engine));
    CHECK(engine.status == 0);
    CHECK(engine.lines.back().rfind("bestmove ", 0) == 0);
    CHECK(engine.errors.empty());
    const auto broken = run_program(BGE_TAK_BINARY, {"setoption name UseNnue value true",
                                                     "setoption name NnueFile value " + games, "teinewgame 5",
                                                     "position startpos", "go depth 2"});
    CHECK(broken.status == 0);
    CHECK(broken.lines.back().rfind("bestmove ", 0) == 0);
    CHECK(broken.errors.find("NnueFile: ") != std::string::npos);
    CHECK(broken.errors.find("not a network file") != std::string::npos);

    const auto bad = run_program(trainer, {"network", "--games", games, "--hidden", "20", "--out", file});
    CHECK(bad.status == 2);

    // The next generation's games are played with the fitted network: other games than the
    // linear evaluation's from the same seed, and a file that is no network is refused.
    const std::string next = scratch().file("network_games_2.bin");
    const std::vector<std::string> same = {"selfplay", "--size", "5", "--half-komi", "4", "--games", "40", "--nodes",
                                           "300", "--threads", "2", "--seed", "9", "--out"};
    auto with_network = same;
    with_network.insert(with_network.end(), {next, "--network", file});
    const auto generation = run_program(trainer, with_network);
    INFO(transcript(generation));
    REQUIRE(generation.status == 0);
    CHECK(generation.errors.find("40 games") != std::string::npos);
    CHECK(bge::testing::read_file(next) != bge::testing::read_file(games));
    auto refused = same;
    refused.insert(refused.end(), {next, "--network", games});
    const auto not_a_network = run_program(trainer, refused);
    CHECK(not_a_network.status == 1);
    CHECK(not_a_network.errors.find("not a network file") != std::string::npos);
}

TEST_CASE("the move policy's features are in range and its files round-trip", "[tak][policy]") {
    Random random(5);
    std::vector<std::uint16_t> features;
    for (int size = min_size; size <= max_size; ++size) {
        random_game(size, 0, random, [&](const State& state) {
            MoveList<Tak> moves;
            generate_moves(state, moves);
            const policy::Context context = policy::context_of(state);
            for (const Move move : moves) {
                policy::move_features(state, context, move, features);
                REQUIRE(!features.empty());
                for (const auto f : features) REQUIRE(f < policy::feature_count());
                // No feature twice: the weights add up once each.
                std::set<std::uint16_t> distinct(features.begin(), features.end());
                REQUIRE(distinct.size() == features.size());
            }
        });
    }
    std::vector<float> weights(static_cast<std::size_t>(policy::feature_count()));
    for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(i % 7) * 0.25f - 0.5f;
    const policy::Policy made(weights);
    auto back = policy::Policy::parse(made.format("a test"));
    REQUIRE(back.ok());
    CHECK(back->weights() == weights);
    CHECK(policy::Policy::parse("hello").error().find("expected 'bge-tak-policy 1'") != std::string::npos);
    CHECK(policy::Policy::parse("bge-tak-policy 1\nno_such[0] 1\n").error().find("no feature 'no_such[0]'") !=
          std::string::npos);
    CHECK(policy::Policy::parse("bge-tak-policy 1\np_kind[0] x\n").error().find("line 2") != std::string::npos);
    CHECK(policy::Policy::load(scratch().file("no_such_policy.txt")).error().find("cannot read") != std::string::npos);
    const auto builtin = policy::Policy::builtin();
    REQUIRE(builtin);
    CHECK(builtin->weights().size() == static_cast<std::size_t>(policy::feature_count()));
}

TEST_CASE("train_tak_eval policy beats the uniform policy on held-out games, and the engine orders by it",
          "[tak][policy][learning]") {
    const std::string trainer = BGE_TRAIN_TAK_EVAL_BINARY;
    const std::string games = scratch().file("policy_games.bin");
    REQUIRE(run_program(trainer, {"selfplay", "--size", "5", "--half-komi", "4", "--games", "30", "--nodes", "300",
                                  "--threads", "2", "--seed", "4", "--out", games})
                .status == 0);
    const std::string file = scratch().file("tiny_policy.txt");
    const auto fitted = run_program(trainer, {"policy", "--games", games, "--epochs", "4", "--batch", "32",
                                              "--validation-every", "5", "--out", file});
    INFO(transcript(fitted));
    REQUIRE(fitted.status == 0);
    REQUIRE(fitted.lines.size() == 6);
    const auto number_after = [](const std::string& line, const std::string& word) {
        const auto at = line.find(word);
        REQUIRE(at != std::string::npos);
        return std::stod(line.substr(at + word.size()));
    };
    const double uniform = number_after(fitted.lines[1], "uniform policy loss ");
    CHECK(number_after(fitted.lines.back(), "validation ") < uniform - 0.1);
    REQUIRE(policy::Policy::load(file).ok());
    const auto engine = run_program(BGE_TAK_BINARY, {"setoption name UsePolicy value true",
                                                     "setoption name PolicyFile value " + file, "teinewgame 5",
                                                     "position startpos moves a1 e5", "go depth 3"});
    INFO(transcript(engine));
    CHECK(engine.lines.back().rfind("bestmove ", 0) == 0);
    CHECK(engine.errors.empty());
    const auto broken = run_program(BGE_TAK_BINARY, {"setoption name UsePolicy value true",
                                                     "setoption name PolicyFile value " + games, "teinewgame 5",
                                                     "position startpos", "go depth 2"});
    CHECK(broken.lines.back().rfind("bestmove ", 0) == 0);
    CHECK(broken.errors.find("PolicyFile: ") != std::string::npos);
}
