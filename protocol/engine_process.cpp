#include "protocol/engine_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <thread>
#include <utility>

#include <fmt/format.h>

extern char** environ;

namespace bge::protocol {

namespace {

using Clock = std::chrono::steady_clock;

std::string describe_errno(int error) { return std::error_code(error, std::system_category()).message(); }

void close_fd(int& fd) {
    if (fd >= 0) {
        ::close(fd);
        fd = -1;
    }
}

// Owns a descriptor while start() is assembling the child, so every early return cleans up.
class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : fd_(fd) {}
    ~UniqueFd() { reset(); }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    UniqueFd& operator=(UniqueFd&& other) noexcept {
        reset();
        fd_ = std::exchange(other.fd_, -1);
        return *this;
    }
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }
    void reset() { close_fd(fd_); }

private:
    int fd_ = -1;
};

// A parent started with stdin/stdout/stderr closed gets 0..2 for new descriptors. Keeping ours
// above 2 means the child's dup2 onto 0..2 can never overwrite one of its own sources.
// Returns 0 or an errno value.
int keep_above_standard_streams(UniqueFd& fd) {
    if (fd.get() > STDERR_FILENO) return 0;
    const int moved = ::fcntl(fd.get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    if (moved < 0) return errno;
    fd = UniqueFd(moved);
    return 0;
}

int make_pipe(UniqueFd& read_end, UniqueFd& write_end) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return errno;
    read_end = UniqueFd(fds[0]);
    write_end = UniqueFd(fds[1]);
    if (const int error = keep_above_standard_streams(read_end)) return error;
    return keep_above_standard_streams(write_end);
}

int set_nonblocking(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return errno;
    return 0;
}

std::optional<std::string> find_in_path(const std::string& name) {
    const char* path_variable = std::getenv("PATH");
    const std::string_view search_path = path_variable ? path_variable : "/usr/local/bin:/usr/bin:/bin";
    std::size_t begin = 0;
    while (begin <= search_path.size()) {
        const std::size_t end = std::min(search_path.find(':', begin), search_path.size());
        std::string directory(search_path.substr(begin, end - begin));
        if (directory.empty()) directory = ".";  // an empty PATH entry means the current directory
        std::string candidate = directory + "/" + name;
        struct stat info {};
        if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
            // The child may change directory before exec, so a relative PATH hit is pinned here.
            std::error_code ignored;
            const auto absolute = std::filesystem::absolute(candidate, ignored);
            return absolute.empty() ? candidate : absolute.string();
        }
        begin = end + 1;
    }
    return std::nullopt;
}

// Waits until fd reports one of `events`, an error or a hang-up (so the next read or write does
// not block), or until the deadline. ppoll takes a timespec: no rounding to whole milliseconds.
bool wait_for_fd(int fd, short events, Clock::time_point deadline) {
    for (;;) {
        const auto left = std::max<Clock::duration>(deadline - Clock::now(), Clock::duration::zero());
        const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(left);
        const auto nanoseconds = std::chrono::duration_cast<std::chrono::nanoseconds>(left - seconds);
        const timespec wait_time{static_cast<time_t>(seconds.count()), static_cast<long>(nanoseconds.count())};
        pollfd request{fd, events, 0};
        const int ready = ::ppoll(&request, 1, &wait_time, nullptr);
        if (ready > 0) return true;
        if (ready < 0 && errno != EINTR) return true;  // let the read or write report the error
        if (Clock::now() >= deadline) return false;
    }
}

// Blocks SIGPIPE for the calling thread only while we write, and swallows the SIGPIPE that a
// write to a broken pipe raises, so write() just fails with EPIPE. Nothing process-wide changes.
class SigpipeSuppressor {
public:
    SigpipeSuppressor() {
        sigemptyset(&sigpipe_);
        sigaddset(&sigpipe_, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &sigpipe_, &previous_mask_);
        sigset_t pending;
        sigemptyset(&pending);
        sigpending(&pending);
        // A SIGPIPE that was pending before is somebody else's: leave it alone.
        was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    }
    ~SigpipeSuppressor() {
        if (raised_ && !was_pending_) {
            const timespec no_wait{0, 0};
            while (sigtimedwait(&sigpipe_, nullptr, &no_wait) < 0 && errno == EINTR) {
            }
        }
        pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
    }
    SigpipeSuppressor(const SigpipeSuppressor&) = delete;
    SigpipeSuppressor& operator=(const SigpipeSuppressor&) = delete;

