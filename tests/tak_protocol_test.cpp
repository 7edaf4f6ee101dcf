// The real `tak` binary driven through pipes with the exact transcripts its clients send:
// racetrack (TEI), cutegames (UGI), scripts (arguments, end of input), and every kind of bad
// input, each of which must get one error line and leave the engine serving, state unchanged.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "core/tak/tak.hpp"
#include "engine_session.hpp"
#include "engines/tak/evaluation.hpp"
#include "engines/tak/nets/embedded.hpp"
#include "weights_file_checks.hpp"

using namespace bge;
using namespace bge::tak;
using bge::testing::EngineSession;
using bge::testing::words_of;

namespace {

const std::string tak_binary = BGE_TAK_BINARY;

bool is_bestmove(const std::string& line) { return line.rfind("bestmove ", 0) == 0; }

// Checks an info line has the fields clients read, in order, and returns its pv.
std::vector<std::string> check_info_line(const std::string& line) {
    const auto words = words_of(line);
    REQUIRE(words.size() >= 13);
    CHECK(words[0] == "info");
    CHECK(words[1] == "depth");
    CHECK(words[3] == "seldepth");
    CHECK(words[5] == "score");
    CHECK((words[6] == "cp" || words[6] == "mate"));
    CHECK(words[8] == "nodes");
    CHECK(words[10] == "nps");
    CHECK(words[12] == "time");
    std::vector<std::string> pv;
    for (std::size_t i = 0; i < words.size(); ++i)
        if (words[i] == "pv") pv.assign(words.begin() + static_cast<long>(i) + 1, words.end());
    return pv;
}

// Reads a search to its bestmove: info lines only, one bestmove, a pv that starts with it.
std::string read_search(EngineSession& engine) {
    const auto lines = engine.until(is_bestmove);
    std::vector<std::string> last_pv;
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        INFO(lines[i]);
        REQUIRE(lines[i].rfind("info ", 0) == 0);
        last_pv = check_info_line(lines[i]);
    }
    const auto words = words_of(lines.back());
    REQUIRE(words.size() == 2);  // a bare "bestmove <move>", no ponder
    if (!last_pv.empty()) CHECK(last_pv.front() == words[1]);
    return words[1];
}

bool legal_in(const std::string& position, const std::string& move, int size = 6) {
    Variant variant;
    variant.size = size;
    auto state = parse_tps(position, variant);
    REQUIRE(state);
    return parse_move(*state, move).ok();
}

std::string drawn_tps(EngineSession& engine) {
    engine.send("d");
    for (const auto& line : engine.sync())
        if (line.rfind("TPS: ", 0) == 0) return line.substr(5);
    FAIL("d printed no TPS line");
    return {};
}

}  // namespace

TEST_CASE("racetrack's TEI transcript", "[protocol][tei]") {
    EngineSession engine(tak_binary);
    engine.send("tei");
    const auto handshake = engine.until([](const std::string& l) { return l == "teiok"; });
    CHECK(handshake.front().rfind("id name ", 0) == 0);
    CHECK(handshake[1].rfind("id author ", 0) == 0);
    CHECK(std::find(handshake.begin(), handshake.end(), "option name HalfKomi type spin default 0 min -20 max 20") !=
          handshake.end());

    engine.send("teinewgame 6");
    engine.send("isready");
    CHECK(engine.next() == "readyok");
    engine.send("setoption name HalfKomi value 4");
    engine.send("position startpos moves ");
    engine.send("go wtime 3000 btime 3000 winc 30 binc 30");
    const std::string first = read_search(engine);
    CHECK(legal_in("x6/x6/x6/x6/x6/x6 1 1", first));

    const std::string uncompressed = "x,x,x,x,x,x/x,x,x,x,x,x/x,x,x,x,x,x/x,x,x,x,x,x/x,x,x,x,x,x/x,x,x,x,x,x 1 1";
    engine.send("position tps " + uncompressed + " moves a1 f6");
    engine.send("go wtime 2900 btime 3000 winc 30 binc 30");
    const std::string third = read_search(engine);
    CHECK(legal_in("x5,2/x6/x6/x6/x6/1,x5 1 2", third));
    // Komi reached the position: d shows it.
    engine.send("position startpos");
    CHECK_THAT(drawn_tps(engine), Catch::Equals("x6/x6/x6/x6/x6/x6 1 1"));
    engine.send("quit");
    REQUIRE(engine.process().wait_for_exit(EngineSession::patience));
    CHECK(engine.process().exit_status() == std::optional<int>(0));
}

