// Every engine keeps reading its input while it searches (docs/protocol.md, "While a search
// runs"): the real binaries through pipes, with searches that would never end by themselves, a
// `go` queued behind them, `stop`, `isready`, `query` and `quit`, piped scripts, the pbrain
// brain's END / STOP / YXSTOP while it thinks, and a bounded fuzz of random and mutated lines.

#include <catch2/catch.hpp>

#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine_session.hpp"
#include "every_engine.hpp"
#include "protocol/text.hpp"

using bge::testing::Engine;
using bge::testing::EngineSession;
using bge::testing::engines;
using bge::testing::check_legal;
using bge::testing::is_bestmove;
using bge::testing::move_of;
using bge::testing::start;
using bge::testing::words_of;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

// "At once": the engine only has to wake a thread and write a line. Generous for a shared,
// loaded machine, yet far below the time any of the searches below would take.
constexpr milliseconds at_once{100};
// Exiting includes stopping the search, printing its bestmove and process teardown.
constexpr milliseconds exit_promptly{2000};

// Searches that no engine finishes by itself in the time of a test.
const std::vector<std::string> endless_searches = {"go depth 200", "go movetime 100000000"};
// The list: each with a `go` queued behind it, then `stop`.
const std::vector<std::string> long_searches = {
    "go", "go infinite", "go ponder", "go nodes 1000000000000", "go depth 200", "go movetime 100000000"};


// The next line, as EngineSession::next() but with how long it took since `since`.
std::string timed_line(EngineSession& engine, Clock::time_point since, milliseconds& took) {
    const auto read = engine.process().read_line_until(since + EngineSession::patience);
    REQUIRE(read.status == bge::protocol::ReadStatus::line);
    took = std::chrono::duration_cast<milliseconds>(Clock::now() - since);
    return read.line;
}

// Reads up to `wanted`; returns the lines before it and checks it came within `within` of `since`.
std::vector<std::string> expect_within(EngineSession& engine, const std::string& wanted, Clock::time_point since,
                                       milliseconds within) {
    std::vector<std::string> before;
    milliseconds took{0};
    while (true) {
        const std::string line = timed_line(engine, since, took);
        if (line == wanted) break;
        before.push_back(line);
    }
    INFO("'" << wanted << "' came after " << took.count() << " ms");
    CHECK(took <= within);
    return before;
}

// Sends `line` and expects `reply` at once.
std::vector<std::string> ask(EngineSession& engine, const std::string& line, const std::string& reply) {
    const auto sent = Clock::now();
    engine.send(line);
    return expect_within(engine, reply, sent, at_once);
}

// The first move `go perft 1` lists: what a `go` dropped by `stop` answers.
std::string first_listed_move(EngineSession& session, const std::string& position) {
    session.send(position);
    session.send("go perft 1");
    return words_of(session.until_prefix("nodes ").front()).at(0);
}

std::string perft_one(EngineSession& session, const std::string& position) {
    session.send(position);
    session.send("go perft 1");
    return session.until_prefix("nodes ").back();
}

// Reads until `count` bestmoves; returns them, with `seen` holding every line read.
std::vector<std::string> bestmoves(EngineSession& session, std::size_t count, std::vector<std::string>& seen) {
    std::vector<std::string> moves;
    for (const auto& line : seen)
        if (is_bestmove(line)) moves.push_back(line);
    while (moves.size() < count) {
        seen.push_back(session.next());
        if (is_bestmove(seen.back())) moves.push_back(seen.back());
    }
    return moves;
}

}  // namespace

TEST_CASE("a go queued behind a long search: stop and isready are answered at once", "[protocol][queue]") {
    for (const Engine& engine : engines()) {
        EngineSession session(engine.binary);
        start(session, engine);
        for (const std::string& search : long_searches) {
            INFO(engine.name << ": " << search << ", go depth 1, stop, isready");
            session.send(engine.position);
            session.send(search);
            session.send("go depth 1");
            session.send("stop");
            auto seen = ask(session, "isready", "readyok");
            // The stopped search and the queued one: exactly one bestmove each.
            const auto moves = bestmoves(session, 2, seen);
            REQUIRE(moves.size() == 2);
            for (const auto& line : session.sync()) CHECK_FALSE(is_bestmove(line));
            for (const auto& line : moves) check_legal(session, engine.position, move_of(line));
        }
    }
}

