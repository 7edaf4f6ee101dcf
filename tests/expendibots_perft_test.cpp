// Expendibots perft: counts from the start derived independently (by hand at depth 1, by the
// reference implementation deeper, and depth 4 by an argument about the sides' independence),
// and the fast move generator cross-checked against the reference in random positions.

#include <catch2/catch.hpp>

#include <algorithm>

#include "core/perft.hpp"
#include "core/random.hpp"
#include "expendibots_test_helpers.hpp"
#include "reference/expendibots_reference.hpp"

using namespace bge;
using namespace bge::expendibots;
using namespace bge::expendibots::testing;

namespace {

expendibots_reference::Game reference_game(const State& s) {
    int board[8][8] = {};
    for (int square = 0; square < square_count; ++square)
        if (s.occupied() & bit(square))
            board[x_of(square)][y_of(square)] = (s.white & bit(square) ? 1 : -1) * s.height[square];
    return expendibots_reference::from_board(board, s.actions);
}

std::vector<std::string> our_actions(const State& s) {
    MoveList<Expendibots> moves;
    generate_moves(s, moves);
    std::vector<std::string> texts;
    for (Move m : moves) texts.push_back(format_log_line(m));
    std::sort(texts.begin(), texts.end());
    return texts;
}

}  // namespace

TEST_CASE("expendibots: perft 1 from the start, by hand", "[expendibots][perft]") {
    // White's 12 stacks can each explode: 12 BOOMs. Each stack of 1 steps one square onto an empty
    // or own square: on row 0 the corner stacks have 2 (up, sideways), the other four 3 (up and
    // both sides); on row 1 the edge stacks have 3 and the inner four 4. 16 + 22 MOVEs.
    State s = start_state();
    CHECK(perft<Expendibots>(s, 1) == 12 + 16 + 22);
    CHECK(count_moves(s) == 50);
}

TEST_CASE("expendibots: perft from the start agrees with the reference", "[expendibots][perft]") {
    State s = start_state();
    const auto game = expendibots_reference::start();
    CHECK(expendibots_reference::perft(game, 1) == 50);
    // Black's 50 replies mirror White's and cannot touch White's: 50 * 50.
    CHECK(perft<Expendibots>(s, 2) == 2500);
    CHECK(expendibots_reference::perft(game, 2) == 2500);
    CHECK(perft<Expendibots>(s, 3) == expendibots_reference::perft(game, 3));
    CHECK(perft<Expendibots>(s, 3) == 119400);
}

TEST_CASE("expendibots: perft 4 from the start: the sides cannot meet yet", "[expendibots][perft]") {
    // In two actions White reaches row 3 at most and Black row 4 (rows 6-7 down by one, or a
    // stack of two by two), so no action of the first four plies can block or touch the other
    // side (a BOOM is one action whatever it destroys). perft(4) is then A * A, with A the number
    // of two-action sequences one side can play on its own, counted here by the reference.
    auto game = expendibots_reference::start();
    std::uint64_t a = 0;
    for (const auto& first : expendibots_reference::available_actions(game, true)) {
        auto after_first = game;
        expendibots_reference::update(after_first, true, first);
        a += expendibots_reference::available_actions(after_first, true).size();
    }
    CHECK(a * 50 == 119400);  // perft(3) = A * 50 by the same argument
    State s = start_state();
    CHECK(perft<Expendibots>(s, 4) == a * a);
    CHECK(a * a == 5702544);
}

TEST_CASE("expendibots: the move generator agrees with the reference in random games", "[expendibots][perft]") {
    Random random(2020);
    int positions = 0;
    for (int game = 0; game < 40; ++game) {
        State s = start_state();
        for (int ply = 0; ply < 200 && !outcome(s).is_over(); ++ply) {
            const auto reference = reference_game(s);
            auto expected = expendibots_reference::available_actions(reference, s.to_move == Side::first);
            std::sort(expected.begin(), expected.end());
            REQUIRE(our_actions(s) == expected);
            ++positions;
            // Depth 2 from here, both ways, now and then.
            if (ply % 25 == 10) {
                State copy = s;
                CHECK(perft<Expendibots>(copy, 2) == expendibots_reference::perft(reference, 2));
            }
            MoveList<Expendibots> moves;
            generate_moves(s, moves);
            // Favour MOVEs so games last and stacks grow; BOOM one time in eight.
            Move move = moves[random.below(static_cast<std::uint32_t>(moves.size()))];
            if (move.is_boom() && random.below(8) != 0)
                move = moves[moves.size() - 1 - random.below(std::min<std::uint32_t>(4, static_cast<std::uint32_t>(moves.size())))];
            auto reference_after = reference;
            expendibots_reference::update(reference_after, s.to_move == Side::first, format_log_line(move));
            play(s, move);
            // The same board, and the same scores, after the action.
            for (int square = 0; square < square_count; ++square) {
                const int expected_cell = reference_after.board[x_of(square)][y_of(square)];
                const int cell = (s.occupied() & bit(square)) ? (s.white & bit(square) ? 1 : -1) * s.height[square] : 0;
                REQUIRE(cell == expected_cell);
            }
            REQUIRE(s.tokens[0] == reference_after.score_white);
            REQUIRE(s.tokens[1] == reference_after.score_black);
        }
    }
    CHECK(positions > 2000);
}
