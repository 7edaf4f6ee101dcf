// The real `expendibots` binary driven through pipes: the UGI transcript cutegames sends, the
// queries on finished games (elimination, no tokens, turn limit, 4-fold repetition) and `d`
// agreeing with them, perft, d,
// bench, every player, and bad input, each of which gets one error line and changes nothing.

#include <catch2/catch.hpp>

#include <algorithm>

#include "core/version.hpp"
#include "engine_session.hpp"
#include "engines/expendibots/evaluation.hpp"
#include "engines/expendibots/nets/embedded.hpp"
#include "expendibots_test_helpers.hpp"
#include "weights_file_checks.hpp"

using namespace bge;
using namespace bge::expendibots;
using bge::testing::EngineSession;
using bge::testing::words_of;

namespace {

const std::string binary = BGE_EXPENDIBOTS_BINARY;
const std::string start_fen = "b,b,x,b,b,x,b,b/b,b,x,b,b,x,b,b/x8/x8/x8/x8/w,w,x,w,w,x,w,w/w,w,x,w,w,x,w,w w 0";

bool is_bestmove(const std::string& line) { return line.rfind("bestmove ", 0) == 0; }

// Reads a search to its bestmove: info lines only, then a bare bestmove.
std::string read_search(EngineSession& engine) {
    const auto lines = engine.until(is_bestmove);
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        INFO(lines[i]);
        CHECK(lines[i].rfind("info depth ", 0) == 0);
    }
    const auto words = words_of(lines.back());
    REQUIRE(words.size() == 2);
    return words[1];
}

bool legal_in(const std::string& position_fen, const std::string& move) {
    const auto state = parse_fen(position_fen);
    REQUIRE(state);
    return parse_move(*state, move).ok();
}

std::string drawn_fen(EngineSession& engine) {
    engine.send("d");
    for (const auto& line : engine.sync())
        if (line.rfind("FEN: ", 0) == 0) return line.substr(5);
    FAIL("d printed no FEN line");
    return {};
}

std::string query(EngineSession& engine, const std::string& what) {
    engine.send("query " + what);
    return engine.next();
}

}  // namespace

TEST_CASE("expendibots: cutegames' UGI transcript", "[expendibots][protocol]") {
    EngineSession engine(binary);
    engine.send("ugi");
    const auto handshake = engine.until([](const std::string& l) { return l == "ugiok"; });
    CHECK(handshake.front() == "id name expendibots " + bge::version_text());
    CHECK(std::find(handshake.begin(), handshake.end(),
                    "option name Player type combo default alphabeta var alphabeta var random var greedy var minimax2") !=
          handshake.end());
    CHECK(std::find(handshake.begin(), handshake.end(), "option name GameTimeBudget type check default false") !=
          handshake.end());
    engine.send("uginewgame");  // no isready follows
    engine.send("position startpos");
    engine.send("position startpos");
    CHECK(query(engine, "p1turn") == "response true");
    CHECK(query(engine, "gameover") == "response false");
    CHECK(query(engine, "result") == "response none");
    engine.send("setoption name OwnBook value false");
    engine.send("go p1time 2000 p2time 2000 p1inc 10 p2inc 10");
    const std::string first = read_search(engine);
    CHECK(legal_in(start_fen, first));
    engine.send("position startpos moves " + first);
    CHECK(query(engine, "p1turn") == "response false");
    engine.send("go p1time 1900 p2time 2000 p1inc 10 p2inc 10");
    const std::string second = read_search(engine);
    engine.send("position fen " + start_fen + " moves " + first + " " + second);
    CHECK(query(engine, "p1turn") == "response true");
    engine.send("quit");
    REQUIRE(engine.process().wait_for_exit(EngineSession::patience));
    CHECK(engine.process().exit_status() == std::optional<int>(0));
}

TEST_CASE("expendibots: the queries on finished games", "[expendibots][protocol]") {
    EngineSession engine(binary);
    // White's boom takes Black's last stack.
    engine.send("position fen x8/x8/x8/x8/x8/x8/x8/w,b,x5,w w 0 moves xa1");
    CHECK(query(engine, "gameover") == "response true");
    CHECK(query(engine, "result") == "response p1win");
    // Both sides' last tokens in one blast.
    engine.send("position fen x8/x8/x8/x8/x8/x8/x8/w,b2,x6 w 0 moves xa1");
    CHECK(query(engine, "result") == "response draw");
    // White blows itself up.
    engine.send("position fen x8/x8/x8/x8/x8/x8/x8/w,x6,b w 0 moves xa1");
    CHECK(query(engine, "result") == "response p2win");
    // The 500th action.
    engine.send("position fen x8/x8/x8/x8/x8/x8/x8/w,x6,b b 499 moves h1h2");
    CHECK(query(engine, "result") == "response draw");
    engine.expect_refused_go("go depth 2", "over");
    // The start position a 4th time (after 12 plies).
    std::string shuffle = "position startpos moves";
    for (int i = 0; i < 3; ++i) shuffle += " a2a3 a7a6 a3a2 a6a7";
    engine.send(shuffle.substr(0, shuffle.size() - 5));  // 11 plies: not yet
    CHECK(query(engine, "gameover") == "response false");
    engine.send(shuffle);
    CHECK(query(engine, "gameover") == "response true");
    CHECK(query(engine, "result") == "response draw");
    engine.expect_error(shuffle + " a2a3", "over");
}