TEST_CASE("isready, query and ponderhit are answered at once while a go waits", "[protocol][queue]") {
    for (const Engine& engine : engines()) {
        EngineSession session(engine.binary);
        start(session, engine);
        const std::string dropped_answer = first_listed_move(session, engine.position);
        session.send("query p1turn");
        const std::string turn = session.next();
        session.send(engine.other);
        session.send("query p1turn");
        const std::string other_turn = session.next();
        REQUIRE(turn != other_turn);
        for (const std::string& search : endless_searches) {
            INFO(engine.name << ": " << search);
            session.send(engine.position);
            session.send(search);
            session.send("go depth 1");  // queued
            session.send(engine.other);  // queued behind it
            auto seen = ask(session, "isready", "readyok");
            for (const auto& line : seen) CHECK_FALSE(is_bestmove(line));  // the search still runs
            // The queued position is not applied yet.
            for (const auto& line : ask(session, "query p1turn", turn)) CHECK_FALSE(is_bestmove(line));
            session.send("ponderhit");  // accepted and ignored
            for (const auto& line : ask(session, "isready", "readyok")) CHECK_FALSE(is_bestmove(line));

            // stop: the running search's bestmove, then the dropped go's: the first listed move.
            const auto stopped = Clock::now();
            session.send("stop");
            std::vector<std::string> after_stop;
            const auto moves = bestmoves(session, 2, after_stop);
            CHECK(Clock::now() - stopped <= at_once + milliseconds(400));  // a search checks stop often
            CHECK(move_of(moves[1]) == dropped_answer);
            CHECK(after_stop.back() == moves[1]);  // no info line for the dropped go
            // Then the queued position ran.
            session.send("query p1turn");
            CHECK(session.next() == other_turn);
            CHECK(session.sync().empty());
            check_legal(session, engine.position, move_of(moves[0]));
        }
    }
}

TEST_CASE("a stop drops every queued go, and each still gets one bestmove in order", "[protocol][queue]") {
    for (const Engine& engine : engines()) {
        INFO(engine.name);
        EngineSession session(engine.binary);
        start(session, engine);
        const std::string first_in_other = first_listed_move(session, engine.other);
        const std::string first_in_position = first_listed_move(session, engine.position);
        session.sync();
        session.send(engine.position);
        session.send("go movetime 100000000");
        session.send(engine.other);
        session.send("go depth 3");
        session.send(engine.position);
        session.send("go infinite");
        session.send("go perft 3");  // a dropped perft prints only "nodes 0"
        session.send("bogus-queued-command");
        session.send("stop");
        session.send("go depth 1");  // after the stop: searched, not dropped
        std::vector<std::string> seen;
        const auto moves = bestmoves(session, 4, seen);
        const auto rest = session.sync();
        seen.insert(seen.end(), rest.begin(), rest.end());
        REQUIRE(moves.size() == 4);
        CHECK(move_of(moves[1]) == first_in_other);
        CHECK(move_of(moves[2]) == first_in_position);
        check_legal(session, engine.position, move_of(moves[3]));
        // In order: the three answers, nodes 0, the queued command's error, then the new search.
        std::vector<std::string> order;
        for (const auto& line : seen)
            if (is_bestmove(line) || line.rfind("nodes ", 0) == 0 || line.find("bogus-queued-command") != line.npos)
                order.push_back(line);
        REQUIRE(order.size() == 6);
        CHECK(order[3] == "nodes 0");
        CHECK_THAT(order[4], Catch::Contains("unknown command"));
        CHECK(is_bestmove(order[5]));
        for (const auto& line : rest) CHECK_FALSE(is_bestmove(line));
    }
}

