// Chance-node perft for Ur: the numbers the generic perft (which expands rolls without using up
// depth) gives for the Finkel rules, checked against a hand count and against a separate,
// deliberately naive move counter written on piece lists instead of tile bitmasks.

#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "core/perft.hpp"
#include "core/ur/ur.hpp"
#include "ur_test_helpers.hpp"

using namespace bge;
using namespace bge::ur;

namespace {

// Finkel on piece lists: each piece is -1 (waiting), 0-13 (path index) or 14 (borne off). Path
// indices 4-11 are the shared middle row, the same tile for both sides; 3, 7, 13 are rosettes.
struct NaiveFinkel {
    std::array<std::vector<int>, 2> pieces;
    int to_move = 0;

    bool over() const {
        for (int side = 0; side < 2; ++side) {
            bool all = true;
            for (int p : pieces[side]) all = all && p == 14;
            if (all) return true;
        }
        return false;
    }
    bool has(int side, int at) const {
        for (int p : pieces[side])
            if (p == at) return true;
        return false;
    }
    // The successors for a roll: one per distinct piece position that can move, or a pass.
    std::vector<NaiveFinkel> successors(int roll) const {
        std::vector<NaiveFinkel> out;
        const int me = to_move, them = 1 - to_move;
        std::vector<int> tried;
        for (std::size_t k = 0; k < pieces[me].size() && roll > 0; ++k) {
            const int from = pieces[me][k];
            if (from == 14) continue;
            bool seen = false;
            for (int t : tried) seen = seen || t == from;
            if (seen) continue;
            tried.push_back(from);
            const int to = from + roll;  // from -1 a roll r enters at r - 1
            if (to > 14) continue;
            if (to < 14 && has(me, to)) continue;
            const bool shared = to >= 4 && to <= 11;
            if (shared && to == 7 && has(them, to)) continue;
            NaiveFinkel next = *this;
            next.pieces[me][k] = to;
            if (shared)
                for (int& p : next.pieces[them])
                    if (p == to) p = -1;
            const bool rosette = to == 3 || to == 7 || to == 13;
            if (!rosette) next.to_move = them;
            out.push_back(next);
        }
        if (out.empty()) {
            NaiveFinkel next = *this;
            next.to_move = them;
            out.push_back(next);
        }
        return out;
    }
};

// Leaves `depth` decisions ahead, every roll 0-4 taken once (not weighted).
std::uint64_t naive_perft(const NaiveFinkel& position, int depth) {
    if (depth == 0) return 1;
    if (position.over()) return 0;
    std::uint64_t total = 0;
    for (int roll = 0; roll <= 4; ++roll)
        for (const NaiveFinkel& next : position.successors(roll)) total += naive_perft(next, depth - 1);
    return total;
}

NaiveFinkel naive_from(const State& state) {
    NaiveFinkel naive;
    naive.to_move = index_of(state.to_move);
    for (int side = 0; side < 2; ++side) {
        for (int i = 0; i < state.waiting[side]; ++i) naive.pieces[side].push_back(-1);
        for (int i = 0; i < state.scored[side]; ++i) naive.pieces[side].push_back(14);
        for (int tile = 0; tile < tile_count; ++tile)
            if (state.tiles[side] & tile_bit(tile))
                naive.pieces[side].push_back(path_index_of(Ruleset::finkel, side, tile));
    }
    return naive;
}

std::uint64_t core_perft(State state, int depth) { return perft<Ur>(state, depth); }

}  // namespace

TEST_CASE("ur perft: the start position, counted by hand", "[ur][perft]") {
    // Depth 1: every roll gives one move (a pass for 0, an entry otherwise): 5.
    // Depth 2: after 0 (pass) and 1-3 (no rosette) Dark has 5 each: 4 * 5 = 20; after a 4 Light is
    // on A1 and rolls again: pass, then enter or move A1 for 1-3, and for 4 only A1 -> B4: 1+2+2+2+1 = 8.
    const State start = start_state({});
    CHECK(core_perft(start, 1) == 5);
    CHECK(core_perft(start, 2) == 28);
}

TEST_CASE("ur perft: the generic perft agrees with a naive counter", "[ur][perft]") {
    const State start = start_state({});
    for (int depth = 1; depth <= 5; ++depth) {
        INFO("depth " << depth);
        CHECK(core_perft(start, depth) == naive_perft(naive_from(start), depth));
    }
    CHECK(core_perft(start, 3) == 192);
    CHECK(core_perft(start, 4) == 1492);
    CHECK(core_perft(start, 5) == 12469);
    // Middle-game positions with captures, blocks on B4 and pieces bearing off (roll due).
    for (const char* text : {"L..L__../...DD.../DD.D__.. 4,1 2,0 d -", "....__L./L.....DD/.D.D__DD 4,1 1,0 d -",
                             "..L.__../..DL...L/.D.D__.. 3,1 1,3 l -", "LLL.__../.....D.L/D.D.__.. 3,0 3,1 l -"}) {
        INFO(text);
        const State state = testing::ur_position(text);
        for (int depth = 1; depth <= 4; ++depth)
            CHECK(core_perft(state, depth) == naive_perft(naive_from(state), depth));
    }
}

TEST_CASE("ur perft divided at a chance node: one count per roll, no depth used up", "[ur][perft][stop]") {
    State start = start_state({});
    std::vector<std::uint64_t> per_roll;
    const auto division =
        perft_divide<Ur>(start, 4, [&](const Move&, std::uint64_t count) { per_roll.push_back(count); });
    CHECK(per_roll.size() == 5);  // rolls 0 to 4
    CHECK(division.total == 1492);
    CHECK_FALSE(division.stopped);

    // Stopped after the first roll's count: that roll keeps its whole count.
    int rolls_done = 0;
    const auto after_first = [&] { return rolls_done > 0; };
    std::vector<std::uint64_t> reported;
    const auto stopped = perft_divide<Ur>(
        start, 4,
        [&](const Move&, std::uint64_t count) {
            reported.push_back(count);
            ++rolls_done;
        },
        after_first);
    CHECK(stopped.stopped);
    CHECK(stopped.counted == 1);
    CHECK(stopped.moves == 5);
    CHECK(reported == std::vector<std::uint64_t>{per_roll.front()});
    CHECK(stopped.total == per_roll.front());
}
