// Threads, through every engine's pipes and inside the shared search: the Threads and Hash options
// every engine declares alike, multi-threaded searches that return a legal move and stop at once,
// pbrain's INFO thread_num, and the lockless transposition table under concurrent use. Built
// alone (`--target threads_tests`) for the ThreadSanitizer build (tools/setup.sh test-threads).

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "core/tak/notation.hpp"
#include "core/tak/tak.hpp"
#include "engine_session.hpp"
#include "engines/tak/evaluation.hpp"
#include "every_engine.hpp"
#include "protocol/search_options.hpp"
#include "search/alphabeta.hpp"
#include "search/transposition_table.hpp"

using namespace bge;
using namespace bge::testing;
using std::chrono::milliseconds;

namespace {

using Clock = std::chrono::steady_clock;

// ThreadSanitizer's instrumentation slows every memory access several times over, also the work
// between two looks at the stop flag: there the bound is four times as long. The plain and the
// AddressSanitizer builds hold the 50 ms.
#if defined(__SANITIZE_THREAD__)
constexpr milliseconds stop_bound{200};
#else
constexpr milliseconds stop_bound{50};
#endif

// The handshake and its answer, in the engine's first dialect.
std::pair<std::string, std::string> handshake(const Engine& engine) {
    if (engine.name == "tak") return {"tei", "teiok"};
    return {"ugi", "ugiok"};
}

std::vector<std::string> declarations(EngineSession& session, const Engine& engine) {
    const auto [hello, ok] = handshake(engine);
    session.send(hello);
    return session.until([&](const std::string& line) { return line == ok; });
}

// The players each engine searches with on several threads: its default and its alpha-beta.
std::vector<std::string> threaded_players(const Engine& engine) {
    if (engine.name == "tak") return {"alphabeta", "mcts"};
    if (engine.name == "gomoku") return {"puct", "alphabeta"};
    if (engine.name == "twixt") return {"mcts", "minimax"};
    if (engine.name == "expendibots") return {"alphabeta"};
    return {"td"};  // Ur's players search one thread: Threads is taken and changes nothing
}

// The engine's set-up, then `player` on `threads` threads with a small table.
void configure(EngineSession& session, const Engine& engine, const std::string& player, int threads) {
    start(session, engine);
    session.send("setoption name Player value " + player);
    session.send("setoption name Threads value " + std::to_string(threads));
    session.send("setoption name Hash value 16");
    CHECK(session.sync().empty());
}

// Starts `go infinite` in `position`, waits for the search to be under way, sends `stop` and
// returns how long the bestmove took to come.
milliseconds stop_latency(EngineSession& session, const Engine& engine) {
    session.send(engine.position);
    session.send("go infinite");
    std::this_thread::sleep_for(milliseconds(300));
    const auto sent = Clock::now();
    session.send("stop");
    const auto lines = session.until([](const std::string& line) { return is_bestmove(line); });
    const auto took = std::chrono::duration_cast<milliseconds>(Clock::now() - sent);
    check_legal(session, engine.position, move_of(lines.back()));
    return took;
}

}  // namespace

TEST_CASE("every engine declares Threads and Hash alike, and refuses a Hash beyond the machine's memory",
          "[threads][protocol]") {
    for (const auto& engine : engines()) {
        INFO(engine.name);
        EngineSession session(engine.binary);
        const auto lines = declarations(session, engine);
        const std::string hash_default = engine.name == "tak" ? "256" : "64";
        CHECK(std::count(lines.begin(), lines.end(), "option name Threads type spin default 1 min 1 max 256") == 1);
        CHECK(std::count(lines.begin(), lines.end(),
                         "option name Hash type spin default " + hash_default + " min 1 max 65536") == 1);
        CHECK(std::none_of(lines.begin(), lines.end(),
                           [](const std::string& line) { return line.find("MctsThreads") != std::string::npos; }));
        start(session, engine);
        session.send("setoption name Threads value 3");
        session.send("setoption name Hash value 2");
        CHECK(session.sync().empty());
        session.expect_error("setoption name Threads value 0", "Threads");
        session.expect_error("setoption name Threads value 257", "Threads");
        const std::int64_t memory = protocol::machine_memory_mib();
        if (memory > 0 && memory < 65536) {
            session.expect_error("setoption name Hash value 65536", "more than this machine's memory");
            // The engine kept its 2 MiB and still plays.
            session.send(engine.position);
            session.send("go movetime 100");
            check_legal(session, engine.position, move_of(session.until([](const auto& l) { return is_bestmove(l); }).back()));
        }
        session.finish();
    }
}

