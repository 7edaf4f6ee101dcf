// EngineProcess against real child processes: small shell scripts stand in for engines that
// answer, crash, hang, flood, or never read their input.

#include "protocol/engine_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>

using namespace std::chrono_literals;
using bge::protocol::EngineProcess;
using bge::protocol::ProcessOptions;
using bge::protocol::ReadResult;
using bge::protocol::ReadStatus;
using Catch::Matchers::Contains;
using Clock = std::chrono::steady_clock;

namespace {

std::string fixture(const std::string& name) { return std::string(BGE_TEST_FIXTURES_DIR) + "/" + name; }

ProcessOptions shell(std::string script) {
    ProcessOptions options;
    options.command = "/bin/sh";
    options.arguments = {"-c", std::move(script)};
    return options;
}

ProcessOptions fixture_engine(const std::string& name, std::vector<std::string> arguments = {}) {
    ProcessOptions options;
    options.command = fixture(name);
    options.arguments = std::move(arguments);
    return options;
}

// Generous: only a broken implementation waits this long.
constexpr auto patience = 5s;

std::string next_line(EngineProcess& engine) {
    const ReadResult result = engine.read_line(patience);
    REQUIRE(result.status == ReadStatus::line);
    return result.line;
}

void require_closed(EngineProcess& engine) {
    const ReadResult result = engine.read_line(patience);
    CHECK(result.line.empty());
    REQUIRE(result.status == ReadStatus::closed);
}

// True once pid names no live process: gone, or a zombie left for init to reap.
bool process_gone(int pid) {
    std::ifstream stat_file("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    if (!std::getline(stat_file, stat)) return true;
    const auto name_end = stat.rfind(')');
    return name_end != std::string::npos && name_end + 2 < stat.size() && stat[name_end + 2] == 'Z';
}

bool becomes_gone(int pid) {
    const auto deadline = Clock::now() + patience;
    while (!process_gone(pid)) {
        if (Clock::now() > deadline) return false;
        std::this_thread::sleep_for(1ms);
    }
    return true;
}

// A file path in the temporary directory, removed again when the test ends.
class TemporaryFile {
public:
    explicit TemporaryFile(const std::string& contents, std::filesystem::perms permissions) {
        std::string pattern = (std::filesystem::temp_directory_path() / "engine_process_test_XXXXXX").string();
        const int fd = ::mkstemp(pattern.data());
        REQUIRE(fd >= 0);
        ::close(fd);
        path_ = pattern;
        std::ofstream(path_, std::ios::binary) << contents;
        std::filesystem::permissions(path_, permissions);
    }
    ~TemporaryFile() { std::filesystem::remove(path_); }
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;

    const std::string& path() const { return path_; }
    std::string contents() const {
        std::ifstream file(path_, std::ios::binary);
        return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    }

private:
    std::string path_;
};

template <class Duration>
long long in_ms(Duration duration) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(duration).count();
}

volatile sig_atomic_t alarms_seen = 0;
extern "C" void count_alarm(int) { alarms_seen = alarms_seen + 1; }

}  // namespace

TEST_CASE("EngineProcess: lines go to the engine and its answers come back", "[engine_process]") {
    EngineProcess engine;
    REQUIRE(engine.start(fixture_engine("echo_engine.sh")));
    CHECK(engine.running());
    CHECK(engine.pid() > 0);
    CHECK_FALSE(engine.exit_status());

    REQUIRE(engine.write_line("uci"));
    CHECK(next_line(engine) == "got uci");
    REQUIRE(engine.write_line("position startpos moves  e2e4 "));
    REQUIRE(engine.write_line(""));
    CHECK(next_line(engine) == "got position startpos moves  e2e4 ");
    CHECK(next_line(engine) == "got ");

    REQUIRE(engine.write_line("quit"));
    require_closed(engine);
    REQUIRE(engine.wait_for_exit(patience));
    CHECK_FALSE(engine.running());
    CHECK(engine.exit_status() == 0);
    require_closed(engine);  // stays closed
}