TEST_CASE("every go limit gives exactly one bestmove", "[protocol][tei]") {
    EngineSession engine(tak_binary);
    engine.send("teinewgame 5");
    engine.send("position startpos moves a1 e5");
    for (const char* go : {"go depth 3", "go nodes 2000", "go movetime 100", "go wtime 500 btime 500",
                           "go winc 10 binc 10 wtime 100 btime 100 movestogo 5"}) {
        INFO(go);
        engine.send(go);
        const std::string move = read_search(engine);
        CHECK(legal_in("x4,1/x5/x5/x5/2,x4 1 2", move, 5));
        CHECK(engine.sync().empty());  // nothing after the bestmove
    }
}

TEST_CASE("isready and stop are answered during a search", "[protocol][tei]") {
    EngineSession engine(tak_binary);
    engine.send("teinewgame 6");
    engine.send("position startpos moves a1 f6");
    engine.send("go infinite");
    const auto before_ready = engine.sync();  // readyok arrives while searching
    for (const auto& line : before_ready) CHECK_FALSE(is_bestmove(line));
    engine.send("stop");
    read_search(engine);
    CHECK(engine.sync().empty());  // exactly one bestmove
    engine.send("stop");           // a stop with no search is harmless
    CHECK(engine.sync().empty());
}

