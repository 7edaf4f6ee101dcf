// Expendibots rules, corner by corner, as the COMP30024 2020 referee enforces them
// (docs/expendibots.md). Expected positions are worked out by hand; where the referee's
// behaviour is at stake the reference implementation (tests/reference) is asked too.

#include <catch2/catch.hpp>

#include "core/game_record.hpp"
#include "expendibots_test_helpers.hpp"
#include "reference/expendibots_reference.hpp"

using namespace bge;
using namespace bge::expendibots;
using namespace bge::expendibots::testing;

TEST_CASE("expendibots: the start position", "[expendibots][rules]") {
    const State s = start_state();
    CHECK(format_fen(s) == "b,b,x,b,b,x,b,b/b,b,x,b,b,x,b,b/x8/x8/x8/x8/w,w,x,w,w,x,w,w/w,w,x,w,w,x,w,w w 0");
    CHECK(s.tokens[0] == 12);
    CHECK(s.tokens[1] == 12);
    CHECK(s.to_move == Side::first);
    // White on rows 0-1, Black on rows 6-7, columns 2 and 5 empty.
    CHECK(stack_at(s, "a1") == "w1");
    CHECK(stack_at(s, "h2") == "w1");
    CHECK(stack_at(s, "c1") == "");
    CHECK(stack_at(s, "f7") == "");
    CHECK(stack_at(s, "d8") == "b1");
    CHECK_FALSE(outcome(s).is_over());
    CHECK(s.hash == compute_hash(s));
}

TEST_CASE("expendibots: a stack jumps over anything, as far as its height", "[expendibots][rules]") {
    // d4: a white stack of 3; Black on d5 and d6 in its way, and on g4.
    const State s = position({{"d4", "w3"}, {"d5", "b"}, {"d6", "b"}, {"g4", "b"}, {"a8", "b"}});
    CHECK(legal(s, "3d4d7"));  // over both black stacks
    CHECK(legal(s, "d4d7"));   // one token goes as far as the whole stack could: the height bounds it
    CHECK(legal(s, "2d4d1"));
    CHECK(legal(s, "d4f4"));
    CHECK(legal(s, "d4a4"));
    CHECK_FALSE(legal(s, "d4d8"));  // 4 squares
    CHECK_FALSE(legal(s, "d4d5"));  // onto the enemy
    CHECK_FALSE(legal(s, "d4g4"));
    CHECK_FALSE(legal(s, "d4e5"));   // diagonal
    CHECK_FALSE(legal(s, "4d4d3"));  // more tokens than the stack has
    CHECK_FALSE(legal(s, "d5d4"));   // not White's
    CHECK_THAT(parse_move(s, "d4d8").error(), Catch::Contains("at most 3"));
    CHECK_THAT(parse_move(s, "d4d5").error(), Catch::Contains("Black stack"));
    CHECK_THAT(parse_move(s, "d4e5").error(), Catch::Contains("row or a column"));
    CHECK_THAT(parse_move(s, "4d4d3").error(), Catch::Contains("only 3 tokens"));
    CHECK_THAT(parse_move(s, "xd5").error(), Catch::Contains("White has no stack on d5 (3, 4)"));

    // A stack of 1 moves one square only.
    const State t = position({{"d4", "w"}, {"a8", "b"}});
    CHECK(legal(t, "d4d5"));
    CHECK_FALSE(legal(t, "d4d6"));
}

TEST_CASE("expendibots: part of a stack moves, the rest stays; own stacks merge", "[expendibots][rules]") {
    State s = position({{"d4", "w3"}, {"d2", "w2"}, {"a8", "b"}});
    s = after(s, "2d4d6");
    CHECK(stack_at(s, "d4") == "w1");
    CHECK(stack_at(s, "d6") == "w2");
    CHECK(s.tokens[0] == 5);
    CHECK(s.to_move == Side::second);
    CHECK(s.actions == 1);

    State m = position({{"d4", "w3"}, {"d2", "w2"}, {"a8", "b"}});
    m = after(m, "3d4d2");  // the whole stack lands on its own stack of 2
    CHECK(stack_at(m, "d4") == "");
    CHECK(stack_at(m, "d2") == "w5");
    CHECK(format_fen(m) == "b,x7/x8/x8/x8/x8/x8/x3,w5,x4/x8 b 1");
    CHECK(m.hash == compute_hash(m));
}

