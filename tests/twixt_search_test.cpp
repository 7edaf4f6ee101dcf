// The strong TwixT player's pieces: free border holes in the connection distance, priors that see
// a bridge cutting the opponent's route, and searches that find the moves these pieces point at.

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "core/twixt/twixt.hpp"
#include "engines/twixt/evaluation.hpp"
#include "engines/twixt/players.hpp"
#include "twixt_test_helpers.hpp"

using namespace bge;
using namespace bge::twixt;
using bge::testing::twixt_after;

namespace {

// The moves in order of the policy's priors, best first, as text.
std::vector<std::string> ranked_by_prior(const TwixtMctsPolicy& policy, const State& state) {
    MoveList<Twixt> moves;
    generate_moves(state, moves);
    std::vector<float> priors(moves.size());
    policy.priors(state, moves, priors.data());
    std::vector<std::size_t> order(moves.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return priors[a] > priors[b]; });
    std::vector<std::string> ranked;
    for (const std::size_t i : order) ranked.push_back(format_move(state, moves[i]));
    return ranked;
}

int rank_of(const std::vector<std::string>& ranked, const std::string& move) {
    return static_cast<int>(std::find(ranked.begin(), ranked.end(), move) - ranked.begin());
}

}  // namespace

TEST_CASE("twixt: free border holes cost no peg", "[twixt][evaluation]") {
    const State empty8 = start_state(Variant{8});
    // Rows 1 and 8 are free: three inner pegs (rows 3, 5, 7 or 2, 4, 6) join them.
    CHECK(connection_distance(empty8, Side::first, true) == 3);
    CHECK(connection_distance(empty8, Side::second, true) == 3);
    // An x peg on row 2 bridges to row 1 for free; rows 4 and 6 then reach row 8.
    const State one = twixt_after(8, {"d2", "a4"});
    CHECK(connection_distance(one, Side::first, true) == 2);
    CHECK(connection_distance(one, Side::first, false) == 4);  // row 1, 4, 6 and 8 cost a peg each
}

TEST_CASE("twixt: cut priors rank the bridges that cut the opponent's route", "[twixt][search]") {
    // From a game (12x12, o to connect columns a and l): x can no longer connect, o needs two
    // pegs, and x's only ways to lengthen o's route are bridges from i9 across it, to h11 or j11.
    const State state = twixt_after(12, {"d6", "swap", "i5", "i3", "j3", "k2", "d6", "c7", "e4", "e8", "f7",
                                         "g7", "b7",   "a8", "h6", "i6", "j7", "h4", "i9", "e5", "g6", "h9"});
    REQUIRE(connection_distance(state, Side::first) == unreachable);
    REQUIRE(connection_distance(state, Side::second) == 2);
    for (const char* cut : {"h11", "j11"}) {
        INFO(cut);
        const auto move = parse_move(state, cut);
        REQUIRE(move);
        State after = state;
        play(after, *move);
        CHECK(connection_distance(after, Side::second) == 4);
    }
    TwixtMctsPolicy without;
    without.cut_priors = false;
    const auto plain = ranked_by_prior(without, state);
    CHECK(rank_of(plain, "h11") > 10);  // not on o's route: the plain priors miss them
    CHECK(rank_of(plain, "j11") > 10);
    TwixtMctsPolicy with;
    with.cut_priors = true;
    const auto cutting = ranked_by_prior(with, state);
    CHECK(rank_of(cutting, "h11") < 4);
    CHECK(rank_of(cutting, "j11") < 4);
}
