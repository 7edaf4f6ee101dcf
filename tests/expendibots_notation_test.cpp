// Expendibots text: compact moves, the referee's action tuples and log lines, FEN, the board
// drawing and the game records; every kind of bad text gets a clear error.

#include <catch2/catch.hpp>

#include "core/expendibots/game_log.hpp"
#include "expendibots_test_helpers.hpp"

using namespace bge;
using namespace bge::expendibots;
using namespace bge::expendibots::testing;

TEST_CASE("expendibots: squares are the referee's (x, y) as a1..h8", "[expendibots][notation]") {
    CHECK(square_name(square_at(0, 0)) == "a1");
    CHECK(square_name(square_at(2, 1)) == "c2");
    CHECK(square_name(square_at(7, 7)) == "h8");
    CHECK(*parse_square("c2") == square_at(2, 1));
    CHECK(*parse_square("H8") == square_at(7, 7));
    for (const char* bad : {"i1", "a9", "a0", "a", "a10", ""}) CHECK_FALSE(parse_square(bad).ok());
}

TEST_CASE("expendibots: compact moves, tuples and log lines say the same", "[expendibots][notation]") {
    struct Case {
        const char* compact;
        const char* tuple;
        const char* log;
    };
    const Case cases[] = {
        {"c2c3", R"(("MOVE", 1, (2, 1), (2, 2)))", "MOVE 1 from (2, 1) to (2, 2)."},
        {"3c2c5", R"(("MOVE", 3, (2, 1), (2, 4)))", "MOVE 3 from (2, 1) to (2, 4)."},
        {"12a1a8", R"(("MOVE", 12, (0, 0), (0, 7)))", "MOVE 12 from (0, 0) to (0, 7)."},
        {"xh8", R"(("BOOM", (7, 7)))", "BOOM at (7, 7)."},
    };
    for (const Case& c : cases) {
        INFO(c.compact);
        const auto move = parse_move_syntax(c.compact);
        REQUIRE(move);
        CHECK(format_move(*move) == c.compact);
        CHECK(format_action_tuple(*move) == c.tuple);
        CHECK(format_log_line(*move) == c.log);
        REQUIRE(parse_action_tuple(c.tuple));
        CHECK(*parse_action_tuple(c.tuple) == *move);
        REQUIRE(parse_log_line(c.log));
        CHECK(*parse_log_line(c.log) == *move);
    }
    // Python's repr quotes, any spacing, a trailing comma; the log's header and no final dot.
    CHECK(*parse_action_tuple("('MOVE',2,(2,1),(2,3))") == Move::step(square_at(2, 1), square_at(2, 3), 2));
    CHECK(*parse_action_tuple(" ( 'BOOM' , ( 3 , 4 ) , ) ") == Move::boom(square_at(3, 4)));
    CHECK(*parse_log_line("[white] - MOVE 1 from (0, 1) to (0, 2)") == Move::step(8, 16, 1));
    CHECK(*parse_log_line("[black] - BOOM at (1, 6).") == Move::boom(square_at(1, 6)));
    CHECK(*parse_move_syntax("1c2c3") == *parse_move_syntax("c2c3"));  // an explicit count of 1
}

TEST_CASE("expendibots: parse_move reads every form and checks legality", "[expendibots][notation]") {
    const State s = start_state();
    for (const char* text : {"a2a3", "(\"MOVE\", 1, (0, 1), (0, 2))", "MOVE 1 from (0, 1) to (0, 2).",
                             "[white] - MOVE 1 from (0, 1) to (0, 2)."})
        CHECK(*parse_move(s, text) == Move::step(square_at(0, 1), square_at(0, 2), 1));
    CHECK(*parse_move(s, "xd1") == Move::boom(square_at(3, 0)));
    CHECK(*parse_move(s, "('BOOM', (3, 0))") == Move::boom(square_at(3, 0)));
    CHECK_FALSE(parse_move(s, "a7a6").ok());  // Black's
    CHECK_FALSE(parse_move(s, "xa8").ok());
}