    void note_broken_pipe() { raised_ = true; }

private:
    sigset_t sigpipe_;
    sigset_t previous_mask_;
    bool was_pending_ = false;
    bool raised_ = false;
};

// What the child reports through the status pipe when it fails before exec.
enum class ChildStage : int { process_group, working_directory, redirect, exec };
struct ChildFailure {
    ChildStage stage;
    int error;
};

// Everything the child needs, prepared before fork: after fork in a possibly multithreaded
// parent, the child may only make async-signal-safe calls (no allocation, no locks).
struct ChildSetup {
    const char* path;
    char* const* argv;
    const char* working_directory;  // nullptr: inherit
    int stdin_fd;
    int stdout_fd;
    int stderr_fd;  // -1: inherit
    int status_fd;  // close-on-exec: EOF on its other end means exec succeeded
    int descriptor_limit;
};

[[noreturn]] void report_child_failure(int status_fd, ChildStage stage) {
    const ChildFailure failure{stage, errno};
    [[maybe_unused]] const ssize_t written = ::write(status_fd, &failure, sizeof failure);
    ::_exit(127);
}

[[noreturn]] void run_child(const ChildSetup& setup) {
    // The parent blocked all signals around fork; reset every disposition to the default before
    // unblocking, so no parent handler runs in here and the engine inherits no ignored signals.
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
        ::sigaction(signal_number, &default_action, nullptr);  // fails harmlessly for SIGKILL etc.
    }
    if (::setpgid(0, 0) != 0) report_child_failure(setup.status_fd, ChildStage::process_group);
    if (setup.working_directory && ::chdir(setup.working_directory) != 0) {
        report_child_failure(setup.status_fd, ChildStage::working_directory);
    }
    // Our descriptors are all above 2, so dup2 always makes a fresh, inheritable copy.
    if (::dup2(setup.stdin_fd, STDIN_FILENO) < 0 || ::dup2(setup.stdout_fd, STDOUT_FILENO) < 0 ||
        (setup.stderr_fd >= 0 && ::dup2(setup.stderr_fd, STDERR_FILENO) < 0)) {
        report_child_failure(setup.status_fd, ChildStage::redirect);
    }
    // Descriptors other code in the parent opened without O_CLOEXEC must not leak into the engine
    // (a leaked socket or pipe end would stay open as long as the engine runs).
    if (::close_range(STDERR_FILENO + 1, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
        for (int fd = STDERR_FILENO + 1; fd < setup.descriptor_limit; ++fd) {
            ::fcntl(fd, F_SETFD, FD_CLOEXEC);
        }
    }
    sigset_t nothing;
    sigemptyset(&nothing);
    ::sigprocmask(SIG_SETMASK, &nothing, nullptr);
    ::execve(setup.path, setup.argv, environ);
    report_child_failure(setup.status_fd, ChildStage::exec);
}

std::string describe_child_failure(const ProcessOptions& options, const std::string& path,
                                   const ChildFailure& failure) {
    const std::string program =
        path == options.command ? fmt::format("'{}'", path) : fmt::format("'{}' ({})", options.command, path);
    const std::string reason = describe_errno(failure.error);
    switch (failure.stage) {
        case ChildStage::process_group:
            return fmt::format("cannot start {}: cannot create its process group: {}", program, reason);
        case ChildStage::working_directory:
            return fmt::format("cannot start {}: cannot change to working directory '{}': {}", program,
                               options.working_directory, reason);
        case ChildStage::redirect:
            return fmt::format("cannot start {}: cannot set up its standard streams: {}", program, reason);
        case ChildStage::exec:
            break;
    }
    if (failure.error == ENOEXEC) {
        return fmt::format("cannot execute {}: {} (a script needs a '#!' first line)", program, reason);
    }
    return fmt::format("cannot execute {}: {}", program, reason);
}