TEST_CASE("expendibots: an explosion chains through stacks of both colours", "[expendibots][rules]") {
    // a1-b2-c3-d4-e5 touch diagonally, alternating colours: d4 is reached only through Black's
    // c3. g7 and h1 touch nothing. A White stack on h3 and a Black one on a4 sit at neighbouring
    // square numbers (23 and 24) but not on neighbouring squares.
    const State s = position({{"a1", "w"},
                              {"b2", "w2"},
                              {"c3", "b"},
                              {"d4", "w3"},
                              {"e5", "b2"},
                              {"g7", "w"},
                              {"h1", "b"},
                              {"h3", "w"},
                              {"a4", "b"}});
    CHECK(s.tokens[0] == 8);
    CHECK(s.tokens[1] == 5);
    const Bitboard chain = blast_area(s, *parse_square("a1"));
    CHECK(chain == (bit(*parse_square("a1")) | bit(*parse_square("b2")) | bit(*parse_square("c3")) |
                    bit(*parse_square("d4")) | bit(*parse_square("e5"))));
    CHECK(blast_area(s, *parse_square("d4")) == chain);  // the same cluster from its middle

    const State boomed = after(s, "xa1");
    CHECK(boomed.tokens[0] == 2);  // g7 and h3 left
    CHECK(boomed.tokens[1] == 2);  // h1 and a4 left
    for (const char* gone : {"a1", "b2", "c3", "d4", "e5"}) CHECK(stack_at(boomed, gone) == "");
    CHECK(stack_at(boomed, "g7") == "w1");
    CHECK(stack_at(boomed, "h1") == "b1");
    CHECK(boomed.last_destroyed == 9);
    CHECK(boomed.hash == compute_hash(boomed));

    // h3 touches nothing: its blast does not reach a4 across the board's edge.
    const State edge = after(s, "xh3");
    CHECK(stack_at(edge, "h3") == "");
    CHECK(stack_at(edge, "a4") == "b1");
    CHECK(edge.tokens[0] == 7);
    CHECK(edge.tokens[1] == 5);

    // The reference explodes the same squares.
    int board[8][8] = {};
    for (int square = 0; square < 64; ++square)
        if (s.occupied() & bit(square))
            board[x_of(square)][y_of(square)] = (s.white & bit(square) ? 1 : -1) * s.height[square];
    auto game = expendibots_reference::from_board(board, 0);
    expendibots_reference::update(game, true, "BOOM at (0, 0).");
    CHECK(game.score_white == 2);
    CHECK(game.score_black == 2);
}

TEST_CASE("expendibots: who wins: elimination, mutual destruction, the turn limit", "[expendibots][rules]") {
    // The last tokens of both sides in one blast: a draw.
    const State mutual = after(position({{"a1", "w"}, {"b1", "b2"}}), "xa1");
    CHECK(outcome(mutual) == Outcome::draw("no tokens"));
    CHECK(referee_result_message(outcome(mutual)) == "draw detected: no tokens remaining");
    CHECK(result_text(outcome(mutual)) == "1/2-1/2");

    // Black loses its last stack, White keeps one.
    const State won = after(position({{"a1", "w"}, {"b1", "b2"}, {"h8", "w"}}), "xa1");
    CHECK(outcome(won) == Outcome::win(Side::first, "elimination"));
    CHECK(referee_result_message(outcome(won)) == "winner: white");
    CHECK(result_text(outcome(won)) == "1-0");

    // Blowing up one's own last tokens hands the win to the opponent.
    const State suicide = after(position({{"a1", "w"}, {"h8", "b"}}), "xa1");
    CHECK(outcome(suicide) == Outcome::win(Side::second, "elimination"));

    // The 500th action draws: Black's 250th turn.
    const State last_turn = position({{"a1", "w"}, {"b1", "w"}, {"h8", "b"}, {"g8", "b"}}, 'b', 499);
    CHECK_FALSE(outcome(last_turn).is_over());
    const State drawn = after(last_turn, "h8h7");
    CHECK(drawn.actions == 500);
    CHECK(outcome(drawn) == Outcome::draw("turn limit"));
    CHECK(referee_result_message(outcome(drawn)) == "draw detected: maximum number of turns reached.");
    CHECK_FALSE(legal(drawn, "a1a2"));  // nothing follows the end
    // Elimination is checked first, as the referee's end() does: a win on the 500th action.
    const State eliminated = after(position({{"a1", "w"}, {"b1", "w"}, {"b2", "b"}, {"h8", "b"}}, 'b', 499), "xb2");
    CHECK(eliminated.actions == 500);
    CHECK(outcome(eliminated) == Outcome::win(Side::second, "elimination"));
    CHECK(outcome(after(position({{"a1", "w"}, {"h8", "b"}}, 'w', 498), "a1a2")).kind == OutcomeKind::ongoing);
}

