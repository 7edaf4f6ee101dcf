// TwixT perft against numbers derived independently: a closed formula for the first three plies
// (no game can end before ply 5), and the reference model of twixt_test_helpers.hpp deeper.

#include <catch2/catch.hpp>

#include "core/perft.hpp"
#include "core/twixt/twixt.hpp"
#include "twixt_test_helpers.hpp"

using namespace bge;
using namespace bge::twixt;

namespace {

// P = N(N-2) placements per side, B = 2(N-2) holes on each side's border lines, I = (N-2)^2
// inner holes. A first peg on x's border row leaves o all P holes and no swap; an inner one
// leaves P - 1 holes plus the swap. x's third-ply count is P minus its first peg minus o's peg
// when o's peg is on an inner hole; after a swap it is P - 1 (the turned peg is inner, the first
// hole is free again).
std::uint64_t formula(int n, int depth) {
    const std::uint64_t P = static_cast<std::uint64_t>(n) * (n - 2), B = 2 * (n - 2),
                        I = static_cast<std::uint64_t>(n - 2) * (n - 2);
    if (depth == 1) return P;
    if (depth == 2) return B * P + I * ((P - 1) + 1);
    const std::uint64_t after_border_first = B * (P - 1) + I * (P - 2);
    const std::uint64_t after_inner_first = B * (P - 1) + (I - 1) * (P - 2) + (P - 1);
    return B * after_border_first + I * after_inner_first;
}

}  // namespace

TEST_CASE("twixt perft: the first three plies on every size", "[twixt][perft]") {
    for (int n = min_size; n <= max_size; ++n) {
        State state = start_state(Variant{n});
        for (int depth = 1; depth <= (n <= 16 ? 3 : 2); ++depth) {
            INFO("size " << n << " depth " << depth);
            CHECK(perft<Twixt>(state, depth) == formula(n, depth));
        }
    }
    CHECK(formula(5, 3) == 3024);
    CHECK(formula(8, 3) == 106596);
}

TEST_CASE("twixt perft: deeper, against the reference model", "[twixt][perft]") {
    struct Case {
        int size, depth;
    };
    for (const Case c : {Case{5, 4}, Case{5, 5}, Case{6, 4}}) {
        State state = start_state(Variant{c.size});
        const bge::testing::ReferenceTwixt reference(c.size);
        INFO("size " << c.size << " depth " << c.depth);
        CHECK(perft<Twixt>(state, c.depth) == bge::testing::reference_perft(reference, c.depth));
    }
    // Pinned, so a change shows up even if both sides changed alike.
    State five = start_state(Variant{5});
    CHECK(perft<Twixt>(five, 4) == 38880);
}
