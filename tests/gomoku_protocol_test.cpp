// The real `gomoku` binary driven through pipes: a Gomocup manager's pbrain transcript (as
// piskvork sends it, CR LF line ends included), bad pbrain input answered with ERROR while the
// brain keeps serving, detection of the dialect from the first command, and UGI.

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include "core/gomoku/gomoku.hpp"
#include "core/version.hpp"
#include "arbiter_run.hpp"
#include "engine_session.hpp"

using namespace bge;
using bge::testing::EngineSession;
using bge::testing::words_of;

namespace {

const std::string gomoku_binary = BGE_GOMOKU_BINARY;

bool is_coordinate(const std::string& line) {
    static const std::regex pattern("^[0-9]+,[0-9]+$");
    return std::regex_match(line, pattern);
}

// The brain's answer to a move request: MESSAGE lines (search progress) may come first.
std::string read_move(EngineSession& brain) {
    for (;;) {
        const std::string line = brain.next();
        if (line.rfind("MESSAGE ", 0) == 0 || line.rfind("DEBUG ", 0) == 0) continue;
        return line;
    }
}

}  // namespace

TEST_CASE("pbrain: a Gomocup manager's transcript", "[protocol][pbrain]") {
    EngineSession brain(gomoku_binary);
    brain.send("START 15\r");  // managers end lines with CR LF
    CHECK(brain.next() == "OK");
    for (const char* info : {"INFO timeout_match 300000", "INFO timeout_turn 200", "INFO max_memory 83886080",
                             "INFO game_type 1", "INFO rule 0", "INFO time_left 300000", "INFO folder /tmp"})
        brain.send(std::string(info) + "\r");
    brain.send("BEGIN\r");
    const std::string first = read_move(brain);
    REQUIRE(is_coordinate(first));
    CHECK(first == "7,7");  // the centre of an empty board
    brain.send("TURN 8,8\r");
    const std::string second = read_move(brain);
    REQUIRE(is_coordinate(second));
    CHECK(second != "7,7");
    CHECK(second != "8,8");

    // An opening given as a BOARD block (piskvork's automatic openings): the brain is to move
    // with its stones marked 1; here it is White (two opponent stones, one own).
    brain.send("RESTART\r");
    CHECK(brain.next() == "OK");
    for (const char* line : {"BOARD", "7,7,2", "8,7,1", "7,8,2", "DONE"}) brain.send(std::string(line) + "\r");
    const std::string third = read_move(brain);
    REQUIRE(is_coordinate(third));
    for (const char* taken : {"7,7", "8,7", "7,8"}) CHECK(third != taken);

    // A four on the board must be blocked: opponent stones 3,3 4,3 5,3 6,3 (the brain has 2,3).
    brain.send("RESTART");
    CHECK(brain.next() == "OK");
    for (const char* line : {"BOARD", "3,3,2", "2,3,1", "4,3,2", "10,10,1", "5,3,2", "10,12,1", "6,3,2", "DONE"})
        brain.send(line);
    CHECK(read_move(brain) == "7,3");
    brain.send("TAKEBACK 7,3");
    CHECK(brain.next() == "OK");
    brain.send("TAKEBACK 6,3");
    CHECK(brain.next() == "OK");
    brain.send("TURN 6,3");
    CHECK(read_move(brain) == "7,3");

    brain.send("ABOUT");
    const std::string about = brain.next();
    CHECK(std::regex_match(about, std::regex(R"(^name="gomoku", version="[^"]+", author="[^"]+", country="[^"]+"$)")));
    // Renju and a rectangular board.
    brain.send("INFO rule 4");
    brain.send("RECTSTART 20,15");
    CHECK(brain.next() == "OK");
    brain.send("BEGIN");
    CHECK(read_move(brain) == "10,7");
    brain.send("END");
    REQUIRE(brain.process().wait_for_exit(EngineSession::patience));
    CHECK(brain.process().exit_status() == std::optional<int>(0));
}

TEST_CASE("pbrain: bad input gets ERROR and the brain keeps serving", "[protocol][pbrain]") {
    EngineSession brain(gomoku_binary);
    brain.send("TURN 7,7");  // no board yet: still a pbrain session, refused
    CHECK(brain.next().rfind("ERROR ", 0) == 0);
    brain.send("START 99");
    CHECK(brain.next().rfind("ERROR ", 0) == 0);
    brain.send("START 2");
    CHECK(brain.next().rfind("ERROR ", 0) == 0);
    brain.send("START 15");
    CHECK(brain.next() == "OK");
    brain.send("INFO timeout_turn 100");
    brain.send("TURN 7,7");
    const std::string reply = read_move(brain);
    REQUIRE(is_coordinate(reply));

    const std::vector<std::pair<std::string, std::string>> bad = {
        {"TURN 7,7", "occupied"},
        {"TURN " + reply, "occupied"},
        {"TURN 15,3", "not on the"},
        {"TURN 3,-1", "TURN needs x,y"},
        {"TURN seven", "TURN needs x,y"},
        {"TAKEBACK 0,0", "no stone"},
        {"RECTSTART 15", "RECTSTART needs"},
        {"INFO rule 8", "caro"},
    };
    for (const auto& [command, mentions] : bad) {
        INFO(command);
        brain.send(command);
        const std::string line = brain.next();
        CHECK(line.rfind("ERROR ", 0) == 0);
        CHECK_THAT(line, Catch::Contains(mentions));
    }
    brain.send("YXSHOWINFO");
    CHECK(brain.next().rfind("UNKNOWN ", 0) == 0);

    // Malformed BOARD blocks: each gets one ERROR after DONE, and the game is unchanged.
    const std::vector<std::vector<std::string>> blocks = {
        {"BOARD", "7,7,1", "seven", "DONE"},
        {"BOARD", "7,7,1", "8,8,4", "DONE"},
        {"BOARD", "7,7,1", "7,7,2", "DONE"},
        {"BOARD", "7,7,1", "30,30,2", "DONE"},
        {"BOARD", "0,0,2", "1,0,2", "2,0,2", "3,0,2", "4,0,2", "0,1,1", "1,1,1", "2,1,1", "3,1,1", "DONE"},  // over
    };
    for (const auto& block : blocks) {
        INFO(block[2]);
        for (const auto& line : block) brain.send(line);
        CHECK(brain.next().rfind("ERROR ", 0) == 0);
    }
    // Still the same game: the brain's stone and the opponent's 7,7 are there.
    brain.send("TURN 7,7");
    CHECK_THAT(brain.next(), Catch::Contains("occupied"));
    brain.send("TURN 0,14");
    CHECK(is_coordinate(read_move(brain)));
    brain.send("END");
    REQUIRE(brain.process().wait_for_exit(EngineSession::patience));
}

TEST_CASE("pbrain: a BOARD with stone counts no game reaches is still played", "[protocol][pbrain]") {
    // Gomocup managers and analysis GUIs send such boards, and Rapfi answers them: the brain is to
    // move whatever the counts. The side with more stones is the first player (Black).
    EngineSession brain(gomoku_binary);
    brain.send("START 15");
    REQUIRE(brain.next() == "OK");
    brain.send("INFO timeout_turn 300");
    // The issue's case: two own stones, one of the opponent's.
    for (const char* line : {"BOARD", "7,7,1", "8,8,1", "7,8,2", "DONE"}) brain.send(line);
    std::string move = read_move(brain);
    REQUIRE(is_coordinate(move));
    for (const char* taken : {"7,7", "8,8", "7,8"}) CHECK(move != taken);
    // The game goes on from there: the opponent's TURN is taken and answered.
    brain.send("TURN 0,0");
    const std::string next = read_move(brain);
    REQUIRE(is_coordinate(next));
    CHECK(next != move);
    CHECK(next != "0,0");

    // Four own stones in a row and one opponent stone: the brain is to move and makes five.
    brain.send("RESTART");
    REQUIRE(brain.next() == "OK");
    for (const char* line : {"BOARD", "3,3,1", "4,3,1", "5,3,1", "6,3,1", "0,0,2", "DONE"}) brain.send(line);
    move = read_move(brain);
    CHECK((move == "2,3" || move == "7,3"));
    // No own stone and two of the opponent's, which has an open three: the brain blocks it.
    brain.send("RESTART");
    REQUIRE(brain.next() == "OK");
    for (const char* line : {"BOARD", "6,7,2", "7,7,2", "8,7,2", "DONE"}) brain.send(line);
    move = read_move(brain);
    CHECK((move == "5,7" || move == "9,7" || move == "4,7" || move == "10,7"));
    // An opponent with four more stones: still the brain's move, as White under renju.
    brain.send("INFO rule 4");
    brain.send("RESTART");
    REQUIRE(brain.next() == "OK");
    for (const char* line : {"BOARD", "5,5,2", "9,9,2", "5,9,2", "9,5,2", "DONE"}) brain.send(line);
    CHECK(is_coordinate(read_move(brain)));
    brain.send("END");
    REQUIRE(brain.process().wait_for_exit(EngineSession::patience));
}

TEST_CASE("renju: stop and movetime are honoured in every search phase", "[protocol][ugi][time]") {
    // The position from the Rapfi match where `stop` was answered 1.5 s late (a chain of fours in
    // quiescence never looked at the clock) and `go movetime 500` took 3 s. The bounds here are
    // loose on purpose (the machine is shared); `stop` itself is honoured within milliseconds.
    using Clock = std::chrono::steady_clock;
    EngineSession engine(gomoku_binary);
    engine.send("setoption name Rule value renju");
    engine.send("uginewgame");
    engine.send("position startpos moves m7 e9 e12 f3 l6 k5 k7 l7 j6 j8 i6 k6 j5 k4 f11 k3 k2 j3 i5 h4 m6 l8 g10 "
                "h9 m8 m5 d13 c14 j2 i4 g4 i3");
    REQUIRE(engine.sync().empty());
    for (int delay_ms : {0, 30, 100, 300}) {
        INFO("stop after " << delay_ms << " ms");
        engine.send("go infinite");
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        const auto stopped = Clock::now();
        engine.send("stop");
        const auto lines = engine.until_prefix("bestmove");
        CHECK(Clock::now() - stopped < std::chrono::milliseconds(300));
        CHECK(lines.back() != "bestmove (none)");
    }
    for (const char* rule : {"renju", "freestyle", "standard"}) {
        INFO(rule);
        engine.send(std::string("setoption name Rule value ") + rule);
        engine.send("position startpos moves m7 e9 e12 f3 l6 k5 k7 l7 j6 j8 i6 k6 j5 k4 f11 k3 k2 j3 i5 h4 m6 l8 "
                    "g10 h9 m8 m5 d13 c14 j2 i4 g4 i3");
        const auto started = Clock::now();
        engine.send("go movetime 300");
        engine.until_prefix("bestmove");
        CHECK(Clock::now() - started < std::chrono::milliseconds(700));
    }
}

TEST_CASE("gomoku speaks UGI when the first command is not pbrain", "[protocol][ugi]") {
    EngineSession engine(gomoku_binary);
    engine.send("ugi");
    const auto handshake = engine.until([](const std::string& line) { return line == "ugiok"; });
    CHECK(handshake.front() == "id name gomoku " + bge::version_text());
    CHECK(std::find(handshake.begin(), handshake.end(),
                    "option name Rule type combo default freestyle var freestyle var standard var renju") !=
          handshake.end());
    engine.send("START 15");  // not a UGI command once UGI is chosen
    const auto lines = engine.sync();
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].rfind("info string error: unknown command", 0) == 0);

    engine.send("uginewgame");
    engine.send("position startpos moves h8 7,8");
    engine.send("query p1turn");
    CHECK(engine.next() == "response true");
    engine.send("go movetime 200");
    const auto search = engine.until([](const std::string& line) { return line.rfind("bestmove ", 0) == 0; });
    const auto words = words_of(search.back());
    REQUIRE(words.size() == 2);
    auto state = gomoku::parse_position("15/15/15/15/15/15/15/7x7/7o7/15/15/15/15/15/15 x", gomoku::Variant{});
    REQUIRE(state);
    CHECK(gomoku::parse_move(*state, words[1]).ok());
    engine.expect_error("position startpos moves h8 h8", "occupied");
    engine.expect_error("position fen 3/3/3 x", "k must be");
    engine.expect_error("setoption name Rule value caro");
    // Tic-tac-toe through options, and its perft.
    engine.send("setoption name Width value 3");
    engine.send("setoption name Height value 3");
    engine.send("setoption name InARow value 3");
    engine.send("position startpos moves b2 a1 c3 a3 a2 c2 b1 b3 c1");
    engine.send("query result");
    CHECK(engine.next() == "response draw");
    engine.send("position startpos");
    engine.send("go perft 5");
    const auto perft = engine.until([](const std::string& line) { return line.rfind("nodes ", 0) == 0; });
    CHECK(perft.back() == "nodes 15120");
    CHECK(perft.size() == 10);
    engine.send("uginewgame 9x7");
    engine.send("setoption name InARow value 5");
    engine.send("position startpos");
    engine.send("d");
    bool fen_seen = false;
    for (const auto& line : engine.sync()) fen_seen = fen_seen || line == "Fen: 9/9/9/9/9/9/9 x";
    CHECK(fen_seen);
    engine.finish();
}

TEST_CASE("suite: a file of won positions, solved within each time limit", "[protocol][suite]") {
    const std::string path = bge::testing::scratch().file("gomoku_suite.txt");
    {
        std::ofstream file(path);
        file << "# Black's open three on row 8: g8 or k8 makes an open four.\n"
                "o14/15/15/15/15/15/15/7xxx5/7oo6/15/15/15/15/15/15 x ; bm g8 k8 ; win 3 ; option Rule=freestyle ; "
                "id open-three\n"
                "\n"
                "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x ; bm\n"
                "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x ; bm h8 ; colour red\n"
                "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x ; bm z99 ; id off-board\n"
                "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x ; bm h8 ; option Rule=caro ; id bad-rule\n"
                "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x ; bm h8 ; option Rule=standard ; id centre\n";
    }
    EngineSession engine(gomoku_binary);
    engine.send("suite " + path + " 0.2 0.1");
    const auto lines = engine.until_prefix("Solved in 0.2 s");
    auto has = [&](const std::string& text) {
        return std::any_of(lines.begin(), lines.end(),
                           [&](const std::string& line) { return line.find(text) != std::string::npos; });
    };
    // Each unreadable line is named and left out; the rest run.
    CHECK(has("info string error: suite " + path + ": line 4: bm needs at least one move"));
    CHECK(has("line 5: unknown field 'colour' (known: bm, win, option, id)"));
    CHECK(has("info string error: suite off-board: bm z99:"));
    CHECK(has("info string error: suite bad-rule:"));
    CHECK(has("Positions       : 2"));
    // The open three is a proven win at once; the empty board is solved only by its move.
    const std::string first = *std::find_if(lines.begin(), lines.end(), [](const std::string& line) {
        return line.rfind("Solved in 0.1 s", 0) == 0;
    });
    CHECK(first.rfind("Solved in 0.1 s : 2 (100.0 %; a win proven in 1, the best move in 2)", 0) == 0);
    CHECK(lines.back().rfind("Solved in 0.2 s : 2 (100.0 %; a win proven in 1, the best move in 1)", 0) == 0);
    // The engine serves on afterwards.
    engine.sync();
    engine.send("suite /nonexistent/file");
    CHECK(engine.next() == "info string error: suite: cannot read '/nonexistent/file'");
    engine.send("suite /dev/zero");
    CHECK(engine.next() == "info string error: suite: cannot read '/dev/zero'");
    engine.send("suite " + path + " 0.1 fast");
    CHECK(engine.next() == "info string error: suite: 'fast' is not a number of seconds");
}

TEST_CASE("suite: every position of the Rapfi win suite reads, with a legal move", "[protocol][suite]") {
    // 300 positions at a millisecond each: the data is checked, not the engine's strength.
    EngineSession engine(gomoku_binary);
    engine.send(std::string("suite ") + BGE_TEST_DATA_DIR + "/gomoku-wins.txt 0.001");
    const auto lines = engine.until_prefix("Solved in 0.001 s");
    for (const std::string& line : lines) CHECK(line.find("error") == std::string::npos);
    CHECK(std::find(lines.begin(), lines.end(), "Positions       : 300") != lines.end());
}