// Every view of a position agrees on its result: `d`'s status line, `query gameover`,
// `query result` and `go`, also for the draw only the game's history shows (4-fold repetition).
TEST_CASE("expendibots: d agrees with the queries after a 4-fold repetition", "[expendibots][protocol]") {
    EngineSession engine(binary);
    const std::string repeated =
        "position startpos moves d2d3 e7e6 d3d2 e6e7 d2d3 e7e6 d3d2 e6e7 d2d3 e7e6 d3d2 e6e7";
    engine.send(repeated.substr(0, repeated.size() - 5));  // 11 plies: the 4th occurrence is one away
    engine.send("d");
    CHECK(engine.sync().back() == "To move: Black   Actions: 11 of 500   Hash: bf31e43afe11a470   Result: ongoing");
    CHECK(query(engine, "gameover") == "response false");
    engine.send(repeated);
    engine.send("d");
    CHECK(engine.sync().back() ==
          "To move: White   Actions: 12 of 500   Hash: 421133de73d9a47f   Result: draw detected: game state occurred 4 "
          "times.");
    CHECK(query(engine, "gameover") == "response true");
    CHECK(query(engine, "result") == "response draw");
    engine.expect_refused_go("go depth 2", "the game is over (1/2-1/2)");
}

TEST_CASE("expendibots: go perft and d", "[expendibots][protocol]") {
    EngineSession engine(binary);
    engine.send("position startpos");
    engine.send("go perft 1");
    const auto lines = engine.until_prefix("nodes ");
    REQUIRE(lines.size() == 51);
    CHECK(lines.front() == "xa1 1");  // the referee's order: every BOOM first
    CHECK(lines.back() == "nodes 50");
    engine.send("go perft 3");
    CHECK(engine.until_prefix("nodes ").back() == "nodes 119400");
    CHECK(drawn_fen(engine) == start_fen);
    engine.send("d");
    const auto board = engine.sync();
    REQUIRE(board.size() >= 20);
    CHECK(board[0] == "tokens: white: 12, black: 12");
    CHECK(board[2] == " 7 |[1]|[1]|   |[1]|[1]|   |[1]|[1]|");
    CHECK(board[16] == " 0 |(1)|(1)|   |(1)|(1)|   |(1)|(1)|");
}

TEST_CASE("expendibots: every player plays a legal move", "[expendibots][protocol][players]") {
    EngineSession engine(binary);
    const std::string moves = "d2d3 e7e6 d1d2 xa7";
    State state = start_state();
    for (const auto& word : words_of(moves)) play(state, *parse_move(state, word));
    const std::string fen_after = format_fen(state);
    struct Setup {
        std::vector<std::string> options;
        std::string go;
    };
    const Setup setups[] = {
        {{"Player value random"}, "go depth 1"},
        {{"Player value greedy"}, "go depth 1"},
        {{"Player value minimax2"}, "go depth 1"},
        {{"Player value alphabeta", "NullMove value true"}, "go depth 5"},
        {{"Quiescence value false", "NullMove value false"}, "go nodes 5000"},
        {{"Quiescence value true", "GameTimeBudget value true", "GameTimeMs value 2000"}, "go p1time 5000 p2time 5000"},
        {{"GameTimeBudget value true"}, "go movetime 200"},
    };
    for (const Setup& setup : setups) {
        INFO(setup.go);
        for (const auto& option : setup.options) engine.send("setoption name " + option);
        engine.send("uginewgame");
        engine.send("position startpos moves " + moves);
        engine.send(setup.go);
        CHECK(legal_in(fen_after, read_search(engine)));
        CHECK(engine.sync().empty());
    }
}