TEST_CASE("a 2-thread search returns a legal move in every game, with every threaded player", "[threads][protocol]") {
    for (const auto& engine : engines()) {
        for (const auto& player : threaded_players(engine)) {
            INFO(engine.name << " " << player);
            EngineSession session(engine.binary);
            configure(session, engine, player, 2);
            for (const std::string go : {"go movetime 300", "go nodes 3000", "go depth 3"}) {
                INFO(go);
                session.send(engine.position);
                session.send(go);
                const auto lines = session.until([](const std::string& line) { return is_bestmove(line); });
                check_legal(session, engine.position, move_of(lines.back()));
                session.send(engine.other);
                session.send(go);
                check_legal(session, engine.other,
                            move_of(session.until([](const std::string& line) { return is_bestmove(line); }).back()));
            }
            session.finish();
        }
    }
}

TEST_CASE("stop ends a 4-thread go infinite within 50 ms in every game", "[threads][protocol][stop]") {
    for (const auto& engine : engines()) {
        for (const auto& player : threaded_players(engine)) {
            INFO(engine.name << " " << player);
            EngineSession session(engine.binary);
            configure(session, engine, player, 4);
            // The best of three, so that a moment when the shared machine gives the engine no
            // core is not taken for a slow stop; a search that does not look at its stop flag
            // for 50 ms fails all three.
            milliseconds best = milliseconds::max();
            for (int attempt = 0; attempt < 3; ++attempt) best = std::min(best, stop_latency(session, engine));
            INFO("fastest stop: " << best.count() << " ms");
            CHECK(best < stop_bound);
            session.finish();
        }
    }
}

TEST_CASE("go nodes N counts the nodes of every thread", "[threads][protocol]") {
    EngineSession session(BGE_TAK_BINARY);
    session.send("teinewgame 6");
    session.send("setoption name Threads value 2");
    session.send("position startpos moves a1 f6 c3 d4");
    session.send("go nodes 40000");
    const auto lines = session.until([](const std::string& line) { return is_bestmove(line); });
    std::uint64_t last_nodes = 0;
    for (const auto& line : lines) {
        const auto words = words_of(line);
        const auto found = std::find(words.begin(), words.end(), "nodes");
        if (words.front() == "info" && found != words.end() && found + 1 != words.end())
            last_nodes = std::stoull(*(found + 1));
    }
    // The helper adds its nodes in batches of 128: a few batches over at most.
    CHECK(last_nodes > 0);
    CHECK(last_nodes <= 40000 + 4 * 128);
    session.finish();
}

TEST_CASE("pbrain: INFO thread_num sets Threads, and an out-of-range one is clamped with a MESSAGE",
          "[threads][protocol][pbrain]") {
    EngineSession session(BGE_GOMOKU_BINARY);
    session.send("START 15");
    CHECK(session.next() == "OK");
    session.send("INFO thread_num 2");
    session.send("INFO timeout_turn 300");
    session.send("BEGIN");
    const std::string first = session.until([](const std::string& line) { return line.rfind("MESSAGE", 0) != 0; }).back();
    CHECK(std::count(first.begin(), first.end(), ',') == 1);
    session.send("INFO thread_num 1000");
    CHECK(session.next() == "MESSAGE INFO thread_num 1000 is out of range (1 to 256); using 256");
    session.send("INFO thread_num 2");
    session.send("TURN 0,0");
    const std::string second = session.until([](const std::string& line) { return line.rfind("MESSAGE", 0) != 0; }).back();
    CHECK(std::count(second.begin(), second.end(), ',') == 1);
    session.send("END");
    session.finish();
}