TEST_CASE("commands behind a queued go wait for its search and do not cut it short", "[protocol][queue]") {
    // Given as arguments, the lines are all read before the first search can end, so the second
    // `go` and the `setoption` behind it are queued whatever the machine's speed. Sent during a
    // search with nothing queued, the `setoption` would end that search at once.
    for (const Engine& engine : engines()) {
        // Their alpha-beta players print an info line for each depth they complete (Gomoku's
        // default is PUCT, which has no depths).
        if (engine.name != "tak" && engine.name != "gomoku") continue;
        INFO(engine.name);
        std::vector<std::string> script = engine.setup;
        if (engine.name == "gomoku") script.push_back("setoption name Player value alphabeta");
        for (const std::string& line : {engine.position, std::string("go infinite"), std::string("go depth 4"),
                                        std::string("setoption name Seed value 3")})
            script.push_back(line);
        EngineSession session(engine.binary, script);
        const auto first = session.until(is_bestmove);
        const auto second = session.until(is_bestmove);
        std::string deepest;
        for (const auto& line : second)
            if (line.rfind("info depth ", 0) == 0) deepest = words_of(line).at(2);
        CHECK(deepest == "4");  // the queued search ran to its depth
        const auto rest = session.finish();
        for (const auto& lines : {first, second, rest})
            for (const auto& line : lines) CHECK(line.rfind("info string error", 0) != 0);
        for (const auto& line : rest) CHECK_FALSE(is_bestmove(line));
    }
}

TEST_CASE("quit ends a search at once, also with a go queued behind it", "[protocol][queue]") {
    for (const Engine& engine : engines()) {
        for (const bool queued : {false, true}) {
            for (const std::string& search : endless_searches) {
                INFO(engine.name << ": " << search << (queued ? " with a go queued" : ""));
                EngineSession session(engine.binary);
                start(session, engine);
                session.send(engine.position);
                session.send(search);
                if (queued) session.send("go depth 1");
                ask(session, "isready", "readyok");
                const auto sent = Clock::now();
                session.send("quit");
                REQUIRE(session.process().wait_for_exit(EngineSession::patience));
                CHECK(Clock::now() - sent <= exit_promptly);
                CHECK(session.process().exit_status() == std::optional<int>(0));
                // The running search's bestmove goes out; the queued go is dropped unanswered.
                int answers = 0;
                while (true) {
                    const auto read = session.process().read_line(milliseconds(0));
                    if (read.status != bge::protocol::ReadStatus::line) break;
                    if (is_bestmove(read.line)) ++answers;
                }
                CHECK(answers == 1);
            }
        }
    }
}

TEST_CASE("a piped script runs queued commands in order, to the end of input", "[protocol][queue][script]") {
    for (const Engine& engine : engines()) {
        INFO(engine.name);
        EngineSession session(engine.binary);
        start(session, engine);
        const std::string count_position = perft_one(session, engine.position);
        const std::string count_other = perft_one(session, engine.other);
        REQUIRE(count_position != count_other);
        session.sync();
        // One burst: every line after the first go waits for it and then runs in order.
        for (const std::string& line :
             {engine.position, std::string("go movetime 300"), engine.other, std::string("go perft 1"), engine.position,
              std::string("go depth 1"), std::string("go perft 1")})
            session.send(line);
        const auto rest = session.finish();  // end of input: all of it still runs
        std::vector<std::string> order;
        for (const auto& line : rest)
            if (is_bestmove(line) || line.rfind("nodes ", 0) == 0) order.push_back(line);
        REQUIRE(order.size() == 4);
        CHECK(is_bestmove(order[0]));
        CHECK(order[1] == count_other);
        CHECK(is_bestmove(order[2]));
        CHECK(order[3] == count_position);
    }
}

namespace {

// The brain's next answer that is not a MESSAGE line.
std::string brain_answer(EngineSession& brain, Clock::time_point since, milliseconds within) {
    milliseconds took{0};
    while (true) {
        const std::string line = timed_line(brain, since, took);
        if (line.rfind("MESSAGE ", 0) == 0) continue;
        INFO("'" << line << "' came after " << took.count() << " ms");
        CHECK(took <= within);
        return line;
    }
}

bool is_coordinate(const std::string& line) {
    const auto comma = line.find(',');
    return comma != std::string::npos && comma > 0 && comma + 1 < line.size() &&
           line.find_first_not_of("0123456789,") == std::string::npos;
}

}  // namespace

