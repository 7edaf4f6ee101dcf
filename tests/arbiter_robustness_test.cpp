// The arbiter against broken engines (the fake engines in tests/fixtures) and against SIGINT:
// every game still gets a result with the right reason, the arbiter never hangs, and an
// interrupted match resumes to exactly the scheduled games.

#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "protocol/engine_process.hpp"
#include "tools/arbiter/results_file.hpp"

using namespace bge;
namespace fs = std::filesystem;

namespace {

const std::string tak_binary = BGE_TAK_BINARY;
const std::string fixtures = BGE_TEST_FIXTURES_DIR;
const std::string arbiter_binary = BGE_ARBITER_BINARY;

class ScratchDirectory {
public:
    ScratchDirectory()
        : path_(fs::temp_directory_path() / ("bge_arbiter_robustness_test_" + std::to_string(::getpid()))) {
        fs::create_directories(path_);
    }
    ~ScratchDirectory() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

const ScratchDirectory& scratch() {
    static const ScratchDirectory directory;
    return directory;
}

std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

using Clock = std::chrono::steady_clock;

// One run of the arbiter binary. `interrupt_when`, if given, is asked after every stdout line
// and every 100 ms; once it says so, the arbiter gets one SIGINT.
struct Run {
    int status = -1;
    std::vector<std::string> lines;  // stdout
    std::string errors;              // stderr
    std::chrono::milliseconds took{0};