int descriptor_limit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 1 << 16;
    return static_cast<int>(std::min<rlim_t>(limit.rlim_cur, INT_MAX));
}

}  // namespace

EngineProcess::~EngineProcess() {
    kill();
    close_fd(stdin_fd_);
    close_fd(stdout_fd_);
}

EngineProcess::EngineProcess(EngineProcess&& other) noexcept { swap(other); }

EngineProcess& EngineProcess::operator=(EngineProcess&& other) noexcept {
    if (this != &other) {
        EngineProcess taken(std::move(other));
        swap(taken);  // our old child dies with `taken`
    }
    return *this;
}

void EngineProcess::swap(EngineProcess& other) noexcept {
    using std::swap;
    swap(pid_, other.pid_);
    swap(reaped_, other.reaped_);
    swap(exit_status_, other.exit_status_);
    swap(stdin_fd_, other.stdin_fd_);
    swap(stdout_fd_, other.stdout_fd_);
    swap(command_, other.command_);
    swap(error_, other.error_);
    swap(pending_input_, other.pending_input_);
    swap(output_, other.output_);
    swap(line_start_, other.line_start_);
    swap(scanned_until_, other.scanned_until_);
    swap(discarding_, other.discarding_);
    swap(max_line_length_, other.max_line_length_);
    swap(write_timeout_, other.write_timeout_);
}

void EngineProcess::reset() {
    close_fd(stdin_fd_);
    close_fd(stdout_fd_);
    pid_ = -1;
    reaped_ = false;
    exit_status_.reset();
    command_.clear();
    error_.clear();
    pending_input_.clear();
    output_.clear();
    line_start_ = 0;
    scanned_until_ = 0;
    discarding_ = false;
}

