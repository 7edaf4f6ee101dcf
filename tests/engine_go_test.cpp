// Every `go` gets its answer, whatever its limits (docs/protocol.md, "go limits"): the real
// binaries through pipes, with the limits a match runner or a script may send by mistake, where
// there is nothing to search, at the end of input and in argument mode, and `go perft` before
// `quit` and cut short by `stop`.

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "engine_session.hpp"
#include "every_engine.hpp"

using bge::testing::Engine;
using bge::testing::EngineSession;
using bge::testing::engines;
using bge::testing::is_bestmove;
using bge::testing::start;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

bool is_info_string(const std::string& line) { return line.rfind("info string ", 0) == 0; }

std::size_t count_bestmoves(const std::vector<std::string>& lines) {
    std::size_t count = 0;
    for (const auto& line : lines) count += is_bestmove(line) ? 1 : 0;
    return count;
}

// Zero, negative, huge, non-numeric, unknown and repeated limits, each bounded by what the
// engine makes of it (the same line with the bad part clamped or ignored); `warnings` is how
// many `info string` lines say what was changed.
struct BadGo {
    std::string line;
    int warnings;
};
const std::vector<BadGo> bad_gos = {
    {"go movetime 0", 0},
    {"go movetime -100", 1},
    {"go depth 0", 1},
    {"go depth -3", 1},
    {"go nodes 0", 1},
    {"go nodes -1 depth 1", 1},
    {"go wtime 0 btime 0", 0},
    {"go wtime -500 btime -500 winc -5 binc -5", 2},
    {"go p1time 0 p2time 0 movestogo 0", 1},
    {"go depth 99999999999999999999999 movetime 100", 1},
    {"go movetime 100 nodes 99999999999999999999999", 1},
    {"go movetime abc depth 1", 1},
    {"go depth x1 movetime 50", 1},
    {"go depth 1 extra", 1},
    {"go frobnicate 7 depth 1", 1},
    {"go depth 1 depth 2", 0},
    {"go movetime 50 movetime 0", 0},
    {"go movetime 100 depth", 1},
    {"go depth movetime 100", 1},
    // The largest clock taken as given (2^50 ms), and longer ones clamped to it: the deadline
    // must not overflow the clock's nanoseconds.
    {"go wtime 1125899906842624 btime 1125899906842624 p1time 1125899906842624 depth 1", 0},
    {"go wtime 99999999999999999999999 btime 99999999999999999999 depth 1", 2},
};

}  // namespace

// The bound catches a go left without a limit, which would search until stopped. It is loose: a
// depth-2 search took 1053 ms once in the sanitizer build beside the browser test on 2 cores.
TEST_CASE("every malformed or out-of-range go gets exactly one bestmove and no endless search", "[protocol][go]") {
    for (const Engine& engine : engines()) {
        INFO(engine.name);
        EngineSession session(engine.binary);
        start(session, engine);
        for (const BadGo& bad : bad_gos) {
            INFO(bad.line);
            session.send(engine.position);
            const auto sent = Clock::now();
            session.send(bad.line);
            const auto lines = session.until([](const std::string& line) { return is_bestmove(line); });
            const auto took = std::chrono::duration_cast<milliseconds>(Clock::now() - sent);
            INFO("bestmove after " << took.count() << " ms");
            CHECK(took <= milliseconds(5000));
            CHECK(lines.back() != "bestmove none");
            int warnings = 0;
            for (const auto& line : lines) {
                if (!is_info_string(line)) continue;
                ++warnings;
                CHECK(line.find("error") == std::string::npos);
            }
            CHECK(warnings == bad.warnings);
            // Nothing more: no second bestmove before the engine answers isready.
            CHECK(count_bestmoves(session.sync()) == 0);
        }
        session.finish();
    }
}

TEST_CASE("with nothing to search, go still gets one bestmove: none, after the error", "[protocol][go]") {
    struct Case {
        std::string engine;
        std::vector<std::string> lines;  // before the go
        std::string mentions;
    };
    std::vector<Case> cases;
    for (const Engine& engine : engines()) cases.push_back({engine.name, engine.setup, "no position"});
    cases.push_back({"tak", {"teinewgame 6", "position tps 1,1,1,1,1,1/x6/x6/x6/x6/2,2,2,2,2,x 2 6"}, "game is over"});
    cases.push_back({"gomoku", {"uginewgame 15x15", "position startpos moves h8 a1 i8 a2 j8 a3 k8 a4 l8"}, "game is over"});
    cases.push_back({"ur", {"uginewgame", "position startpos"}, "roll is due"});
    for (const Case& c : cases) {
        INFO(c.engine << ": " << c.mentions);
        std::string binary;
        for (const Engine& engine : engines())
            if (engine.name == c.engine) binary = engine.binary;
        EngineSession session(binary);
        for (const auto& line : c.lines) session.send(line);
        session.send("go depth 3");
        const auto lines = session.until([](const std::string& line) { return is_bestmove(line); });
        REQUIRE(lines.size() == 2);
        CHECK(lines[0].rfind("info string error: ", 0) == 0);
        CHECK_THAT(lines[0], Catch::Contains(c.mentions));
        CHECK(lines[1] == "bestmove none");
        // go perft answers with its count, 0.
        session.send("go perft 2");
        const auto perft = session.until([](const std::string& line) { return line.rfind("nodes ", 0) == 0; });
        if (c.mentions == "no position") {
            REQUIRE(perft.size() == 2);
            CHECK(perft[1] == "nodes 0");
        }
        CHECK(count_bestmoves(session.sync()) == 0);
        session.finish();
    }
}