    bool has_line(const std::string& line) const {
        for (const auto& l : lines)
            if (l == line) return true;
        return false;
    }
    int count_prefix(const std::string& prefix) const {
        int count = 0;
        for (const auto& l : lines) count += l.rfind(prefix, 0) == 0;
        return count;
    }
};

template <class InterruptWhen>
Run run_arbiter(const std::vector<std::string>& arguments, InterruptWhen interrupt_when) {
    static int runs = 0;
    const std::string errors_file = scratch().file("stderr_" + std::to_string(++runs));
    protocol::EngineProcess process;
    protocol::ProcessOptions options;
    options.command = arbiter_binary;
    options.arguments = arguments;
    options.stderr_path = errors_file;
    const auto start = Clock::now();
    REQUIRE(process.start(options));
    Run run;
    bool interrupted = false;
    const auto deadline = start + std::chrono::seconds(60);
    for (;;) {
        if (!interrupted && interrupt_when(run, Clock::now() - start)) {
            REQUIRE(::kill(process.pid(), SIGINT) == 0);
            interrupted = true;
        }
        auto read = process.read_line_until(std::min(deadline, Clock::now() + std::chrono::milliseconds(100)));
        if (read.status == protocol::ReadStatus::timeout) {
            REQUIRE(Clock::now() < deadline);
            continue;
        }
        if (read.status == protocol::ReadStatus::closed) break;
        run.lines.push_back(read.line);
    }
    REQUIRE(process.wait_for_exit(std::chrono::seconds(10)));
    run.status = process.exit_status().value_or(-1);
    run.took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    run.errors = read_file(errors_file);
    return run;
}

Run run_arbiter(const std::vector<std::string>& arguments) {
    return run_arbiter(arguments, [](const Run&, Clock::duration) { return false; });
}

std::string transcript(const Run& run) {
    std::string text = fmt::format("status {}, {} ms\n", run.status, run.took.count());
    for (const auto& line : run.lines) text += line + "\n";
    return text + "stderr:\n" + run.errors;
}

// A broken engine (first, named `name`) against tak, on 5x5.
std::vector<std::string> against_tak(const std::string& fixture, const std::string& name,
                                     const std::vector<std::string>& extra) {
    std::vector<std::string> arguments = {"-size", "5", "-engine", "cmd=" + fixtures + "/" + fixture, "name=" + name};
    if (fixture == "arbiter_slow_engine.sh") arguments.push_back("args=" + tak_binary);
    arguments.insert(arguments.end(),
                     {"-engine", "cmd=" + tak_binary, "name=tak", "-each", "stderr=/dev/null", "option.Hash=1"});
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
}

}  // namespace

TEST_CASE("arbiter robustness: junk around the search and after bestmove is an illegal move", "[robustness]") {
    const Run run = run_arbiter(against_tak("arbiter_garbage_engine.sh", "garbage", {"nodes=500"}));
    INFO(transcript(run));
    CHECK(run.status == 0);
    CHECK(run.has_line("Finished game 1 (garbage vs tak): 0-1 {White makes an illegal move: @junk%&*}"));
    CHECK(run.has_line("Finished game 2 (tak vs garbage): 1-0 {Black makes an illegal move: @junk%&*}"));
    CHECK(run.has_line("Score of garbage vs tak: 0 - 2 - 0  [0.000] 2"));
    CHECK(run.lines.back() == "Finished match");
}

TEST_CASE("arbiter robustness: an engine whose bestmove comes too late loses on time and the match goes on",
          "[robustness]") {
    // The slow engine answers after ~1.5 s with 1 s on its clock. Its late bestmove normally
    // arrives within the 1 s the arbiter waits after `stop`; -recover keeps the match going even
    // if a loaded machine delays it past that and the engine has to be killed and restarted.
    const Run run = run_arbiter(against_tak("arbiter_slow_engine.sh", "slow", {"tc=1+0.01", "-recover"}));
    INFO(transcript(run));
    CHECK(run.status == 0);
    CHECK(run.has_line("Finished game 1 (slow vs tak): 0-1 {White loses on time}"));
    CHECK(run.has_line("Finished game 2 (tak vs slow): 1-0 {Black loses on time}"));
    CHECK(run.has_line("Score of slow vs tak: 0 - 2 - 0  [0.000] 2"));
    CHECK(run.lines.back() == "Finished match");
    CHECK(run.took < std::chrono::seconds(10));
}

TEST_CASE("arbiter robustness: an engine that dies at startup loses every game by disconnect", "[robustness]") {
    SECTION("with -recover every scheduled game is played") {
        const Run run =
            run_arbiter(against_tak("arbiter_dead_engine.sh", "dead", {"nodes=300", "-rounds", "2", "-recover"}));
        INFO(transcript(run));
        CHECK(run.status == 0);
        CHECK(run.has_line("Finished game 1 (dead vs tak): 0-1 {White disconnects}"));
        CHECK(run.has_line("Finished game 2 (tak vs dead): 1-0 {Black disconnects}"));
        CHECK(run.has_line("Finished game 3 (dead vs tak): 0-1 {White disconnects}"));
        CHECK(run.has_line("Finished game 4 (tak vs dead): 1-0 {Black disconnects}"));
        CHECK(run.count_prefix("Finished game") == 4);
        CHECK(run.has_line("Score of dead vs tak: 0 - 4 - 0  [0.000] 4"));
        CHECK(run.lines.back() == "Finished match");
    }
    SECTION("without -recover the match stops after the first game and prints the summary") {
        const Run run = run_arbiter(against_tak("arbiter_dead_engine.sh", "dead", {"nodes=300", "-rounds", "2"}));
        INFO(transcript(run));
        CHECK(run.status == 1);
        CHECK(run.has_line("Finished game 1 (dead vs tak): 0-1 {White disconnects}"));
        CHECK(run.count_prefix("Finished game") == 1);
        CHECK(run.count_prefix("Started game 2") == 0);
        CHECK(run.has_line("Score of dead vs tak: 0 - 1 - 0  [0.000] 1"));
        CHECK(run.count_prefix("Elo difference: ") == 1);
        CHECK(run.lines.back() == "Finished match");
        CHECK_THAT(run.errors, Catch::Contains("dead"));
    }
}

TEST_CASE("arbiter robustness: SIGINT prints the summary and -resume plays the rest exactly once", "[robustness]") {
    const std::string state = scratch().file("interrupted.state"), results = scratch().file("interrupted.json");
    // 6 games of two plies at 0.3 s a move: a few seconds in all.
    const std::vector<std::string> arguments = {"-size",
                                                "4",
                                                "-engine",
                                                "cmd=" + tak_binary,
                                                "name=a",
                                                "-engine",
                                                "cmd=" + tak_binary,
                                                "name=b",
                                                "-each",
                                                "st=0.3",
                                                "stderr=/dev/null",
                                                "option.Hash=1",
                                                "-rounds",
                                                "3",
                                                "-games",
                                                "2",
                                                "-maxmoves",
                                                "1",
                                                "-state",
                                                state,
                                                "-jsonout",
                                                results};
    constexpr int scheduled = 6;

    // SIGINT after about a second, once at least one game has finished (so there is something
    // to resume from) but long before all six could have.
    const Run interrupted = run_arbiter(arguments, [](const Run& run, Clock::duration elapsed) {
        return elapsed >= std::chrono::seconds(1) && run.count_prefix("Finished game") >= 1;
    });
    INFO(transcript(interrupted));
    CHECK(interrupted.status == 130);
    REQUIRE_FALSE(interrupted.lines.empty());
    CHECK(interrupted.lines.back() == "Finished match");
    const int finished_before = interrupted.count_prefix("Finished game");
    REQUIRE(finished_before >= 1);
    REQUIRE(finished_before < scheduled);

    // The results file holds the games finished before the interrupt, each once.
    const auto games_in = [&](const std::string& path) {
        auto file = arbiter::read_results_file(path);
        INFO((file ? std::string() : file.error()));
        REQUIRE(file);
        CHECK(file->match.scheduled_games == scheduled);
        std::multiset<int> numbers;
        for (const auto& game : file->games) numbers.insert(game.scheduled.number);
        return numbers;
    };
    const std::multiset<int> before = games_in(results);
    CHECK(before.size() == static_cast<std::size_t>(finished_before));
    CHECK(std::set<int>(before.begin(), before.end()).size() == before.size());

    const Run resumed = run_arbiter({"-resume", state});
    INFO(transcript(resumed));
    CHECK(resumed.status == 0);
    CHECK_THAT(resumed.errors,
               Catch::Contains(fmt::format("resuming: {} of {} games already played", finished_before, scheduled)));
    CHECK(resumed.count_prefix("Finished game") == scheduled - finished_before);
    for (int number : before) CHECK(resumed.count_prefix(fmt::format("Finished game {} ", number)) == 0);
    CHECK(resumed.lines.back() == "Finished match");

    std::multiset<int> expected;
    for (int number = 1; number <= scheduled; ++number) expected.insert(number);
    CHECK(games_in(results) == expected);
}

namespace {

// The processes whose parent is `parent` (from /proc).
std::vector<int> children_of(int parent) {
    std::vector<int> children;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string text;
        std::getline(stat, text);
        // pid (comm) state ppid ...: the command may hold spaces, so read after its last ')'.
        const auto close = text.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(text.substr(close + 1));
        std::string state;
        int ppid = 0;
        rest >> state >> ppid;
        if (ppid == parent) children.push_back(std::stoi(name));
    }
    return children;
}

}  // namespace