TEST_CASE("pbrain: END, STOP and YXSTOP are acted on while the brain thinks", "[protocol][pbrain][queue]") {
    const std::string gomoku = BGE_GOMOKU_BINARY;
    EngineSession brain(gomoku);
    brain.send("START 15");
    CHECK(brain.next() == "OK");
    brain.send("INFO timeout_turn 100000000");  // a day: only a stop ends the search
    brain.send("STOP");                         // idle: nothing happens
    brain.send("TURN 7,7");
    brain.send("ABOUT");  // waits for the move
    std::this_thread::sleep_for(milliseconds(50));
    auto sent = Clock::now();
    brain.send("YXSTOP");
    const std::string first = brain_answer(brain, sent, at_once + milliseconds(400));
    CHECK(is_coordinate(first));
    CHECK(first != "7,7");
    CHECK(brain_answer(brain, sent, at_once + milliseconds(400)).rfind("name=", 0) == 0);

    brain.send("TURN 0,0");
    std::this_thread::sleep_for(milliseconds(50));
    sent = Clock::now();
    brain.send("STOP");
    const std::string second = brain_answer(brain, sent, at_once + milliseconds(400));
    CHECK(is_coordinate(second));
    for (const std::string& taken : {first, std::string("7,7"), std::string("0,0")}) CHECK(second != taken);

    brain.send("TURN 14,14");
    brain.send("TURN 14,13");  // waits, and is never run: END drops it
    std::this_thread::sleep_for(milliseconds(50));
    sent = Clock::now();
    brain.send("END");
    REQUIRE(brain.process().wait_for_exit(EngineSession::patience));
    CHECK(Clock::now() - sent <= exit_promptly);
    CHECK(brain.process().exit_status() == std::optional<int>(0));
    while (true) {
        const auto read = brain.process().read_line(milliseconds(0));
        if (read.status != bge::protocol::ReadStatus::line) break;
        CHECK(read.line.rfind("MESSAGE ", 0) == 0);  // no move after END
    }
}

TEST_CASE("pbrain: commands sent while the brain thinks run in order after its move", "[protocol][pbrain][queue]") {
    const std::string gomoku = BGE_GOMOKU_BINARY;
    EngineSession brain(gomoku);
    brain.send("START 15");
    CHECK(brain.next() == "OK");
    brain.send("INFO timeout_turn 300");
    brain.send("TURN 7,7");
    brain.send("RESTART");
    brain.send("BOARD");
    brain.send("7,7,2");
    brain.send("DONE");
    const auto now = Clock::now();
    const std::string move = brain_answer(brain, now, EngineSession::patience);
    CHECK(is_coordinate(move));
    CHECK(brain_answer(brain, now, EngineSession::patience) == "OK");
    const std::string board_move = brain_answer(brain, now, EngineSession::patience);
    CHECK(is_coordinate(board_move));
    CHECK(board_move != "7,7");
    brain.send("END");
    REQUIRE(brain.process().wait_for_exit(EngineSession::patience));
}

