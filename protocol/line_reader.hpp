#pragma once
// Reads protocol lines from a file descriptor with a hard length limit, so one over-long line
// costs a clear error instead of unbounded memory. Handles "\n" and "\r\n".

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

    explicit LineReader(int fd = 0, std::size_t limit = default_limit) : fd_(fd), limit_(limit) {}

    // The next line, or nothing at end of input.
    std::optional<InputLine> next();

    // While waiting for input, also watch `fd`: once it is readable, reading ends as at end of
    // input. Lets the owner of a reading thread end it without closing the input.
    void set_interrupt(int fd) { interrupt_fd_ = fd; }

private:
    bool fill();

    int fd_;
    std::size_t limit_;
    int interrupt_fd_ = -1;
    std::string buffer_;
    std::size_t start_ = 0;
    bool eof_ = false;
};

}  // namespace bge::protocol