TEST_CASE("expendibots: the opening book answers at once", "[expendibots][protocol][book]") {
    EngineSession engine(binary);
    engine.send("position startpos");
    engine.send("go depth 20");
    const auto lines = engine.until(is_bestmove);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].rfind("info depth 0 seldepth 0 score cp 0 nodes 0", 0) == 0);
    const std::string move = words_of(lines[1])[1];
    CHECK(legal_in(start_fen, move));
    CHECK(words_of(lines[0]).back() == move);
    // Without the book the same position is searched.
    engine.send("setoption name OwnBook value false");
    engine.send("go depth 2");
    CHECK(engine.until(is_bestmove).size() == 3);
}

TEST_CASE("expendibots: bench is deterministic", "[expendibots][protocol][bench]") {
    EngineSession engine(binary, {"bench 3"});
    const auto lines = engine.finish();
    REQUIRE(lines.size() == 4);
    CHECK(lines[0].rfind("Total time (ms) : ", 0) == 0);
    CHECK(lines[1].rfind("Nodes searched  : ", 0) == 0);
    CHECK(lines[3].rfind("Signature       : ", 0) == 0);
    EngineSession again(binary, {"bench 3"});
    const auto repeated = again.finish();
    REQUIRE(repeated.size() == 4);
    CHECK(repeated[1] == lines[1]);
    CHECK(repeated[3] == lines[3]);
}

TEST_CASE("expendibots: bad input gets one error line and changes nothing", "[expendibots][protocol][errors]") {
    EngineSession engine(binary);
    engine.send("ugi");
    engine.until([](const std::string& l) { return l == "ugiok"; });
    engine.expect_refused_go("go depth 1", "position");
    engine.send("position startpos moves d2d3 e7e6");
    const std::string position = drawn_fen(engine);
    engine.expect_error("position fen x8/x8 w 0", "2 rows; it needs 8");
    engine.expect_error("position fen " + start_fen.substr(0, start_fen.size() - 3) + "b 0", "even number");
    engine.expect_error("position fen x8/x8/x8/x8/x8/x8/x8/w13,x7 w 0", "1 to 12");
    engine.expect_error("position fen", "needs");
    engine.expect_error("position startpos moves d2d4", "at most 1");
    engine.expect_error("position startpos moves d2d3 d3d4", "no stack on d3");  // Black's turn
    engine.expect_error("position startpos moves xz9", "xz9");
    engine.expect_error("position startpos moves 13a1a2", "1 to 12");
    engine.expect_error("position startpos moves d2e3", "row or a column");
    engine.expect_error("uginewgame 8", "no argument");
    engine.expect_error("setoption name Player value nobody", "alphabeta");
    engine.expect_error("setoption name MemoryMB value 1", "MemoryMB");
    engine.expect_error("setoption name NullMove value maybe", "NullMove");
    // A perft depth out of range is clamped, with a word: perft 0 counts the position itself.
    engine.send("go perft -1");
    CHECK(engine.until_prefix("nodes ") ==
          std::vector<std::string>{"info string go perft -1 is out of range (0 to 30); using 0", "nodes 1"});
    engine.expect_error("query colour", "query");
    engine.expect_error(std::string(2'000'000, 'x'), "too long");
    CHECK(drawn_fen(engine) == position);
    // A weights file or book that cannot be read: the built-in one is used, the engine plays on.
    engine.send("setoption name EvalWeights value /nonexistent/weights.txt");
    engine.send("setoption name BookFile value /nonexistent/book.txt");
    engine.send("go depth 2");
    CHECK(legal_in(position, read_search(engine)));
}

TEST_CASE("expendibots: a copy of the shipped weights plays as the built-in ones, a broken one is refused",
          "[expendibots][protocol][nets]") {
    using namespace bge::testing;
    const std::string shipped(find_embedded_file(nets::embedded_files(), builtin_weights_file));
    const std::string copy = scratch_copy("expendibots_weights_copy.txt", shipped);
    const std::string broken = scratch_copy(
        "expendibots_weights_broken.txt", with_replaced(shipped, "opening hunt -0.73856489905515899", "opening hunt"));
    const std::string other = scratch_copy("expendibots_weights_initial.txt", format_weights(initial_weights(), ""));
    check_weights_option({binary, "EvalWeights", "expendibots: EvalWeights", {}, "bench 4"}, copy, other, broken,
                         "expendibots: EvalWeights: " + broken +
                             ": line 12: expected '<phase> <feature> <value>'; using the built-in one");
}

TEST_CASE("expendibots: commands as arguments, then exit", "[expendibots][protocol][script]") {
    EngineSession engine(binary, {"position startpos", "go perft 2"});
    const auto rest = engine.finish();
    REQUIRE_FALSE(rest.empty());
    CHECK(rest.back() == "nodes 2500");
}
