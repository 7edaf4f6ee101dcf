// The real `twixt` binary through pipes: the UGI handshake and queries, perft and d, every player
// answering with a legal move, bench's determinism, and bad input answered by one error line while
// the engine keeps its state.

#include <catch2/catch.hpp>

#include <algorithm>

#include "core/twixt/twixt.hpp"
#include "core/version.hpp"
#include "engine_session.hpp"

using namespace bge;
using namespace bge::twixt;
using bge::testing::EngineSession;
using bge::testing::words_of;

namespace {

const std::string binary = BGE_TWIXT_BINARY;

bool is_bestmove(const std::string& line) { return line.rfind("bestmove ", 0) == 0; }

std::string read_search(EngineSession& engine) {
    const auto lines = engine.until(is_bestmove);
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        INFO(lines[i]);
        CHECK(lines[i].rfind("info ", 0) == 0);
    }
    const auto words = words_of(lines.back());
    REQUIRE(words.size() == 2);
    return words[1];
}

// The move the engine chooses after a `position` command and `go nodes N`.
std::string best_after(EngineSession& engine, const std::string& position, int nodes) {
    engine.send(position);
    engine.send("go nodes " + std::to_string(nodes));
    return read_search(engine);
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

bool legal_in(const std::string& fen, const std::string& move) {
    const auto state = parse_position(fen, Variant{});
    REQUIRE(state);
    return parse_move(*state, move).ok();
}

}  // namespace

TEST_CASE("twixt: UGI handshake, a game and the queries", "[twixt][protocol]") {
    EngineSession engine(binary);
    engine.send("ugi");
    const auto handshake = engine.until([](const std::string& l) { return l == "ugiok"; });
    CHECK(handshake.front() == "id name twixt " + bge::version_text());
    CHECK(std::find(handshake.begin(), handshake.end(),
                    "option name Player type combo default mcts var mcts var minimax var flat-mc var mcts-knight var uct") !=
          handshake.end());
    CHECK(std::find(handshake.begin(), handshake.end(), "option name BoardSize type spin default 24 min 5 max 24") !=
          handshake.end());
    engine.send("setoption name BoardSize value 6");
    engine.send("uginewgame");
    engine.send("position startpos");
    CHECK(query(engine, "p1turn") == "response true");
    CHECK(query(engine, "gameover") == "response false");
    engine.send("go nodes 200");
    const std::string first = read_search(engine);
    CHECK(legal_in("6/6/6/6/6/6 x -", first));
    engine.send("position startpos moves " + first);
    CHECK(query(engine, "p1turn") == "response false");
    // x wins on 5x5: c1-b3-c5.
    engine.send("setoption name BoardSize value 5");
    engine.send("position startpos moves c1 a2 b3 e2 c5");
    CHECK(query(engine, "gameover") == "response true");
    CHECK(query(engine, "result") == "response p1win");
    engine.send("position startpos moves b1 a2 d1 c3 b5 e4");
    CHECK(query(engine, "result") == "response p2win");
    engine.send("position fen 5/oxxxo/oxxxo/oxoxo/5 o -");
    CHECK(query(engine, "result") == "response draw");
    engine.expect_refused_go("go nodes 10", "over");
    engine.send("quit");
    REQUIRE(engine.process().wait_for_exit(EngineSession::patience));
    CHECK(engine.process().exit_status() == std::optional<int>(0));
}