TEST_CASE("EngineProcess: close_input gives the engine end of input", "[engine_process]") {
    EngineProcess engine;
    REQUIRE(engine.start(fixture_engine("echo_engine.sh")));
    REQUIRE(engine.write_line("last"));
    engine.close_input();
    CHECK(next_line(engine) == "got last");
    require_closed(engine);
    REQUIRE(engine.wait_for_exit(patience));
    CHECK(engine.exit_status() == 0);
    CHECK_FALSE(engine.write_line("too late"));
}

TEST_CASE("EngineProcess: line endings and empty lines and NUL bytes and an unterminated last line",
          "[engine_process]") {
    EngineProcess engine;
    REQUIRE(engine.start(shell(R"(printf 'one\r\ntwo\n\r\n\nn\000l\nbestmove a1')")));
    CHECK(next_line(engine) == "one");
    CHECK(next_line(engine) == "two");
    CHECK(next_line(engine) == "");
    CHECK(next_line(engine) == "");
    CHECK(next_line(engine) == std::string("n\0l", 3));
    CHECK(next_line(engine) == "bestmove a1");
    require_closed(engine);
}

TEST_CASE("EngineProcess: a partial line stays buffered across reads", "[engine_process]") {
    EngineProcess engine;
    REQUIRE(engine.start(shell("printf 'best'; sleep 0.3; printf 'move a1\\nnext\\n'; sleep 1000")));
    const ReadResult early = engine.read_line(50ms);
    CHECK(early.status == ReadStatus::timeout);
    CHECK(early.line.empty());
    CHECK(next_line(engine) == "bestmove a1");
    CHECK(next_line(engine) == "next");
}

TEST_CASE("EngineProcess: read timeouts are kept", "[engine_process]") {
    EngineProcess engine;
    REQUIRE(engine.start(shell("exec sleep 1000")));

    for (const auto timeout : {0ms, 20ms, 200ms}) {
        const auto started = Clock::now();
        const ReadResult result = engine.read_line(timeout);
        const auto elapsed = Clock::now() - started;
        CHECK(result.status == ReadStatus::timeout);
        CHECK(elapsed >= timeout);
        CHECK(elapsed < timeout + 500ms);
    }

    const auto started = Clock::now();
    CHECK(engine.read_line_until(Clock::now() + 150ms).status == ReadStatus::timeout);
    CHECK(Clock::now() - started >= 150ms);
    CHECK(engine.read_line_until(Clock::now() - 1s).status == ReadStatus::timeout);
    CHECK(Clock::now() - started < 650ms);
    CHECK(engine.running());
}

TEST_CASE("EngineProcess: a zero timeout still returns output that is already there", "[engine_process]") {
    EngineProcess engine;
    REQUIRE(engine.start(shell("echo first; echo second")));
    REQUIRE(engine.wait_for_exit(patience));  // both lines now sit in the pipe, none read yet
    CHECK(engine.read_line(0ms).line == "first");
    CHECK(engine.read_line(0ms).line == "second");
    CHECK(engine.read_line(0ms).status == ReadStatus::closed);
}

TEST_CASE("EngineProcess: signals interrupting the wait neither end it early nor stretch it", "[engine_process]") {
    EngineProcess engine;
    REQUIRE(engine.start(shell("exec sleep 1000")));

    struct sigaction alarm_action {};
    alarm_action.sa_handler = count_alarm;  // no SA_RESTART: every alarm interrupts ppoll
    sigemptyset(&alarm_action.sa_mask);
    struct sigaction previous_action {};
    REQUIRE(::sigaction(SIGALRM, &alarm_action, &previous_action) == 0);
    const itimerval every_5ms{{0, 5000}, {0, 5000}};
    itimerval previous_timer{};
    REQUIRE(::setitimer(ITIMER_REAL, &every_5ms, &previous_timer) == 0);
    alarms_seen = 0;

    const auto started = Clock::now();
    const ReadResult result = engine.read_line(200ms);
    const auto elapsed = Clock::now() - started;
    const bool exited = engine.wait_for_exit(50ms);

    const itimerval off{};
    ::setitimer(ITIMER_REAL, &off, nullptr);
    ::sigaction(SIGALRM, &previous_action, nullptr);

    CHECK(alarms_seen > 10);
    CHECK(result.status == ReadStatus::timeout);
    CHECK(elapsed >= 200ms);
    CHECK(elapsed < 700ms);
    CHECK_FALSE(exited);
}