TEST_CASE("expendibots: a position seen a 4th time draws, the start counting", "[expendibots][rules][repetition]") {
    GameRecord<Expendibots> record(start_state());
    auto game = expendibots_reference::start();
    const char* shuffle[] = {"a2a3", "a7a6", "a3a2", "a6a7"};
    const char* logged[] = {"MOVE 1 from (0, 1) to (0, 2).", "MOVE 1 from (0, 6) to (0, 5).",
                            "MOVE 1 from (0, 2) to (0, 1).", "MOVE 1 from (0, 5) to (0, 6)."};
    for (int ply = 0; ply < 12; ++ply) {
        INFO("ply " << ply + 1);
        CHECK_FALSE(record.outcome().is_over());
        REQUIRE(record.play_text(shuffle[ply % 4]).ok());
        expendibots_reference::update(game, ply % 2 == 0, logged[ply % 4]);
        // The start position comes back after plies 4, 8 and 12: its 2nd, 3rd and 4th time.
        CHECK(record.outcome().is_over() == (ply == 11));
        CHECK(expendibots_reference::over(game) == (ply == 11));
    }
    CHECK(record.outcome() == Outcome::draw("repetition"));
    CHECK(referee_result_message(record.outcome()) == expendibots_reference::end(game));
    CHECK(Expendibots::repetition_limit(record.current()) == 4);
    // The same board with the other side to move is another position.
    GameRecord<Expendibots> other(start_state());
    for (const char* move : {"a2a3", "a7a6", "a3a2", "a6a7"}) REQUIRE(other.play_text(move).ok());
    CHECK(other.occurrences_of_current() == 2);
    REQUIRE(other.play_text("a2a3").ok());
    CHECK(other.occurrences_of_current() == 2);  // the position after ply 1 again
}

TEST_CASE("expendibots: the action count is not part of a position", "[expendibots][rules][repetition]") {
    // Equal boards and sides are one position whatever the count (the referee's snapshot).
    CHECK(position({{"a1", "w"}, {"h8", "b"}}, 'w', 0).hash == position({{"a1", "w"}, {"h8", "b"}}, 'w', 40).hash);
    CHECK(position({{"a1", "w"}, {"h8", "b"}}, 'w', 0).hash != position({{"a1", "w"}, {"h8", "b"}}, 'b', 1).hash);
    CHECK(position({{"a1", "w2"}, {"h8", "b"}}).hash != position({{"a1", "w"}, {"h8", "b"}}).hash);
}

TEST_CASE("expendibots: a null move passes the turn and nothing else", "[expendibots][rules]") {
    State s = after(start_state(), "a2a3");
    const State before = s;
    const Undo record = play_null(s);
    CHECK(s.to_move == Side::first);
    CHECK(s.actions == before.actions);
    CHECK(s.hash == compute_hash(s));
    CHECK(s.hash != before.hash);
    undo_null(s, record);
    CHECK(format_fen(s) == format_fen(before));
    CHECK(s.hash == before.hash);
}