TEST_CASE("expendibots: bad move text is refused with a reason", "[expendibots][notation][errors]") {
    const State s = start_state();
    struct Bad {
        const char* text;
        const char* mentions;
    };
    const Bad bad[] = {
        {"", "empty"},
        {"c2", "expected [count]<from><to>"},
        {"c2c3c4", "expected [count]<from><to>"},
        {"0c2c3", "1 to 12"},
        {"13a1a8", "1 to 12"},
        {"123a1a2", "1 to 12"},
        {"i2c3", "file a-h"},
        {"xz9", "boom 'xz9'"},
        {"x", "boom"},
        {"(\"MOVE\", 1, (0, 1), (0, 8))", "off the board"},
        {"(\"MOVE\", 1, (-1, 1), (0, 2))", "off the board"},
        {"(\"JUMP\", (0, 1))", "\"MOVE\" or \"BOOM\""},
        {"(\"MOVE\", 1, (0, 1))", "expected ','"},
        {"(\"BOOM\", (0, 1)) extra", "the end of the text"},
        {"(\"BOOM\", (0, 1)", "expected ')'"},
        {"(\"BOOM, (0, 1))", "expected"},
        {"(\"MOVE\", 99, (0, 1), (0, 2))", "1 to 12"},
        {"MOVE 1 from (0, 1) to", "expected '('"},
        {"BOOM in (0, 1).", "expected 'at'"},
        {"MOVE 1 (0, 1) to (0, 2).", "expected 'from'"},
        {"BOOM at (0, 1). more", "the end of the text"},
        {"a2a4", "at most 1"},
        {"c1c2", "no stack on c1"},
    };
    for (const Bad& b : bad) {
        INFO(b.text);
        const auto parsed = parse_move(s, b.text);
        REQUIRE_FALSE(parsed.ok());
        CHECK_THAT(parsed.error(), Catch::Contains(b.mentions));
    }
    // Over-long text is quoted short.
    const auto long_one = parse_move(s, std::string(5000, '9'));
    REQUIRE_FALSE(long_one.ok());
    CHECK(long_one.error().size() < 200);
}

TEST_CASE("expendibots: FEN round-trips and refuses impossible positions", "[expendibots][notation][errors]") {
    const std::string text = "b12,x7/x8/x8/x3,w2,x4/x8/x8/x8/w3,w,x6 b 17";
    const State s = fen(text);
    CHECK(format_fen(s) == text);
    CHECK(s.tokens[0] == 6);
    CHECK(s.tokens[1] == 12);
    CHECK(s.actions == 17);
    CHECK(s.to_move == Side::second);
    CHECK(stack_at(s, "a8") == "b12");
    CHECK(stack_at(s, "d5") == "w2");
    // Uncompressed empties and explicit heights of 1 read the same.
    CHECK(format_fen(fen("b12,x,x,x,x,x,x,x/x8/x8/x3,w2,x4/x8/x8/x8/w3,w1,x6 b 17")) == text);

    struct Bad {
        const char* text;
        const char* mentions;
    };
    const Bad bad[] = {
        {"x8/x8/x8/x8/x8/x8/x8 w 0", "7 rows; it needs 8"},
        {"x8/x8/x8/x8/x8/x8/x8/x8/x8 w 0", "9 rows; it needs 8"},
        {"x8/x8/x8/x8/x8/x8/x8/w,b w 0", "has 2 squares"},
        {"x8/x8/x8/x8/x8/x8/x8/x9 w 0", "x<n>"},
        {"x8/x8/x8/x8/x8/x8/x8/x7,w,w w 0", "more than 8"},
        {"x8/x8/x8/x8/x8/x8/x8/w13,x7 w 0", "1 to 12"},
        {"x8/x8/x8/x8/x8/x8/x8/w0,x7 w 0", "1 to 12"},
        {"x8/x8/x8/x8/x8/x8/x8/q,x7 w 0", "cells are"},
        {"x8/x8/x8/x8/x8/x8/x8/x,,x6 w 0", "empty cell"},
        {"x8/x8/x8/x8/x8/x8/w12,x7/w,x7 w 0", "13 white"},
        {"x8/x8/x8/x8/x8/x8/x8/w,x7 white 0", "w or b"},
        {"x8/x8/x8/x8/x8/x8/x8/w,x7 w 501", "0 to 500"},
        {"x8/x8/x8/x8/x8/x8/x8/w,x7 w -1", "0 to 500"},
        {"x8/x8/x8/x8/x8/x8/x8/w,x7 w one", "0 to 500"},
        {"x8/x8/x8/x8/x8/x8/x8/w,x7 b 0", "even number"},
        {"x8/x8/x8/x8/x8/x8/x8/w,x7 w", "3 fields"},
        {"", "3 fields"},
    };
    for (const Bad& b : bad) {
        INFO(b.text);
        const auto parsed = parse_fen(b.text);
        REQUIRE_FALSE(parsed.ok());
        CHECK_THAT(parsed.error(), Catch::Contains(b.mentions));
    }
}