TEST_CASE("EngineProcess: an engine that exits or crashes reads as closed and leaves its status", "[engine_process]") {
    SECTION("exit code") {
        EngineProcess engine;
        REQUIRE(engine.start(shell("echo bye; exit 3")));
        CHECK(next_line(engine) == "bye");
        require_closed(engine);
        REQUIRE(engine.wait_for_exit(patience));
        CHECK(engine.exit_status() == 3);
        CHECK_FALSE(engine.running());
    }
    SECTION("killed by a signal") {
        EngineProcess engine;
        REQUIRE(engine.start(shell("echo info string about to crash; kill -9 $$; echo unreachable")));
        CHECK(next_line(engine) == "info string about to crash");
        require_closed(engine);
        REQUIRE(engine.wait_for_exit(patience));
        CHECK(engine.exit_status() == -SIGKILL);
    }
    SECTION("dies at startup without reading its input") {
        EngineProcess engine;
        REQUIRE(engine.start(shell("exit 0")));
        require_closed(engine);
        REQUIRE(engine.wait_for_exit(patience));
        CHECK(engine.exit_status() == 0);
    }
}

TEST_CASE("EngineProcess: start failures are reported by start itself", "[engine_process]") {
    EngineProcess engine;
    ProcessOptions options;

    SECTION("no such file") {
        options.command = "/nonexistent/bge/engine";
        CHECK_FALSE(engine.start(options));
        CHECK_THAT(engine.error(), Contains("/nonexistent/bge/engine"));
        CHECK_THAT(engine.error(), Contains("No such file"));
    }
    SECTION("not in PATH") {
        options.command = "bge-no-such-engine-anywhere";
        CHECK_FALSE(engine.start(options));
        CHECK_THAT(engine.error(), Contains("bge-no-such-engine-anywhere"));
        CHECK_THAT(engine.error(), Contains("PATH"));
    }
    SECTION("not executable") {
        const TemporaryFile script("#!/bin/sh\necho hello\n",
                                   std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
        options.command = script.path();
        CHECK_FALSE(engine.start(options));
        CHECK_THAT(engine.error(), Contains(script.path()));
        CHECK_THAT(engine.error(), Contains("Permission denied"));
    }
    SECTION("a script without #!") {
        const TemporaryFile script("echo hello\n", std::filesystem::perms::owner_all);
        options.command = script.path();
        CHECK_FALSE(engine.start(options));
        CHECK_THAT(engine.error(), Contains(script.path()));
        CHECK_THAT(engine.error(), Contains("#!"));
    }
    SECTION("bad working directory") {
        options = fixture_engine("echo_engine.sh");
        options.working_directory = "/nonexistent/bge/directory";
        CHECK_FALSE(engine.start(options));
        CHECK_THAT(engine.error(), Contains("/nonexistent/bge/directory"));
    }
    SECTION("unopenable stderr file") {
        options = fixture_engine("echo_engine.sh");
        options.stderr_path = "/nonexistent/bge/engine.log";
        CHECK_FALSE(engine.start(options));
        CHECK_THAT(engine.error(), Contains("/nonexistent/bge/engine.log"));
    }
    SECTION("no command") {
        CHECK_FALSE(engine.start(options));
        CHECK_FALSE(engine.error().empty());
    }

    CHECK_FALSE(engine.running());
    CHECK(engine.pid() == -1);
    CHECK_FALSE(engine.exit_status());
    CHECK_FALSE(engine.write_line("uci"));
    CHECK(engine.read_line(0ms).status == ReadStatus::closed);
    CHECK_FALSE(engine.wait_for_exit(0ms));
    engine.kill();
}

TEST_CASE("EngineProcess: PATH lookup and arguments and working directory", "[engine_process]") {
    ProcessOptions options;
    options.command = "sh";
    options.arguments = {"-c", "pwd -P; printf '[%s]\\n' \"$@\"", "argv0", "two words", ""};
    options.working_directory = BGE_TEST_FIXTURES_DIR;
    EngineProcess engine;
    REQUIRE(engine.start(options));
    CHECK(next_line(engine) == std::filesystem::canonical(BGE_TEST_FIXTURES_DIR).string());
    CHECK(next_line(engine) == "[two words]");
    CHECK(next_line(engine) == "[]");
    require_closed(engine);
}

TEST_CASE("EngineProcess: the engine inherits no ignored or blocked signals and no stray descriptors",
          "[engine_process]") {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    struct sigaction previous_sigpipe {
    }, previous_sigint{};
    REQUIRE(::sigaction(SIGPIPE, &ignore, &previous_sigpipe) == 0);
    REQUIRE(::sigaction(SIGINT, &ignore, &previous_sigint) == 0);
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigset_t previous_mask;
    pthread_sigmask(SIG_BLOCK, &usr1, &previous_mask);
    const int stray = ::open("/dev/null", O_RDONLY);  // deliberately without O_CLOEXEC

    EngineProcess engine;
    const bool started =
        engine.start(shell(fmt::format("[ -e /proc/$$/fd/{} ] && echo leaked || echo clean; "
                                       "exec grep -E '^(SigBlk|SigIgn)' /proc/self/status",
                                       stray)));

    ::close(stray);
    pthread_sigmask(SIG_SETMASK, &previous_mask, nullptr);
    ::sigaction(SIGINT, &previous_sigint, nullptr);
    ::sigaction(SIGPIPE, &previous_sigpipe, nullptr);

    REQUIRE(stray > 2);
    REQUIRE(started);
    CHECK(next_line(engine) == "clean");
    CHECK(next_line(engine) == "SigBlk:\t0000000000000000");
    CHECK(next_line(engine) == "SigIgn:\t0000000000000000");
    require_closed(engine);
}

TEST_CASE("EngineProcess: over-long lines are cut and the next line survives", "[engine_process]") {
    SECTION("small limit, every boundary") {
        EngineProcess engine;
        engine.set_max_line_length(4);
        REQUIRE(engine.start(shell(R"(printf 'abc\r\nabcd\nabcd\r\nabcde\nabcdefghijkl\r\n\r\nwxyz!\r\nend\n')")));
        CHECK(next_line(engine) == "abc");
        CHECK(next_line(engine) == "abcd");
        CHECK(next_line(engine) == "abcd");
        CHECK(next_line(engine) == "abcd");
        CHECK(next_line(engine) == "abcd");
        CHECK(next_line(engine) == "");
        CHECK(next_line(engine) == "wxyz");
        CHECK(next_line(engine) == "end");
        require_closed(engine);
    }
    SECTION("default limit, line arriving over many reads") {
        EngineProcess engine;
        REQUIRE(engine.start(fixture_engine("long_line_engine.sh", {"3000000"})));
        const std::string line = next_line(engine);
        CHECK(line.size() == EngineProcess::default_max_line_length);
        CHECK(line.find_first_not_of('x') == std::string::npos);
        CHECK(next_line(engine) == "after");
        require_closed(engine);
    }
    SECTION("a line that fits, with its \"\\r\\n\" split across reads at the limit") {
        EngineProcess engine;
        engine.set_max_line_length(4);
        REQUIRE(engine.start(shell(R"(printf 'abc\r'; sleep 0.2; printf '\nnext\n')")));
        CHECK(next_line(engine) == "abc");
        CHECK(next_line(engine) == "next");
    }
    SECTION("a line that never ends is cut as soon as the limit is passed") {
        EngineProcess engine;
        engine.set_max_line_length(4);
        REQUIRE(engine.start(shell("printf 'abcdefgh'; exec sleep 1000")));
        CHECK(next_line(engine) == "abcd");
        CHECK(engine.read_line(50ms).status == ReadStatus::timeout);  // the rest is dropped
    }
}

TEST_CASE("EngineProcess: writing to a dead engine fails without SIGPIPE", "[engine_process]") {
    // Default SIGPIPE disposition, unblocked: if the write raised it, this test process would die.
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    struct sigaction previous_action {};
    REQUIRE(::sigaction(SIGPIPE, &default_action, &previous_action) == 0);
    sigset_t sigpipe_only;
    sigemptyset(&sigpipe_only);
    sigaddset(&sigpipe_only, SIGPIPE);
    sigset_t previous_mask;
    pthread_sigmask(SIG_UNBLOCK, &sigpipe_only, &previous_mask);

    EngineProcess engine;
    REQUIRE(engine.start(shell("exit 0")));
    REQUIRE(engine.wait_for_exit(patience));
    CHECK_FALSE(engine.write_line("isready"));
    CHECK_THAT(engine.error(), Contains("/bin/sh"));
    CHECK_FALSE(engine.write_line("isready"));

    sigset_t pending;
    sigpending(&pending);
    CHECK_FALSE(sigismember(&pending, SIGPIPE));
    pthread_sigmask(SIG_SETMASK, &previous_mask, nullptr);
    ::sigaction(SIGPIPE, &previous_action, nullptr);
}

TEST_CASE("EngineProcess: an engine that does not read its input cannot block a write", "[engine_process]") {
    EngineProcess engine;
    engine.set_write_timeout(100ms);
    REQUIRE(engine.start(shell("exec sleep 1000")));
    const std::string chunk(4096, 'x');
    bool failed = false;
    Clock::duration failing_call{};
    for (int i = 0; i < 4000 && !failed; ++i) {  // far more than any pipe holds
        const auto started = Clock::now();
        failed = !engine.write_line(chunk);
        failing_call = Clock::now() - started;
    }
    REQUIRE(failed);
    CHECK(failing_call >= 100ms);
    CHECK(failing_call < 600ms);
    CHECK_THAT(engine.error(), Contains("not read"));
    CHECK(engine.running());
}

TEST_CASE("EngineProcess: a write that timed out is completed later and never torn", "[engine_process]") {
    EngineProcess engine;
    engine.set_write_timeout(50ms);
    // Reads nothing for a while, then reports the length of every line it gets.
    REQUIRE(engine.start(shell(R"(sleep 0.3; while IFS= read -r l; do echo "${#l}"; done)")));
    const std::string chunk(4096, 'x');
    int whole_lines = 0;
    while (engine.write_line(chunk)) {
        ++whole_lines;
        REQUIRE(whole_lines < 4000);
    }
    engine.set_write_timeout(5s);
    REQUIRE(engine.write_line("end"));
    engine.close_input();
    for (int i = 0; i <= whole_lines; ++i) REQUIRE(next_line(engine) == "4096");
    CHECK(next_line(engine) == "3");
    require_closed(engine);
}

TEST_CASE("EngineProcess: kill ends a hung engine at once", "[engine_process]") {
    EngineProcess engine;
    engine.kill();  // nothing started: harmless
    REQUIRE(engine.start(shell("exec sleep 1000")));
    const int pid = engine.pid();
    const auto started = Clock::now();
    engine.kill();
    CHECK(Clock::now() - started < 500ms);
    CHECK_FALSE(engine.running());
    CHECK(engine.exit_status() == -SIGKILL);
    errno = 0;
    CHECK(::kill(pid, 0) == -1);  // reaped: the pid is gone
    CHECK(errno == ESRCH);
    engine.kill();  // twice: harmless
    CHECK(engine.exit_status() == -SIGKILL);
    CHECK(engine.wait_for_exit(0ms));
    require_closed(engine);
}

TEST_CASE("EngineProcess: helpers the engine started die with it", "[engine_process]") {
    SECTION("on kill") {
        EngineProcess engine;
        REQUIRE(engine.start(fixture_engine("spawning_engine.sh", {"hang"})));
        const std::string announcement = next_line(engine);
        REQUIRE(announcement.rfind("helper ", 0) == 0);
        const int helper = std::stoi(announcement.substr(7));
        CHECK_FALSE(process_gone(helper));
        engine.kill();
        CHECK(becomes_gone(helper));
        require_closed(engine);
    }
    SECTION("when the engine exits and leaves a helper holding its stdout") {
        EngineProcess engine;
        REQUIRE(engine.start(fixture_engine("spawning_engine.sh", {"exit"})));
        const std::string announcement = next_line(engine);
        REQUIRE(announcement.rfind("helper ", 0) == 0);
        const int helper = std::stoi(announcement.substr(7));
        REQUIRE(engine.wait_for_exit(patience));
        CHECK(engine.exit_status() == 0);
        CHECK(becomes_gone(helper));
        require_closed(engine);
    }
}

TEST_CASE("EngineProcess: stderr_path collects the engine's stderr", "[engine_process]") {
    const TemporaryFile log("previous run\n", std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    ProcessOptions options = shell("echo 'diagnostic: hello' >&2; echo done");
    options.stderr_path = log.path();
    EngineProcess engine;
    REQUIRE(engine.start(options));
    CHECK(next_line(engine) == "done");  // stdout stays the protocol channel
    require_closed(engine);
    REQUIRE(engine.wait_for_exit(patience));
    CHECK(log.contents() == "previous run\ndiagnostic: hello\n");
}

TEST_CASE("EngineProcess: start while running fails and the object can be reused after", "[engine_process]") {
    EngineProcess engine;
    REQUIRE(engine.start(fixture_engine("echo_engine.sh")));
    CHECK_FALSE(engine.start(shell("exit 0")));
    CHECK_THAT(engine.error(), Contains("still running"));
    REQUIRE(engine.write_line("ping"));
    CHECK(next_line(engine) == "got ping");

    engine.kill();
    REQUIRE(engine.start(shell("echo again; exit 5")));
    CHECK(engine.error().empty());
    CHECK(next_line(engine) == "again");
    require_closed(engine);
    REQUIRE(engine.wait_for_exit(patience));
    CHECK(engine.exit_status() == 5);
}

TEST_CASE("EngineProcess: moving hands the child over and destruction kills it", "[engine_process]") {
    EngineProcess first;
    REQUIRE(first.start(fixture_engine("echo_engine.sh")));
    EngineProcess second(std::move(first));
    CHECK(first.pid() == -1);
    CHECK_FALSE(first.running());
    REQUIRE(second.write_line("moved"));
    CHECK(next_line(second) == "got moved");

    int replaced_pid = -1;
    {
        EngineProcess third;
        REQUIRE(third.start(shell("exec sleep 1000")));
        replaced_pid = third.pid();
        third = std::move(second);  // the sleeping child is killed and reaped here
        CHECK(::kill(replaced_pid, 0) == -1);
        REQUIRE(third.write_line("again"));
        CHECK(next_line(third) == "got again");
        replaced_pid = third.pid();
    }
    errno = 0;
    CHECK(::kill(replaced_pid, 0) == -1);  // the destructor killed and reaped the echo engine
    CHECK(errno == ESRCH);
}