TEST_CASE("arbiter robustness: stopped with its engines at once (scancel), it counts no disconnect", "[robustness]") {
    // A cluster's scancel, or a terminal's Ctrl-C, signals the engines as well as the arbiter.
    // Worst case: the engines die first. The game they were playing is abandoned, not lost.
    const std::string state = scratch().file("cancelled.state"), results = scratch().file("cancelled.json");
    const std::vector<std::string> arguments = {"-size", "4", "-engine", "cmd=" + tak_binary, "name=a", "-engine",
                                                "cmd=" + tak_binary, "name=b", "-each", "st=0.3", "stderr=/dev/null",
                                                "option.Hash=1", "-rounds", "3", "-games", "2", "-maxmoves", "1",
                                                "-state", state, "-jsonout", results};
    protocol::EngineProcess process;
    protocol::ProcessOptions options;
    options.command = arbiter_binary;
    options.arguments = arguments;
    options.stderr_path = scratch().file("cancelled.err");
    REQUIRE(process.start(options));
    int finished = 0;
    while (finished < 1) {
        const auto read = process.read_line(std::chrono::seconds(30));
        REQUIRE(read.status == protocol::ReadStatus::line);
        if (read.line.rfind("Finished game", 0) == 0) ++finished;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // into the next game
    const auto engines = children_of(process.pid());
    REQUIRE_FALSE(engines.empty());
    for (int engine : engines) ::kill(engine, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    REQUIRE(::kill(process.pid(), SIGTERM) == 0);
    while (process.read_line(std::chrono::seconds(30)).status == protocol::ReadStatus::line) {
    }
    REQUIRE(process.wait_for_exit(std::chrono::seconds(10)));
    CHECK(process.exit_status() == 130);
    auto file = arbiter::read_results_file(results);
    REQUIRE(file);
    CHECK_FALSE(file->games.empty());
    for (const auto& game : file->games) CHECK(game.termination != "disconnect");
}