TEST_CASE("expendibots: d draws the board as the referee prints it", "[expendibots][notation]") {
    State s = after(after(start_state(), "a1a2"), "xb7");
    const std::string drawing = draw_board(s);
    CHECK(drawing.rfind(
              "tokens: white: 12, black: 8\n"
              "   +---+---+---+---+---+---+---+---+\n"
              " 7 |   |   |   |[1]|[1]|   |[1]|[1]|\n"
              "   +---+---+---+---+---+---+---+---+\n"
              " 6 |   |   |   |[1]|[1]|   |[1]|[1]|\n",
              0) == 0);
    CHECK_THAT(drawing, Catch::Contains(" 1 |(2)|(1)|   |(1)|(1)|   |(1)|(1)|\n"));
    CHECK_THAT(drawing, Catch::Contains(" 0 |   |(1)|   |(1)|(1)|   |(1)|(1)|\n"));
    CHECK_THAT(drawing, Catch::Contains("y/x  0   1   2   3   4   5   6   7\n"));
    CHECK_THAT(drawing, Catch::Contains("FEN: x3,b,b,x,b,b/x3,b,b,x,b,b/x8/x8/x8/x8/w2,w,x,w,w,x,w,w/x,w,x,w,w,x,w,w w 2"));
    CHECK_THAT(drawing, Catch::Contains("To move: White   Actions: 2 of 500"));
    // Heights in hexadecimal, as the referee's "{n:X}".
    CHECK_THAT(draw_board(position({{"a1", "w12"}, {"h8", "b10"}})), Catch::Contains("(C)"));
    CHECK_THAT(draw_board(position({{"a1", "w12"}, {"h8", "b10"}})), Catch::Contains("[A]"));
}

TEST_CASE("expendibots: game records round-trip and read the referee's own log", "[expendibots][notation][records]") {
    GameLog log;
    log.set_tag("White", "alpha \"beta\"");
    log.set_tag("Black", "random");
    log.set_tag("Result", "1-0");
    log.start = start_state();
    State s = log.start;
    for (const char* text : {"d2d3", "d7d6", "d3d4", "d6d5", "xd4"}) {
        const Move move = move_in(s, text);
        log.moves.push_back(move);
        log.comments.push_back(log.moves.size() == 1 ? "book" : "");
        play(s, move);
    }
    log.closing = "winner: white";
    const std::string text = write_game_log(log);
    CHECK_THAT(text, Catch::Contains("[White \"alpha \\\"beta\\\"\"]\n"));
    CHECK_THAT(text, Catch::Contains("[white] - MOVE 1 from (3, 1) to (3, 2).  {book}\n"));
    CHECK_THAT(text, Catch::Contains("[white] - BOOM at (3, 3).\n[over ] - winner: white\n"));

    const auto read = parse_game_logs(text + "\n" + text);
    REQUIRE(read);
    REQUIRE(read->size() == 2);
    CHECK((*read)[0].moves == log.moves);
    CHECK((*read)[1].comments == log.comments);
    CHECK(*(*read)[0].tag("White") == "alpha \"beta\"");
    CHECK((*read)[0].closing == "winner: white");

    // A referee log file: a [game ] header, no tags.
    const auto referee = parse_game_logs(
        "[game ] - Start game log at Mon Apr 20 10:00:00 2020\n"
        "[white] - MOVE 1 from (3, 1) to (3, 2).\n"
        "[black] - BOOM at (0, 7).\n"
        "[over ] - draw detected: game state occurred 4 times.\n");
    REQUIRE(referee);
    REQUIRE(referee->size() == 1);
    CHECK((*referee)[0].moves.size() == 2);

    // A record that starts elsewhere carries its FEN; moves are checked against it.
    const auto elsewhere = parse_game_logs("[FEN \"x8/x8/x8/x8/x8/x8/x8/w,b,x6 b 1\"]\n[black] - BOOM at (1, 0).\n");
    REQUIRE(elsewhere);
    CHECK(format_fen((*elsewhere)[0].start) == "x8/x8/x8/x8/x8/x8/x8/w,b,x6 b 1");

    for (const char* bad : {"[white] - MOVE 1 from (3, 1) to (3, 3).\n",          // illegal
                            "[black] - MOVE 1 from (3, 6) to (3, 5).\n",          // not Black's turn
                            "[white] MOVE 1 from (3, 1) to (3, 2).\n",            // no dash
                            "[white] - MOVE 1 from (3, 1) to (3, 2). {open\n",    // comment not closed
                            "nonsense\n",                                          // neither tag nor move
                            "[FEN \"x9 w 0\"]\n"}) {                              // bad FEN
        INFO(bad);
        CHECK_FALSE(parse_game_logs(bad).ok());
    }
}
