#pragma once
// Reads protocol lines from a file descriptor with a hard length limit, so one over-long line
// costs a clear error instead of unbounded memory. Handles "\n" and "\r\n".
//
// The read blocks, and another thread may end it (interrupt()), the way the engines' input thread
// is ended without closing standard input. Linux polls the descriptor beside a pipe of the
// reader's own; Windows reads the descriptor's handle with ReadFile (a pipe from a GUI or
// Piskvork, a file, or a console), which interrupt() cancels (CancelSynchronousIo).
//
// A read that cannot be ended (wine cannot cancel a pipe read) is abandoned: its thread, when the
// read returns (input arrives, or the pipe closes as the process exits), touches nothing it was
// reading for (the reader, its caller's state, all maybe gone by then) and waits for the process
// to end. Otherwise it would go on into a destroyed reader and crash the exiting process, as it
// did at one exit in four under wine.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace bge::protocol {

struct InputLine {
    std::string text;
    bool too_long = false;  // the line exceeded the limit; text holds its first bytes
    std::size_t full_length = 0;
    // When the line was read: a search's clock starts here, not when the loop got to the line,
    // since the other side's clock started when it wrote it.
    std::chrono::steady_clock::time_point arrived = std::chrono::steady_clock::now();
};

class LineReader {
public:
    static constexpr std::size_t default_limit = 1 << 20;

    explicit LineReader(int fd = 0, std::size_t limit = default_limit);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    // The next line, or nothing at end of input (or once interrupted).
    std::optional<InputLine> next();

    // From another thread: the read waiting for input, or the next one, ends as at end of input.
    // False when the waiting read was not ended (Linux: no pipe could be made; Windows: the
    // system did not cancel it, either because the read had not quite begun, or because it cannot,
    // as under wine). Call again until the reading thread has left next(), or abandon().
    bool interrupt();
    // After interrupt(), from another thread: gives up on a read that would not end. True if the
    // reading thread is inside one: it is abandoned (see above), never returns from next(), and
    // the reader may be destroyed. False if it is between reads: it sees the interrupt and
    // returns from next() at once, so wait for it.
    bool abandon();
    // After the reading thread has ended: the reader may read again.
    void clear_interrupt();

private:
    // What the reading thread and interrupt() agree on around a blocking read. Shared, so that an
    // abandoned reading thread still holds it when the reader is gone.
    struct ReadState {
        std::mutex mutex;
        bool in_read = false;    // a blocking read is under way
        bool abandoned = false;  // set by abandon(): once the read returns, the thread touches nothing
    };

    bool fill();
    bool read_chunk(char* chunk, std::size_t size, std::size_t& got);
    // Around one blocking read, on the reading thread: false if interrupted before it began.
    // `state` is the thread's own copy of state_.
    bool begin_read(const std::shared_ptr<ReadState>& state);
    static void end_read(const std::shared_ptr<ReadState>& state);  // never returns if abandoned

    int fd_;
    std::size_t limit_;
    std::string buffer_;
    std::size_t start_ = 0;
    bool eof_ = false;
    std::atomic<bool> interrupted_{false};
    std::shared_ptr<ReadState> state_ = std::make_shared<ReadState>();
#ifdef _WIN32
    std::atomic<void*> reading_thread_{nullptr};  // a handle of the thread inside ReadFile, for the cancel
    unsigned long reading_thread_id_ = 0;         // whose handle it is (only the reading thread uses it)
#else
    int interrupt_pipe_[2] = {-1, -1};
#endif
};

}  // namespace bge::protocol