TEST_CASE("alpha-beta on several threads: a legal move, every thread's nodes counted, stop at once",
          "[threads][search]") {
    using tak::Tak;
    tak::Variant variant;
    variant.size = 5;
    auto root = Tak::start_state(variant);
    for (const char* text : {"a1", "e5", "c3", "c2", "d3"}) {
        const auto move = tak::parse_move(root, text);
        REQUIRE(move);
        Tak::play(root, *move);
    }
    search::AlphaBeta<Tak, tak::TakEvaluator> search(tak::TakEvaluator{}, 8);
    search.settings().null_move = true;
    search.set_threads(2);
    REQUIRE(search.threads() == 2);

    search::SearchRequest<Tak> request;
    request.root = root;
    request.limits.depth = 6;
    search::SearchControl<Tak> control;
    int deepest = 0;
    control.report = [&](const search::Report<Tak>& report) { deepest = std::max(deepest, report.depth); };
    const auto result = search.search(request, control);
    REQUIRE(result.has_move);
    MoveList<Tak> legal;
    Tak::generate_moves(root, legal);
    CHECK(std::find(legal.begin(), legal.end(), result.best) != legal.end());
    CHECK(deepest >= 6);

    // A node limit bounds both threads together.
    request.limits = {};
    request.limits.nodes = 30000;
    const auto limited = search.search(request, search::SearchControl<Tak>{});
    CHECK(limited.has_move);
    CHECK(limited.nodes <= 30000 + 2 * 256);

    // Four threads with no limit end within 50 ms of the stop flag (the best of three).
    search.set_threads(4);
    auto best = milliseconds::max();
    for (int attempt = 0; attempt < 3; ++attempt) {
        std::atomic<bool> stop{false};
        search::SearchControl<Tak> stoppable;
        stoppable.stop = &stop;
        request.limits = {};
        request.limits.infinite = true;
        request.start = search::Clock::now();
        Clock::time_point stopped_at;
        std::jthread stopper([&] {
            std::this_thread::sleep_for(milliseconds(200));
            stopped_at = Clock::now();
            stop = true;
        });
        const auto found = search.search(request, stoppable);
        const auto ended = Clock::now();
        stopper.join();
        CHECK(found.has_move);
        best = std::min(best, std::chrono::duration_cast<milliseconds>(ended - stopped_at));
    }
    INFO("fastest stop: " << best.count() << " ms");
    CHECK(best < stop_bound);

    // Back to one thread: the search is the single-threaded one again, node for node.
    search.set_threads(1);
    search.clear();
    request.limits = {};
    request.limits.depth = 5;
    const auto once = search.search(request, search::SearchControl<Tak>{});
    search.clear();
    const auto again = search.search(request, search::SearchControl<Tak>{});
    CHECK(once.nodes == again.nodes);
    CHECK(once.best == again.best);
}

TEST_CASE("the transposition table under concurrent writers never returns a torn entry", "[threads][search]") {
    // Every key stores a score and a move derived from it; readers racing with writers on the
    // same few buckets may miss, but whatever they find must belong to the key they probed.
    using Table = search::TranspositionTable<tak::Move>;
    Table table(1);
    auto score_of = [](std::uint64_t key) { return static_cast<int>(key % 100'000) - 50'000; };
    auto move_of_key = [](std::uint64_t key) { return tak::Move{static_cast<std::uint16_t>(key >> 48)}; };
    std::atomic<int> torn{0};
    std::atomic<int> hits{0};
    {
        std::vector<std::jthread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                std::uint64_t state = 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(t + 1);
                for (int i = 0; i < 200'000; ++i) {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    // 4096 keys in 64 buckets, so that writers collide all the time.
                    const std::uint64_t n = state % 4096;
                    const std::uint64_t key = ((n + 1) * 0xD6E8FEB86659FD93ULL & ~std::uint64_t{63}) | (n & 63);
                    if (i % 2 == 0) {
                        table.store(key, static_cast<int>(key % 50), score_of(key), search::Bound::exact,
                                    move_of_key(key), 0);
                    } else if (const auto entry = table.probe(key)) {
                        ++hits;
                        if (entry->score != score_of(key) || !(entry->move == move_of_key(key)) ||
                            entry->depth != key % 50)
                            ++torn;
                    }
                }
            });
    }
    CHECK(torn == 0);
    CHECK(hits > 0);
}
