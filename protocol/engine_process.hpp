#pragma once
// The client side of the text protocols: runs an engine as a child process and talks to it line
// by line over pipes. The arbiter (hard clocks), the network bridge and the transcript tests use
// it. Engines may crash, hang, print garbage or huge lines, or never read their input, so every
// call is bounded in time and memory, and every failure is a return value, never an exception.
//
// Linux only. Not thread-safe: one thread at a time uses a given EngineProcess.
//
// Process model:
// - The child gets the pipes as stdin and stdout and nothing else: every descriptor we open is
//   close-on-exec, and any descriptor the parent leaked (no FD_CLOEXEC) is closed at exec too.
// - The child runs in its own process group, so kill() also takes down helpers it spawned, and
//   a Ctrl-C meant for the parent's terminal group does not reach it. When the child is reaped
//   (by kill(), running(), wait_for_exit()), whatever is still left in its group is killed first,
//   so no helper outlives the engine and keeps its stdout open.
// - The child starts with every signal at its default disposition and nothing blocked, whatever
//   the parent ignores or blocks (so SIGPIPE kills an engine writing to a closed pipe, as usual).
// - Writing never raises SIGPIPE in the parent: write_line() blocks SIGPIPE for the calling
//   thread only during the write and swallows the one a broken pipe raises. The process-wide
//   signal disposition is left alone.
// - Do not set SIGCHLD to SIG_IGN in the parent: the kernel would then reap children itself and
//   exit statuses would be lost (exit_status() stays empty).

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bge::protocol {

struct ProcessOptions {
    // Executable path, looked up in PATH if it has no '/'. A relative path with a '/' (such as
    // "./engine") is relative to working_directory, as with `cd dir && ./engine`.
    std::string command;
    std::vector<std::string> arguments;  // argv[1..]; argv[0] is command as given
    std::string working_directory;       // empty: inherit
    std::string stderr_path;             // empty: inherit the parent's stderr; else append the child's to it
};

enum class ReadStatus {
    line,     // a complete line (or the unterminated last bytes before end of output)
    timeout,  // no complete line before the deadline; partial data stays buffered
    closed,   // end of the child's stdout: it exited, crashed or closed it
};

struct ReadResult {
    ReadStatus status = ReadStatus::timeout;
    std::string line;  // without the trailing "\n" or "\r\n"; empty unless status == line
};

class EngineProcess {
public:
    static constexpr std::size_t default_max_line_length = std::size_t{1} << 20;
    static constexpr std::chrono::milliseconds default_write_timeout{2000};

    EngineProcess() = default;
    ~EngineProcess();  // kills and reaps the child if it is still there
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;
    EngineProcess(EngineProcess&& other) noexcept;
    EngineProcess& operator=(EngineProcess&& other) noexcept;  // kills the child it replaces

    // Starts the child. Returns false with a message naming the command in error() if it could
    // not be started: not found, not executable, bad working directory, unopenable stderr file.
    // Such failures are detected before start() returns, never reported as an early exit.
    // Fails if a child is still running; once the previous one is gone the object can be reused.
    bool start(const ProcessOptions& options);

    // The child was started and has not exited yet. Never blocks; reaps the child if it exited.
    bool running();

    // Writes text + "\n" (text itself should not contain a newline). Returns false if the child
    // is gone (its stdin is then closed for good) or if it did not take the whole line within
    // the write timeout because it is not reading; in that case the unwritten rest stays queued
    // and goes out before the next line, so the stream never carries a torn line.
    bool write_line(std::string_view text);

    // Reads one line, waiting at most `timeout`. A zero timeout still returns a line that is
    // already available. Lines longer than the maximum line length are cut: the first
    // max_line_length bytes come back as the line (as soon as they have arrived) and the rest
    // of that line is discarded. After `closed`, call wait_for_exit() to collect the exit
    // status: the child may close its stdout a moment before the kernel reports its exit.
    ReadResult read_line(std::chrono::milliseconds timeout);
    ReadResult read_line_until(std::chrono::steady_clock::time_point deadline);

    // Closes our end of the child's stdin: the child reads end of input.
    void close_input();

    // SIGKILL to the child's whole process group, then reaps it. Safe to call twice or when
    // nothing was started. Output the child wrote before dying can still be read.
    void kill();

    // Waits up to `timeout` for the child to exit by itself; true if it did (it is then reaped).
    bool wait_for_exit(std::chrono::milliseconds timeout);

    // The exit code, or -signal if a signal killed it, once the child has been reaped (by
    // running(), wait_for_exit() or kill()); std::nullopt while running or never started.
    std::optional<int> exit_status() const { return exit_status_; }

    int pid() const { return pid_; }                     // the child's pid (kept after exit), -1 if never started
    const std::string& error() const { return error_; }  // what went wrong last

    void set_max_line_length(std::size_t bytes) { max_line_length_ = bytes > 0 ? bytes : 1; }
    void set_write_timeout(std::chrono::milliseconds timeout) { write_timeout_ = timeout; }

private:
    void swap(EngineProcess& other) noexcept;
    void reset();
    bool reap(bool block);
    bool flush_input(std::chrono::steady_clock::time_point deadline);
    void read_available();
    std::optional<std::string> take_buffered_line();

    int pid_ = -1;
    bool reaped_ = false;
    std::optional<int> exit_status_;
    int stdin_fd_ = -1;   // our write end of the child's stdin
    int stdout_fd_ = -1;  // our read end of the child's stdout
    std::string command_;
    std::string error_;

    std::string pending_input_;  // queued for the child's stdin, not yet taken by the pipe

    std::string output_;             // bytes read from the child, not yet returned
    std::size_t line_start_ = 0;     // first byte of output_ not yet returned
    std::size_t scanned_until_ = 0;  // no '\n' in output_[line_start_, scanned_until_)
    bool discarding_ = false;        // dropping the rest of a line that was cut
    std::size_t max_line_length_ = default_max_line_length;
    std::chrono::milliseconds write_timeout_ = default_write_timeout;
};

}  // namespace bge::protocol
