// Perft: the published start-position tables, and positions built for every corner of the rules.
// The corner numbers were computed by the independent reference implementation in
// tests/reference (a naive string-based Tak written from the rules alone) and agree with ours;
// the depth-1 counts were also checked by hand where noted.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/perft.hpp"
#include "core/tak/tak.hpp"
#include "reference/tak_reference.hpp"
#include "tak_test_helpers.hpp"

using namespace bge;
using namespace bge::tak;
using namespace bge::tak::testing;

TEST_CASE("perft from the 5x5 start matches the published table", "[tak][perft]") {
    State s = start_state(Variant{5, 0, false});
    const std::uint64_t expected[] = {1, 25, 600, 43'320, 2'999'784};
    for (int depth = 0; depth <= 4; ++depth) CHECK(perft<Tak>(s, depth) == expected[depth]);
}

TEST_CASE("perft from the 6x6 start matches the published table", "[tak][perft]") {
    State s = start_state(Variant{6, 0, false});
    const std::uint64_t expected[] = {1, 36, 1'260, 132'720, 13'586'048};
    for (int depth = 0; depth <= 4; ++depth) CHECK(perft<Tak>(s, depth) == expected[depth]);
}

TEST_CASE("perft on positions for every corner of the rules", "[tak][perft]") {
    struct Case {
        const char* what;
        const char* tps;
        std::uint64_t counts[3];
    };
    const Case cases[] = {
        {"carry limit: a 5-high stack on 3x3", "x3/x3/11112,x2 2 5", {28, 514, 9'732}},
        {"capstone flattening a wall at the end of a spread", "x5/x5/2S,x4/x5/11C,x4 1 3", {52, 3'589, 181'614}},
        {"capstone walled in on all sides", "x2,2S,x2/x5/2S,1C,2S,x2/x5/x2,2S,x2 1 4", {44, 3'000, 129'201}},
        {"one move completes both roads", "2,211,2/x3/1,x,1 1 3", {24, 208, 4'281}},
        {"White's last stone (10 placements + 4 spreads)", "1112,x,1112/x,1,x/112,x2 1 8", {14, 184, 2'866}},
        {"Black to move, White on its last stone", "1112,x,1112/x,1,x/112,x2 2 8", {46, 742, 12'774}},
        {"one empty square left", "1,2,1/2,x,2/1,2,1 1 5", {10, 104, 1'408}},
        {"walls and mixed stacks on 3x3", "21,12,x/2S,x,12/1,x,2 2 9", {24, 207, 4'242}},
        {"a 14-high stack with a capstone on 8x8: carry 8",
         "x8/x8/x8/x8/x8/x8/x8/1212121212121C,x7 1 20",
         {697, 156'624, 52'579'148}},
        {"early 5x5 with a wall", "x4,1/x5/x,2,x3/x5/1S,x4 2 2", {70, 4'694, 285'305}},
    };
    for (const Case& c : cases) {
        INFO(c.what << ": " << c.tps);
        State s = tps(c.tps);
        for (int depth = 1; depth <= 3; ++depth) CHECK(perft<Tak>(s, depth) == c.counts[depth - 1]);
    }
}

TEST_CASE("perft of a finished game is 0", "[tak][perft]") {
    State road = tps("11,11,11/11,x,1/x3 1 8");  // White already has a road
    CHECK(perft<Tak>(road, 0) == 1);
    CHECK(perft<Tak>(road, 1) == 0);
    CHECK(perft<Tak>(road, 2) == 0);
    State out_of_stones = tps("1112,1,1112/x,1,x/112,x2 2 8");
    CHECK(perft<Tak>(out_of_stones, 1) == 0);
}

TEST_CASE("perft counts agree with the reference implementation", "[tak][perft][reference]") {
    for (const char* position :
         {"x5/x5/x5/x5/x5 1 1", "x4,1/x5/x5/x5/2,x4 1 2", "2,211,2/x3/1,x,1 1 3", "x3/x3/11112,x2 2 5"}) {
        State s = tps(position);
        for (int depth = 1; depth <= 3; ++depth) {
            INFO(position << " depth " << depth);
            CHECK(perft<Tak>(s, depth) == tak_reference::perft(position, depth));
        }
    }
}

TEST_CASE("divide sums to perft", "[tak][perft]") {
    State s = tps("x5/x5/2S,x4/x5/11C,x4 1 3");
    std::uint64_t total = 0;
    const auto division = perft_divide<Tak>(s, 3, [&](const Move&, std::uint64_t count) { total += count; });
    CHECK(total == 181'614);
    CHECK(division.total == 181'614);
    CHECK_FALSE(division.stopped);
    CHECK(division.counted == division.moves);
}

TEST_CASE("perft with a stop predicate that never fires counts exactly as the plain perft", "[tak][perft][stop]") {
    State s = start_state(Variant{5, 0, false});
    int asked = 0;
    const auto never = [&] {
        ++asked;
        return false;
    };
    CHECK(perft<Tak>(s, 4, never) == 2'999'784);
    CHECK(asked > 0);     // asked at the upper plies...
    CHECK(asked < 1000);  // ...and never at the 43'320 nodes next to the leaves

    std::vector<std::uint64_t> plain;
    perft_divide<Tak>(s, 3, [&](const Move&, std::uint64_t count) { plain.push_back(count); });
    std::vector<std::uint64_t> checked;
    const auto division =
        perft_divide<Tak>(s, 3, [&](const Move&, std::uint64_t count) { checked.push_back(count); }, never);
    CHECK(checked == plain);
    CHECK(division.total == 43'320);
    CHECK_FALSE(division.stopped);
}

TEST_CASE("a stop cuts a divided perft short: the moves reported keep their whole counts", "[tak][perft][stop]") {
    State s = tps("x5/x5/2S,x4/x5/11C,x4 1 3");
    const std::string before = Tak::format_position(s);
    std::vector<std::uint64_t> whole;
    perft_divide<Tak>(s, 4, [&](const Move&, std::uint64_t count) { whole.push_back(count); });

    // Fires at the 200th question, in the middle of some root move's count.
    int asked = 0;
    const auto after_200 = [&] { return ++asked >= 200; };
    std::vector<std::uint64_t> reported;
    const auto division =
        perft_divide<Tak>(s, 4, [&](const Move&, std::uint64_t count) { reported.push_back(count); }, after_200);
    CHECK(division.stopped);
    CHECK(division.moves == whole.size());
    REQUIRE(division.counted == reported.size());
    CHECK(division.counted > 0);
    CHECK(division.counted < division.moves);
    CHECK(std::equal(reported.begin(), reported.end(), whole.begin()));
    std::uint64_t sum = 0;
    for (const auto count : reported) sum += count;
    CHECK(division.total == sum);
    CHECK(Tak::format_position(s) == before);  // every move taken back

    // A stop before the start counts nothing; perft 0 is still the position itself.
    const auto stopped = [] { return true; };
    const auto none = perft_divide<Tak>(s, 3, [](const Move&, std::uint64_t) { FAIL("no move is counted"); }, stopped);
    CHECK(none.stopped);
    CHECK(none.counted == 0);
    CHECK(none.total == 0);
    CHECK(perft_divide<Tak>(s, 0, [](const Move&, std::uint64_t) {}, stopped).total == 1);
}