TEST_CASE("twixt: go perft, swap and d", "[twixt][protocol]") {
    EngineSession engine(binary, {});
    engine.send("setoption name BoardSize value 8");
    engine.send("position startpos moves c3");
    engine.send("go perft 1");
    const auto lines = engine.until_prefix("nodes ");
    REQUIRE(lines.size() == 49);
    CHECK(std::count(lines.begin(), lines.end(), "swap 1") == 1);
    CHECK(lines.back() == "nodes 48");
    engine.send("position startpos");
    engine.send("go perft 3");
    CHECK(engine.until_prefix("nodes ").back() == "nodes 106596");
    // o's d4 would bridge to f3 and cut x's e2-f4; with o on d5 x's bridge is built.
    engine.send("position startpos moves c3 oc3 e2 d4 f4");
    CHECK(drawn_fen(engine) == "8/4x3/5o2/3o1x2/8/8/8/8 o d4f3");
    engine.send("position startpos moves c3 oc3 e2 d5 f4");
    CHECK(drawn_fen(engine) == "8/4x3/5o2/5x2/3o4/8/8/8 o e2f4");
    engine.send("d");
    const auto board = engine.sync();
    REQUIRE(board.size() >= 17);
    CHECK(board[0] == "    a   b   c   d   e   f   g   h");
    CHECK(board[1] == " 1      .   .   .   .   .   .");
    CHECK(board[3] == " 2  .   .   .   .   x   .   .   .");
    CHECK(board[5] == " 3  .   .   .   .   . \\ o   .   .");  // the bridge at its midpoint
    CHECK(std::find(board.begin(), board.end(), "Bridges: xe2-f4") != board.end());
    CHECK(std::find(board.begin(), board.end(), "o swapped.") != board.end());
}

TEST_CASE("twixt: every player plays a legal move", "[twixt][protocol][players]") {
    EngineSession engine(binary);
    engine.send("setoption name BoardSize value 7");
    const std::string fen = "7/7/3x3/2o4/7/7/7 x -";
    for (const char* player : {"mcts", "minimax", "flat-mc", "mcts-knight", "uct"}) {
        INFO(player);
        engine.send(std::string("setoption name Player value ") + player);
        engine.send("position fen " + fen);
        engine.send("go nodes 300");
        CHECK(legal_in(fen, read_search(engine)));
        engine.send("position startpos moves d4");  // the swap is a candidate
        engine.send("go nodes 300");
        CHECK(legal_in("7/7/7/3x3/7/7/7 o -", read_search(engine)));
    }
}

TEST_CASE("twixt: mcts opens in the centre and swaps a central first peg", "[twixt][protocol][players]") {
    EngineSession engine(binary);
    engine.send("setoption name BoardSize value 12");
    CHECK(best_after(engine, "position startpos", 300) == "f6");
    CHECK(best_after(engine, "position startpos moves f6", 300) == "swap");
}

TEST_CASE("twixt: below 10x10 mcts leaves the first peg and the swap to the search", "[twixt][protocol][players]") {
    EngineSession engine(binary);
    engine.send("setoption name BoardSize value 8");
    // Swapping c3 loses on 8x8 (docs/experiments/twixt.md, fourth round); swapping d4 wins.
    CHECK(best_after(engine, "position startpos moves c3", 3000) != "swap");
    CHECK(best_after(engine, "position startpos moves d4", 3000) == "swap");
    CHECK(best_after(engine, "position startpos", 3000) != "d4");  // the middle peg is swapped and loses
    // The rules can still be asked for on any size.
    engine.send("setoption name SwapRule value central");
    engine.send("setoption name FirstMove value centre");
    CHECK(best_after(engine, "position startpos moves c3", 3000) == "swap");
    CHECK(best_after(engine, "position startpos", 3000) == "d4");
}

// [allocation-failure]: the engine falls back when reserving the tree throws std::bad_alloc;
// AddressSanitizer makes a failed `new` a fatal report instead, so the sanitizer build skips it.
TEST_CASE("twixt: the largest tree budget searches as the default does",
          "[twixt][protocol][players][allocation-failure]") {
    // 64 GiB is more than most machines will even reserve: the tree then grows as it goes.
    EngineSession engine(binary);
    engine.send("setoption name BoardSize value 8");
    engine.send("setoption name MctsMemory value 65536");
    engine.send("position startpos moves d4");
    engine.send("go nodes 3000");
    const auto lines = engine.until(is_bestmove);
    for (const auto& line : lines) {
        INFO(line);
        CHECK(line.find("error") == std::string::npos);
    }
    CHECK(lines.back() == "bestmove swap");
}

TEST_CASE("twixt: bench is deterministic", "[twixt][protocol][bench]") {
    EngineSession engine(binary, {"bench 1"});
    const auto lines = engine.finish();
    REQUIRE(lines.size() == 4);
    CHECK(lines[1].rfind("Nodes searched  : ", 0) == 0);
    CHECK(lines[3].rfind("Signature       : ", 0) == 0);
    EngineSession again(binary, {"bench 1"});
    const auto repeated = again.finish();
    REQUIRE(repeated.size() == 4);
    CHECK(repeated[1] == lines[1]);
    CHECK(repeated[3] == lines[3]);
}