TEST_CASE("an infinite search that ends early still waits for stop", "[protocol][tei]") {
    EngineSession engine(tak_binary);
    engine.send("teinewgame 5");
    engine.send("setoption name Player value mcts");
    engine.send("position tps x5/x5/1,1,1,1,x/x5/2,2,2,x2 1 6");  // a road in one: proven at once
    engine.send("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto before_stop = engine.sync();
    for (const auto& line : before_stop) CHECK_FALSE(is_bestmove(line));
    engine.send("stop");
    CHECK(legal_in("x5/x5/1,1,1,1,x/x5/2,2,2,x2 1 6", read_search(engine), 5));
    CHECK(engine.sync().empty());  // exactly one bestmove
}

TEST_CASE("a go during a search is queued, and what follows it runs in order, so piped scripts work", "[protocol]") {
    EngineSession engine(tak_binary);
    engine.send("teinewgame 5");
    engine.send("position startpos");
    engine.send("go depth 4");
    engine.send("position startpos moves a1");
    engine.send("go depth 3");
    engine.send("position startpos moves a1 e5");  // queued behind the second go
    engine.send("d");
    engine.send("go depth 2");
    CHECK(legal_in("x5/x5/x5/x5/x5 1 1", read_search(engine), 5));
    CHECK(legal_in("x5/x5/x5/x5/2,x4 2 1", read_search(engine), 5));
    // d ran after the second search and before the third, on the position sent between them.
    const auto board = engine.until([](const std::string& line) { return line.rfind("Flats: ", 0) == 0; });
    for (const auto& line : board) CHECK_FALSE(is_bestmove(line));
    CHECK(std::find(board.begin(), board.end(), "TPS: x4,1/x5/x5/x5/2,x4 1 2") != board.end());
    CHECK(legal_in("x4,1/x5/x5/x5/2,x4 1 2", read_search(engine), 5));
    CHECK(engine.sync().empty());
}

TEST_CASE("cutegames' UGI transcript", "[protocol][ugi]") {
    EngineSession engine(tak_binary);
    engine.send("ugi");
    const auto handshake = engine.until([](const std::string& l) { return l == "ugiok"; });
    CHECK(handshake.front().rfind("id name ", 0) == 0);
    engine.send("setoption name Size value 5");
    engine.send("uginewgame");  // no isready follows
    engine.send("position startpos");
    engine.send("position startpos");
    engine.send("query p1turn");
    CHECK(engine.next() == "response true");
    engine.send("query gameover");
    CHECK(engine.next() == "response false");
    engine.send("query result");
    CHECK(engine.next() == "response none");
    engine.send("go p1time 1000 p2time 1000 p1inc 10 p2inc 10");
    const std::string move = read_search(engine);
    CHECK(legal_in("x5/x5/x5/x5/x5 1 1", move, 5));
    engine.send("position startpos moves " + move);
    engine.send("position startpos moves " + move);
    engine.send("query p1turn");
    CHECK(engine.next() == "response false");
    // A finished game: White's road on rank 3.
    engine.send("position fen x5/x5/1,1,1,1,1/x5/2,2,2,2,x 2 6");
    engine.send("query gameover");
    CHECK(engine.next() == "response true");
    engine.send("query result");
    CHECK(engine.next() == "response p1win");
    engine.send("position fen x5/x5/1,1,1,1,x/x5/2,2,2,2,x 2 5 moves e1");
    engine.send("query result");
    CHECK(engine.next() == "response p2win");
    engine.send("position fen 1,2,1/2,x,2/1,2,1 1 5 moves Sb2");
    engine.send("query result");
    CHECK(engine.next() == "response draw");
    engine.send("quit");
    REQUIRE(engine.process().wait_for_exit(EngineSession::patience));
}

TEST_CASE("go perft prints a count per move and then the total", "[protocol][perft]") {
    EngineSession engine(tak_binary);
    engine.send("teinewgame 5");
    engine.send("position startpos");
    engine.send("go perft 2");
    const auto lines = engine.until_prefix("nodes ");
    REQUIRE(lines.size() == 26);
    for (std::size_t i = 0; i < 25; ++i) {
        const auto words = words_of(lines[i]);
        REQUIRE(words.size() == 2);
        CHECK(words[1] == "24");
    }
    CHECK(lines.back() == "nodes 600");
    engine.send("go perft 4");
    CHECK(engine.until_prefix("nodes ").back() == "nodes 2999784");
}

TEST_CASE("commands given as arguments run, then the engine exits", "[protocol][script]") {
    EngineSession engine(tak_binary, {"teinewgame 5", "position startpos", "go perft 3"});
    const auto rest = engine.finish();
    REQUIRE_FALSE(rest.empty());
    CHECK(rest.back() == "nodes 43320");

    EngineSession searching(tak_binary, {"teinewgame 5", "position startpos moves a1 e5", "go depth 3"});
    const auto output = searching.finish();
    REQUIRE_FALSE(output.empty());
    CHECK(is_bestmove(output.back()));
}

TEST_CASE("end of input lets a running search finish", "[protocol][script]") {
    EngineSession engine(tak_binary);
    engine.send("teinewgame 5");
    engine.send("position startpos moves a1 e5");
    engine.send("go depth 4");
    const auto rest = engine.finish();
    REQUIRE_FALSE(rest.empty());
    CHECK(is_bestmove(rest.back()));
    CHECK(std::count_if(rest.begin(), rest.end(), is_bestmove) == 1);
}

TEST_CASE("bench prints a node signature and a speed", "[protocol][bench]") {
    EngineSession engine(tak_binary, {"bench 2"});
    const auto lines = engine.finish();
    REQUIRE(lines.size() == 4);
    CHECK(lines[0].rfind("Total time (ms) : ", 0) == 0);
    CHECK(lines[1].rfind("Nodes searched  : ", 0) == 0);
    CHECK(lines[2].rfind("Nodes/second    : ", 0) == 0);
    CHECK(lines[3].rfind("Signature       : ", 0) == 0);
    // The node count and the signature are the same on every run.
    EngineSession again(tak_binary, {"bench 2"});
    const auto repeated = again.finish();
    CHECK(repeated[1] == lines[1]);
    CHECK(repeated[3] == lines[3]);
    // MCTS at one thread is deterministic too, and has a signature of its own.
    const std::vector<std::string> mcts = {"setoption name Player value mcts", "setoption name Threads value 1",
                                           "setoption name MctsLeafDepth value 0", "bench 2"};
    EngineSession first(tak_binary, mcts);
    EngineSession second(tak_binary, mcts);
    const auto a = first.finish(), b = second.finish();
    REQUIRE(a.size() == 4);
    CHECK(a[1] == "Nodes searched  : 20000");  // 1000 iterations a depth, 10 positions
    CHECK(a[3] == b[3]);
    CHECK(a[3] != lines[3]);
}

TEST_CASE("bad input gets one error line and changes nothing", "[protocol][errors]") {
    EngineSession engine(tak_binary);
    engine.send("tei");
    engine.until([](const std::string& l) { return l == "teiok"; });

    // go before any position: an error, and still a bestmove, for the client waits for one.
    engine.expect_refused_go("go depth 1", "position");

    engine.send("teinewgame 5");
    engine.send("position startpos moves a1 e5 c3");
    const std::string position = "x4,1/x5/x2,1,x2/x5/2,x4 2 2";
    REQUIRE(drawn_tps(engine) == position);

    engine.expect_error("position tps x5/x5/x5 1 1", "TPS");           // malformed TPS
    engine.expect_error("position tps x5/x5/x5/x5/x5 3 1", "player");  // bad player
    engine.expect_error("position tps", "needs");                      // no TPS at all
    engine.expect_error("position startpos moves a1 a1", "occupied");  // illegal move
    engine.expect_error("position startpos moves a1 zz9", "zz9");      // unparsable move
    engine.expect_error("position startpos moves Sa1", "first move");  // a wall in the opening
    CHECK(drawn_tps(engine) == position);
    engine.expect_error("position sideways", "startpos");
    engine.expect_error("frobnicate", "unknown command");  // unknown command
    engine.expect_error("teinewgame 9", "board size");     // size out of range
    engine.expect_error("teinewgame two", "board size");
    engine.expect_error("setoption name HalfKomi value 99", "HalfKomi");  // option out of range
    engine.expect_error("setoption name HalfKomi value lots", "HalfKomi");
    engine.expect_error("setoption name NoSuchThing value 1", "NoSuchThing");
    engine.expect_error("setoption name Player value nobody", "alphabeta");
    // Bad limits of a go are clamped or ignored, and the go still searches: engine_go_test.cpp.
    engine.expect_error("query colour", "query");
    engine.expect_error(std::string(2'000'000, 'x'), "too long");  // over-long line
    CHECK(drawn_tps(engine) == position);

    // After all that the engine still plays, from the same position, with the same komi.
    engine.send("go depth 2");
    CHECK(legal_in(position, read_search(engine), 5));
    engine.send("position startpos");
    engine.send("d");
    bool komi_zero = false;
    for (const auto& line : engine.sync())
        if (line.find("Komi: 0") != std::string::npos) komi_zero = true;
    CHECK(komi_zero);
    // The size stayed 5 after the refused teinewgame 9.
    CHECK(drawn_tps(engine) == "x5/x5/x5/x5/x5 1 1");
}

TEST_CASE("a finished game is not searched", "[protocol][errors]") {
    EngineSession engine(tak_binary);
    engine.send("position tps x5/x5/1,1,1,1,1/x5/2,2,2,2,x 2 6");
    engine.expect_refused_go("go depth 3", "over");
    engine.expect_error("position tps x5/x5/1,1,1,1,1/x5/2,2,2,2,x 2 6 moves a1", "over");
}

// With RepetitionDraw on, the draw is in the game's history, not in the position: `d` says it
// as the queries do.
TEST_CASE("d agrees with the queries on a draw by repetition", "[protocol][ugi]") {
    EngineSession engine(tak_binary);
    engine.send("setoption name RepetitionDraw value true");
    engine.send("setoption name Size value 3");
    const std::string cycle = " c2< a2+ b2> a3-";
    engine.send("position startpos moves a1 c3 c2 a2" + cycle + cycle);
    engine.send("d");
    CHECK_THAT(engine.sync().back(), Catch::EndsWith("Result: 1/2-1/2"));
    engine.send("query gameover");
    CHECK(engine.next() == "response true");
    engine.send("query result");
    CHECK(engine.next() == "response draw");
    engine.expect_refused_go("go depth 2", "over");
    engine.send("setoption name RepetitionDraw value false");
    engine.send("position startpos moves a1 c3 c2 a2" + cycle + cycle);
    engine.send("d");
    CHECK_THAT(engine.sync().back(), Catch::EndsWith("Result: ongoing"));
    engine.send("query result");
    CHECK(engine.next() == "response none");
}

TEST_CASE("EvalFile loads an evaluation, and a bad file leaves the built-in one", "[protocol][eval]") {
    // An evaluation that only counts the tempo, 100 centi-flats for the side to move: at depth 1
    // every move scores -100 (the opponent is to move after it), whatever the position.
    const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                             "/bge_tempo_only_" + std::to_string(::getpid()) + ".txt";
    {
        std::ofstream file(path);
        file << "bge-tak-eval 1\n6 tempo[0] 1600 1600\n";
    }
    EngineSession engine(tak_binary);
    engine.send("teinewgame 6");
    engine.send("setoption name EvalFile value " + path);
    engine.send("position startpos moves a1 f6 c3");
    engine.send("go depth 1");
    const auto lines = engine.until(is_bestmove);
    REQUIRE(lines.size() >= 2);
    const auto info = words_of(lines[lines.size() - 2]);
    CHECK(info[7] == "-100");
    CHECK(legal_in("x5,1/x6/x2,2,x3/x6/x6/2,x5 2 2", words_of(lines.back())[1]));
    std::remove(path.c_str());

    // A file that cannot be read: the search still plays, with the compiled-in weights.
    engine.send("setoption name EvalFile value /nonexistent/weights.txt");
    engine.send("go depth 2");
    const auto after = engine.until(is_bestmove);
    CHECK(words_of(after[after.size() - 2])[7] != "-100");
    engine.sync();
}

TEST_CASE("EvalFile: a copy of the shipped file plays as the built-in weights, a broken one is refused",
          "[protocol][eval][nets]") {
    using namespace bge::testing;
    const std::string shipped(find_embedded_file(nets::embedded_files(), builtin_eval_file));
    const std::string copy = scratch_copy("eval_weights_copy.txt", shipped);
    const std::string broken = scratch_copy(
        "eval_weights_broken.txt", with_replaced(shipped, "flat_psqt_us[0] 1266 2897", "flat_psqt_us[0] 1266 28x97"));
    const std::string other = scratch_copy("eval_weights_other.txt", "bge-tak-eval 1\n6 tempo[0] 1600 1600\n");
    // The broken file is refused with its line and the reason.
    check_weights_option({tak_binary, "EvalFile", "tak: EvalFile", {}, "bench 3"}, copy, other, broken,
                         "tak: EvalFile: " + broken +
                             ": line 4: '28x97' is not a whole number within +-1e8; using the built-in weights");
}

TEST_CASE("TinueDepth plays a forced road found before the main search", "[protocol][tinue]") {
    // White's c3 threatens two roads at once (tests/tak_eval_test.cpp has the same position).
    EngineSession engine(tak_binary);
    engine.send("teinewgame 5");
    engine.send("setoption name TinueDepth value 3");
    engine.send("position tps 2,x,1,x2/x2,1,x2/1,1,x2,1/x4,2/2,2,1,x2 1 7");
    engine.send("go movetime 5000");
    const auto lines = engine.until(is_bestmove);
    CHECK(lines.back() == "bestmove c3");
    REQUIRE(lines.size() == 2);
    const auto info = words_of(lines[0]);
    CHECK(info[6] == "mate");
    CHECK(info[7] == "2");  // a win three plies away is mate in 2 (protocol/info.hpp)
    CHECK(info.back() != "c3");   // the pv goes on to the road
    CHECK(lines[0].find(" tinue ") != std::string::npos);
}