TEST_CASE("the end of input ends a go with no limit, which answers its bestmove", "[protocol][go][script]") {
    for (const Engine& engine : engines()) {
        INFO(engine.name);
        std::vector<std::string> unlimited = {"go", "go infinite", "go ponder", "go infinite extra", "go depth"};
        // Only the other side's clock: no limit for the side to move (White, in tak's position).
        if (engine.name == "tak") unlimited.push_back("go btime 100000 binc 1000");
        for (const std::string& go : unlimited) {
            INFO(go);
            EngineSession piped(engine.binary);
            for (const auto& line : engine.setup) piped.send(line);
            piped.send(engine.position);
            piped.send(go);
            CHECK(count_bestmoves(piped.finish()) == 1);

            // The same commands as program arguments: nobody is left to send stop either.
            std::vector<std::string> arguments = engine.setup;
            arguments.push_back(engine.position);
            arguments.push_back(go);
            EngineSession by_arguments(engine.binary, arguments);
            CHECK(count_bestmoves(by_arguments.finish()) == 1);
        }
    }
}

TEST_CASE("go perft followed at once by quit prints the whole count", "[protocol][go][perft]") {
    for (const Engine& engine : engines()) {
        INFO(engine.name);
        // The count, read with nothing after it.
        EngineSession counted(engine.binary);
        start(counted, engine);
        counted.send(engine.position);
        counted.send("go perft 3");
        const auto full = counted.until([](const std::string& line) { return line.rfind("nodes ", 0) == 0; });
        counted.finish();
        REQUIRE(full.back() != "nodes 0");

        EngineSession quitting(engine.binary);
        for (const auto& line : engine.setup) quitting.send(line);
        quitting.send(engine.position);
        quitting.send("go perft 3");
        quitting.send("quit");
        const auto rest = quitting.finish();
        std::vector<std::string> counts;
        for (const auto& line : rest)
            if (!is_info_string(line)) counts.push_back(line);
        CHECK(counts == full);
    }
}

TEST_CASE("go perft is cut short by stop, says so, and later counts are unchanged", "[protocol][go][perft][stop]") {
    for (const Engine& engine : engines()) {
        INFO(engine.name);
        EngineSession session(engine.binary);
        start(session, engine);
        session.send(engine.position);
        session.send("go perft 2");
        const auto whole = session.until([](const std::string& line) { return line.rfind("nodes ", 0) == 0; });
        REQUIRE(whole.size() > 2);
        const std::size_t moves = whole.size() - 1;

        // No root move of a depth-30 count ends in the time of a test.
        session.send("go perft 30");
        std::this_thread::sleep_for(milliseconds(100));
        const auto stopped_at = Clock::now();
        session.send("stop");
        const auto cut = session.until([](const std::string& line) { return line.rfind("nodes ", 0) == 0; });
        CHECK(Clock::now() - stopped_at <= milliseconds(1000));
        CHECK(cut ==
              std::vector<std::string>{fmt::format("info string perft stopped after 0 of {} moves", moves), "nodes 0"});

        session.send("go perft 2");
        CHECK(session.until([](const std::string& line) { return line.rfind("nodes ", 0) == 0; }) == whole);
    }
}

TEST_CASE("pbrain: bad INFO times are clamped or ignored with a MESSAGE, and TURN still gets a move",
          "[protocol][go][pbrain]") {
    EngineSession brain(BGE_GOMOKU_BINARY);
    brain.send("START 15");
    REQUIRE(brain.next() == "OK");
    struct BadInfo {
        std::string line;
        bool message;  // whether a MESSAGE says what was done with it
    };
    for (const BadInfo& bad : std::vector<BadInfo>{{"INFO timeout_turn abc", true},
                                                   {"INFO timeout_turn -5", true},
                                                   {"INFO timeout_turn 0", false},
                                                   {"INFO time_left 99999999999999999999999", true},
                                                   {"INFO timeout_match 1e9", true},
                                                   {"INFO max_memory lots", true},
                                                   {"INFO timeout_turn", true},
                                                   {"INFO frobnicate 7", false}}) {
        INFO(bad.line);
        brain.send(bad.line);
        brain.send("ABOUT");  // answered in order, after anything the INFO line printed
        const auto lines = brain.until([](const std::string& line) { return line.rfind("name=", 0) == 0; });
        CHECK(lines.size() == (bad.message ? 2u : 1u));
        if (bad.message) CHECK(lines[0].rfind("MESSAGE INFO ", 0) == 0);
    }
    const auto sent = Clock::now();
    brain.send("TURN 7,7");
    std::string answer;
    for (answer = brain.next(); answer.rfind("MESSAGE", 0) == 0; answer = brain.next()) {
    }
    const auto took = std::chrono::duration_cast<milliseconds>(Clock::now() - sent);
    INFO("the move '" << answer << "' came after " << took.count() << " ms");
    CHECK(took <= milliseconds(1000));
    CHECK(answer.find(',') != std::string::npos);
    CHECK(answer.rfind("ERROR", 0) != 0);
    brain.send("END");
}