TEST_CASE("twixt: bad input gets one error line and changes nothing", "[twixt][protocol][errors]") {
    EngineSession engine(binary);
    engine.send("ugi");
    engine.until([](const std::string& l) { return l == "ugiok"; });
    engine.send("setoption name BoardSize value 8");
    engine.send("position startpos moves c3 d5");
    const std::string position = drawn_fen(engine);
    engine.expect_error("position startpos moves c3 swap e1 e1", "taken");
    engine.expect_error("position startpos moves c1 swap", "border row");
    engine.expect_error("position startpos moves c3 d5 swap", "first move");
    engine.expect_error("position startpos moves a4", "border line");
    engine.expect_error("position startpos moves a1", "corner");
    engine.expect_error("position startpos moves z9", "z9");
    engine.expect_error("position startpos moves c3 xd5", "o's turn");
    engine.expect_error("position fen 5/oxxxo/oxxxo/oxoxo/5 o - moves b1", "over");
    engine.expect_error("position fen 8/8/8 x -", "size");
    engine.expect_error("position fen 8/8/8/8/8/8/8/8 x c3d5", "bridge");
    engine.expect_error("position fen 8/4x3/8/5x2/8/8/8/8 o e2f5", "knight");
    engine.expect_error("position fen 8/8/8/8/8/8/8/8 q -", "x or o");
    engine.expect_error("setoption name BoardSize value 4", "BoardSize");
    engine.expect_error("setoption name BoardSize value 25", "BoardSize");
    engine.expect_error("setoption name Player value nobody", "mcts");
    engine.expect_error("setoption name MinimaxDepth value 0", "MinimaxDepth");
    // A perft depth out of range is clamped, with a word: perft 0 counts the position itself.
    engine.send("go perft -1");
    CHECK(engine.until_prefix("nodes ") ==
          std::vector<std::string>{"info string go perft -1 is out of range (0 to 30); using 0", "nodes 1"});
    engine.expect_error(std::string(2'000'000, 'x'), "too long");
    CHECK(drawn_fen(engine) == position);
    engine.send("go nodes 100");
    CHECK(legal_in(position, read_search(engine)));
}

TEST_CASE("twixt: commands as arguments, then exit", "[twixt][protocol][script]") {
    EngineSession engine(binary, {"setoption name BoardSize value 5", "position startpos", "go perft 2"});
    const auto rest = engine.finish();
    REQUIRE_FALSE(rest.empty());
    CHECK(rest.back() == "nodes 225");
}

TEST_CASE("twixt: a lost mcts still reports the loss and defends by a search without proofs", "[twixt][protocol]") {
    // o's chain a2-c3-e4-g5-i6-k7 reaches column l through l5 or l9: x cannot stop both.
    const std::string lost =
        "position startpos moves f6 swap c6 e11 c10 c2 d3 e4 g8 c3 d8 g5 b12 i6 f9 a2 h3 k7";
    auto search = [&](bool solver, std::string& score) {
        EngineSession engine(binary);
        engine.send("ugi");
        engine.until([](const std::string& l) { return l == "ugiok"; });
        engine.send("setoption name BoardSize value 12");
        engine.send(std::string("setoption name MctsSolver value ") + (solver ? "true" : "false"));
        engine.send(lost);
        engine.send("go nodes 3000");
        const auto lines = engine.until(is_bestmove);
        REQUIRE(lines.size() >= 2);
        const auto info = words_of(lines[lines.size() - 2]);
        const auto at = std::find(info.begin(), info.end(), "score");
        REQUIRE(at + 2 < info.end());
        score = *(at + 1) + " " + *(at + 2);
        return words_of(lines.back())[1];
    };
    std::string proven_score, heuristic_score;
    const std::string with_solver = search(true, proven_score);
    const std::string without = search(false, heuristic_score);
    CHECK(proven_score == "mate -1");  // the opponent wins with its next move
    // The same seed, budget and policy: the defence is the move the proofless search picks,
    // not the first losing move in move order (b11, which the search with proofs played before).
    CHECK(with_solver == without);
    CHECK(with_solver != "b11");
}
