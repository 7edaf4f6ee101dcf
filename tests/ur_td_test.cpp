// The td player's pieces: TD(lambda) moves the network towards its targets (with the sign flip
// for positions seen from the other side), features are colour-blind, the weights file
// round-trips, and bad weights files are refused with a reason.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "engines/ur/td_network.hpp"
#include "search/learning/td_network.hpp"
#include "ur_test_helpers.hpp"

using namespace bge;
using namespace bge::ur;

TEST_CASE("ur td: TD(lambda) moves the value towards the target", "[ur][td]") {
    auto net = search::learning::SigmoidNetwork::random(4, 6, 3);
    const float features[4] = {1, 0, 1, 0.5f};
    const double before = net.evaluate(features);
    search::learning::TdLambdaLearner learner(net, 0.5, 0.8);
    learner.start_game();
    for (int i = 0; i < 50; ++i) learner.learn(features, false, 1.0);
    const double raised = net.evaluate(features);
    CHECK(raised > before + 0.1);
    // Seen from the other side, a target of 1 for the fixed side means 0 for the mover.
    learner.start_game();
    for (int i = 0; i < 100; ++i) learner.learn(features, true, 1.0);
    CHECK(net.evaluate(features) < raised - 0.1);
}

TEST_CASE("ur td: features are the same for a position and its colour mirror", "[ur][td]") {
    const State light = testing::ur_position("L..L__../...DD.../DD.D__.. 4,1 2,0 l -");
    // The same pieces with colours and columns swapped, Dark to move.
    const State dark = testing::ur_position("LL.L__../...LL.../D..D__.. 2,0 4,1 d -");
    float a[td_inputs], b[td_inputs];
    td_features(light, a);
    td_features(dark, b);
    for (int i = 0; i < td_inputs; ++i) CHECK(a[i] == b[i]);
    CHECK(builtin_td_network().win_probability(light) == Approx(builtin_td_network().win_probability(dark)));
}

TEST_CASE("ur td: the weights file round-trips and bad files are refused", "[ur][td]") {
    const auto dir = std::filesystem::temp_directory_path() / "bge_ur_td_test";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "net.txt").string();
    REQUIRE(builtin_td_network().save(path));
    auto loaded = TdNetwork::load(path);
    REQUIRE(loaded);
    const State state = testing::ur_position("L..L__../...DD.../DD.D__.. 4,1 2,0 l -");
    CHECK(loaded->win_probability(state) == Approx(builtin_td_network().win_probability(state)).epsilon(1e-6));
    std::ofstream(dir / "bad.txt") << "ur-td-network 1\n10 5\n1 2 3\n";
    auto bad = TdNetwork::load((dir / "bad.txt").string());
    REQUIRE_FALSE(bad);
    CHECK_THAT(bad.error(), Catch::Contains("expected 36 inputs"));
    std::ofstream(dir / "short.txt") << "ur-td-network 1\n36 2\n1 2 3\n";
    auto short_file = TdNetwork::load((dir / "short.txt").string());
    REQUIRE_FALSE(short_file);
    CHECK_THAT(short_file.error(), Catch::Contains("truncated"));
    std::filesystem::remove_all(dir);
}