namespace {

// Lines for the fuzz: real commands, which the mutations below then damage.
std::vector<std::string> fuzz_vocabulary(const Engine& engine) {
    std::vector<std::string> lines = {"isready",
                                      "stop",
                                      "stop",
                                      "ponderhit",
                                      "debug on",
                                      "query p1turn",
                                      "query gameover",
                                      "query result",
                                      "query score",
                                      "d",
                                      "ugi",
                                      "tei",
                                      "uginewgame",
                                      "teinewgame",
                                      "position startpos",
                                      engine.position,
                                      engine.other,
                                      engine.position,
                                      "go depth 1",
                                      "go depth 2",
                                      "go nodes 100",
                                      "go nodes 1000",
                                      "go movetime 5",
                                      "go movetime 20",
                                      "go infinite",
                                      "go ponder",
                                      "go",
                                      "go perft 1",
                                      "go perft 2",
                                      "go depth 200",
                                      "go movetime 100000000",
                                      "go wtime 100 btime 100",
                                      "go p1time 50 p2time 50 p1inc 5 p2inc 5",
                                      "setoption name Seed value 7"};
    for (const auto& player : engine.players) lines.push_back("setoption name Player value " + player);
    for (const auto& line : engine.setup) lines.push_back(line);
    return lines;
}

std::string fuzz_line(const std::vector<std::string>& vocabulary, std::mt19937& random) {
    auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
    auto byte = [&]() -> char {
        static const std::string specials = "\t\r \x01\x7f\x80\xff,./-0123456789";
        if (pick(3) == 0) return specials[pick(specials.size())];
        return static_cast<char>(' ' + pick(95));
    };
    std::string line = vocabulary[pick(vocabulary.size())];
    if (pick(10) == 0) {  // a line of random words
        line.clear();
        for (std::size_t i = 0, n = 1 + pick(6); i < n; ++i) {
            if (i) line += ' ';
            line += pick(2) ? words_of(vocabulary[pick(vocabulary.size())]).front()
                            : std::to_string(static_cast<std::int64_t>(random()) - (1LL << 31));
        }
    }
    for (std::size_t edits = pick(3); edits > 0; --edits) {  // a third of the lines stay clean
        const std::size_t at = line.empty() ? 0 : pick(line.size());
        switch (pick(6)) {
            case 0:
                if (!line.empty()) line[at] = byte();
                break;
            case 1:
                if (!line.empty()) line.erase(at, 1);
                break;
            case 2:
                line.insert(at, 1, byte());
                break;
            case 3:
                line.resize(at);
                break;
            case 4:
                line += " " + std::to_string(static_cast<std::int64_t>(random()) * (pick(2) ? 1 : -1000));
                break;
            default:
                line += " " + words_of(vocabulary[pick(vocabulary.size())]).back();
                break;
        }
    }
    return line;
}

}  // namespace

TEST_CASE("fuzz: random and mutated lines with searches never stop an engine answering", "[protocol][queue][fuzz]") {
    constexpr int lines_per_engine = 400;
    for (const Engine& engine : engines()) {
        INFO(engine.name);
        std::mt19937 random(20240521);
        const auto vocabulary = fuzz_vocabulary(engine);
        EngineSession session(engine.binary);
        session.send("ugi");  // not a pbrain first line, for gomoku
        session.until([](const std::string& line) { return line == "ugiok"; });
        start(session, engine);
        std::vector<std::string> sent;
        while (sent.size() < lines_per_engine) {
            const std::string line = fuzz_line(vocabulary, random);
            if (line.find('\n') != std::string::npos) continue;
            const auto words = bge::protocol::split_words(line);
            // quit ends the engine and bench takes seconds; everything else is fair.
            if (!words.empty() && (words[0] == "quit" || words[0] == "bench")) continue;
            session.send(line);
            sent.push_back(line);
            if (random() % 8 == 0) std::this_thread::sleep_for(milliseconds(random() % 4));  // let searches run
        }
        session.send("stop");
        const auto asked = Clock::now();
        session.send("isready");
        expect_within(session, "readyok", asked, milliseconds(1000));

        // Afterwards a clean position gets a legal move. A `go perft 0` with an unknown word is
        // the marker: like any `go` it waits for the searches before it, so the last bestmove
        // before its warning is ours; its count follows.
        for (const auto& line : engine.setup) session.send(line);
        session.send(engine.position);
        session.send("go depth 1");
        session.send("go perft 0 fuzz-marker");
        std::string last_bestmove;
        for (const auto& line : session.until([](const std::string& l) { return l.find("fuzz-marker") != l.npos; }))
            if (is_bestmove(line)) last_bestmove = line;
        CHECK(session.until_prefix("nodes ") == std::vector<std::string>{"nodes 1"});
        REQUIRE_FALSE(last_bestmove.empty());
        check_legal(session, engine.position, move_of(last_bestmove));
        session.send("quit");
        REQUIRE(session.process().wait_for_exit(EngineSession::patience));
        CHECK(session.process().exit_status() == std::optional<int>(0));
    }
}