bool EngineProcess::start(const ProcessOptions& options) {
    if (running()) {
        error_ = fmt::format("cannot start '{}': '{}' is still running", options.command, command_);
        return false;
    }
    reset();
    command_ = options.command;
    if (options.command.empty()) {
        error_ = "cannot start an engine: no command given";
        return false;
    }

    std::string path = options.command;
    if (path.find('/') == std::string::npos) {
        auto found = find_in_path(path);
        if (!found) {
            error_ = fmt::format("cannot start '{}': not found in PATH", options.command);
            return false;
        }
        path = std::move(*found);
    }

    std::vector<char*> argv;
    argv.reserve(options.arguments.size() + 2);
    argv.push_back(const_cast<char*>(options.command.c_str()));  // execve does not modify them
    for (const std::string& argument : options.arguments) argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);

    UniqueFd stderr_file;
    if (!options.stderr_path.empty()) {
        stderr_file = UniqueFd(::open(options.stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
        const int error = stderr_file.get() < 0 ? errno : keep_above_standard_streams(stderr_file);
        if (error != 0) {
            error_ = fmt::format("cannot start '{}': cannot open stderr file '{}': {}", options.command,
                                 options.stderr_path, describe_errno(error));
            return false;
        }
    }

    UniqueFd child_stdin, stdin_writer, stdout_reader, child_stdout, status_reader, status_writer;
    int error = make_pipe(child_stdin, stdin_writer);
    if (error == 0) error = make_pipe(stdout_reader, child_stdout);
    if (error == 0) error = make_pipe(status_reader, status_writer);
    if (error != 0) {
        error_ = fmt::format("cannot start '{}': cannot create pipes: {}", options.command, describe_errno(error));
        return false;
    }

    const ChildSetup setup{path.c_str(),
                           argv.data(),
                           options.working_directory.empty() ? nullptr : options.working_directory.c_str(),
                           child_stdin.get(),
                           child_stdout.get(),
                           stderr_file.get(),
                           status_writer.get(),
                           descriptor_limit()};

    // Block every signal across fork so no handler of ours runs in the child before it has
    // reset the dispositions; the parent restores its mask right after.
    sigset_t all_signals, previous_mask;
    sigfillset(&all_signals);
    pthread_sigmask(SIG_SETMASK, &all_signals, &previous_mask);
    const pid_t pid = ::fork();
    if (pid == 0) run_child(setup);
    const int fork_error = errno;
    pthread_sigmask(SIG_SETMASK, &previous_mask, nullptr);
    if (pid < 0) {
        error_ = fmt::format("cannot start '{}': fork failed: {}", options.command, describe_errno(fork_error));
        return false;
    }

    // Drop the child's ends now, so that EOF and EPIPE reach us when the child goes away.
    child_stdin.reset();
    child_stdout.reset();
    stderr_file.reset();
    status_writer.reset();

    // Blocks only until exec succeeds (the close-on-exec write end vanishes) or fails.
    ChildFailure failure{};
    ssize_t received;
    do {
        received = ::read(status_reader.get(), &failure, sizeof failure);
    } while (received < 0 && errno == EINTR);
    if (received > 0) {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        error_ = describe_child_failure(options, path, failure);
        return false;
    }

    pid_ = pid;
    stdin_fd_ = stdin_writer.release();
    stdout_fd_ = stdout_reader.release();
    // Only our ends become non-blocking: each pipe end is its own open file description.
    error = set_nonblocking(stdin_fd_);
    if (error == 0) error = set_nonblocking(stdout_fd_);
    if (error != 0) {
        kill();
        error_ = fmt::format("cannot start '{}': cannot make its pipes non-blocking: {}", options.command,
                             describe_errno(error));
        return false;
    }
    return true;
}

bool EngineProcess::reap(bool block) {
    if (pid_ <= 0 || reaped_) return reaped_;
    // Look first without reaping: while the exited child is an unreaped zombie its pid, and so
    // its process group id, cannot be reused, which makes killing its leftover helpers safe.
    siginfo_t info{};
    const int options = WEXITED | WNOWAIT | (block ? 0 : WNOHANG);
    int result;
    do {
        result = ::waitid(P_PID, static_cast<id_t>(pid_), &info, options);
    } while (result < 0 && errno == EINTR);
    if (result < 0) {
        // ECHILD: someone else reaped it (SIGCHLD ignored, or a stray waitpid(-1)).
        error_ = fmt::format("the exit status of '{}' was lost: {}", command_, describe_errno(errno));
        reaped_ = true;
        return true;
    }
    if (info.si_pid == 0) return false;  // still running

    ::kill(-pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    if (WIFEXITED(status)) {
        exit_status_ = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        exit_status_ = -WTERMSIG(status);
    }
    return true;
}

bool EngineProcess::running() { return pid_ > 0 && !reap(false); }

void EngineProcess::kill() {
    if (pid_ <= 0 || reaped_) return;
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);  // in case the child moved itself to another process group
    reap(true);
}

bool EngineProcess::wait_for_exit(std::chrono::milliseconds timeout) {
    if (pid_ <= 0) return false;
    const auto deadline = Clock::now() + timeout;
    // Short polls keep the wait accurate to about 2 ms without a signal handler or pidfd.
    Clock::duration pause = std::chrono::microseconds(100);
    while (!reap(false)) {
        const auto now = Clock::now();
        if (now >= deadline) return false;
        std::this_thread::sleep_for(std::min(pause, deadline - now));
        pause = std::min<Clock::duration>(pause * 2, std::chrono::milliseconds(2));
    }
    return true;
}

void EngineProcess::close_input() {
    close_fd(stdin_fd_);
    pending_input_.clear();
}

bool EngineProcess::write_line(std::string_view text) {
    if (stdin_fd_ < 0) {
        error_ = pid_ > 0 ? fmt::format("cannot write to '{}': its input is closed", command_)
                          : std::string("cannot write: no engine was started");
        return false;
    }
    pending_input_.append(text);
    pending_input_.push_back('\n');
    return flush_input(Clock::now() + write_timeout_);
}

bool EngineProcess::flush_input(Clock::time_point deadline) {
    SigpipeSuppressor suppressor;
    while (!pending_input_.empty()) {
        const ssize_t written = ::write(stdin_fd_, pending_input_.data(), pending_input_.size());
        if (written > 0) {
            pending_input_.erase(0, static_cast<std::size_t>(written));
            continue;
        }
        const int error = errno;
        if (written < 0 && error == EINTR) continue;
        if (written < 0 && (error == EAGAIN || error == EWOULDBLOCK)) {
            if (wait_for_fd(stdin_fd_, POLLOUT, deadline)) continue;
            error_ = fmt::format("cannot write to '{}': it has not read its input for {} ms", command_,
                                 write_timeout_.count());
            return false;
        }
        if (error == EPIPE) suppressor.note_broken_pipe();
        error_ = fmt::format("cannot write to '{}': {}", command_,
                             error == EPIPE ? std::string("it has closed its input or exited") : describe_errno(error));
        close_input();
        return false;
    }
    return true;
}

ReadResult EngineProcess::read_line(std::chrono::milliseconds timeout) {
    return read_line_until(Clock::now() + timeout);
}

ReadResult EngineProcess::read_line_until(Clock::time_point deadline) {
    for (;;) {
        if (auto line = take_buffered_line()) return {ReadStatus::line, std::move(*line)};
        if (stdout_fd_ < 0) {
            // End of output: an unterminated last line still counts as a line.
            if (!discarding_ && line_start_ < output_.size()) {
                std::string rest = output_.substr(line_start_);
                output_.clear();
                line_start_ = scanned_until_ = 0;
                if (rest.back() == '\r') rest.pop_back();
                if (rest.size() > max_line_length_) rest.resize(max_line_length_);
                return {ReadStatus::line, std::move(rest)};
            }
            return {ReadStatus::closed, {}};
        }
        if (!wait_for_fd(stdout_fd_, POLLIN, deadline)) return {ReadStatus::timeout, {}};
        read_available();
    }
}

// One read() per wake-up, so a child that floods us still lets complete lines come out.
void EngineProcess::read_available() {
    // Drop returned bytes only once they are at least half the buffer: amortised O(1) per byte
    // even while a long line trickles in.
    if (line_start_ > 0 && line_start_ * 2 >= output_.size()) {
        output_.erase(0, line_start_);
        scanned_until_ -= line_start_;
        line_start_ = 0;
    }
    // Read straight into the buffer: no large array on the caller's (maybe small) stack.
    constexpr std::size_t chunk_size = std::size_t{1} << 16;
    const std::size_t old_size = output_.size();
    output_.resize(old_size + chunk_size);
    const ssize_t received = ::read(stdout_fd_, output_.data() + old_size, chunk_size);
    const int read_error = errno;
    output_.resize(old_size + static_cast<std::size_t>(std::max<ssize_t>(received, 0)));
    if (received > 0) return;
    if (received < 0 && (read_error == EINTR || read_error == EAGAIN || read_error == EWOULDBLOCK)) return;
    if (received < 0) error_ = fmt::format("cannot read from '{}': {}", command_, describe_errno(read_error));
    close_fd(stdout_fd_);
    reap(false);  // usually the child has just exited; the caller may still need wait_for_exit()
}

std::optional<std::string> EngineProcess::take_buffered_line() {
    for (;;) {
        const std::size_t newline = output_.find('\n', scanned_until_);
        if (discarding_) {
            if (newline == std::string::npos) {
                line_start_ = scanned_until_ = output_.size();
                return std::nullopt;
            }
            line_start_ = scanned_until_ = newline + 1;
            discarding_ = false;
            continue;
        }
        if (newline != std::string::npos) {
            std::size_t length = newline - line_start_;
            if (length > 0 && output_[newline - 1] == '\r') --length;
            std::string line = output_.substr(line_start_, std::min(length, max_line_length_));
            line_start_ = scanned_until_ = newline + 1;
            return line;
        }
        scanned_until_ = output_.size();
        // Strictly more than the limit with no newline yet: the line is too long whatever comes
        // next, even a "\r\n" (the byte at the limit cannot be the '\r' of a line that fits).
        if (output_.size() - line_start_ > max_line_length_) {
            std::string line = output_.substr(line_start_, max_line_length_);
            line_start_ = scanned_until_ = line_start_ + max_line_length_;
            discarding_ = true;
            return line;
        }
        return std::nullopt;
    }
}

}  // namespace bge::protocol
