#pragma once
// Reads protocol lines from a file descriptor with a hard length limit, so one over-long line
// costs a clear error instead of unbounded memory. Handles "\n" and "\r\n".
//
// The read blocks, and another thread may end it (interrupt()), the way the engines' input thread
// is ended without closing standard input. Linux polls the descriptor beside a pipe of the
// reader's own; Windows reads the descriptor's handle with ReadFile (a pipe from a GUI or
// Piskvork, a file, or a console), which interrupt() cancels (CancelSynchronousIo).

#include <atomic>
#include <chrono>
#include <cstddef>
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
    // False when the waiting read cannot be ended (Linux: no pipe could be made; Windows: a read
    // the system cannot cancel, as under wine): the reading thread then waits for input or its
    // end. Call again until the reading thread has left next(): on Windows a cancel that comes
    // before the read starts is lost.
    bool interrupt();
    // After the reading thread has ended: the reader may read again.
    void clear_interrupt();

private:
    bool fill();
    bool read_chunk(char* chunk, std::size_t size, std::size_t& got);

    int fd_;
    std::size_t limit_;
    std::string buffer_;
    std::size_t start_ = 0;
    bool eof_ = false;
    std::atomic<bool> interrupted_{false};
#ifdef _WIN32
    std::atomic<void*> reading_thread_{nullptr};  // a handle of the thread inside ReadFile, for the cancel
    unsigned long reading_thread_id_ = 0;         // whose handle it is (only the reading thread uses it)
    std::atomic<bool> reading_now_{false};        // the reading thread is in (or about to enter) ReadFile
#else
    int interrupt_pipe_[2] = {-1, -1};
#endif
};

}  // namespace bge::protocol
