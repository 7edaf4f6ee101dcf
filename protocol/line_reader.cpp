#include "protocol/line_reader.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace bge::protocol {

bool LineReader::fill() {
    if (eof_) return false;
    if (start_ > 0) {
        buffer_.erase(0, start_);
        start_ = 0;
    }
    char chunk[65536];
    while (true) {
        if (interrupt_fd_ >= 0 && fd_ >= 0) {
            pollfd watched[2] = {{fd_, POLLIN, 0}, {interrupt_fd_, POLLIN, 0}};
            if (::poll(watched, 2, -1) < 0) {
                if (errno == EINTR) continue;
                eof_ = true;
                return false;
            }
            if (watched[1].revents != 0) {
                eof_ = true;
                return false;
            }
            // The input is readable, closed or invalid: read() tells which.
        }
        const ssize_t got = ::read(fd_, chunk, sizeof chunk);
        if (got > 0) {
            buffer_.append(chunk, static_cast<std::size_t>(got));
            return true;
        }
        if (got < 0 && errno == EINTR) continue;
        eof_ = true;
        return false;
    }
}

std::optional<InputLine> LineReader::next() {
    InputLine line;
    bool discarding = false;
    while (true) {
        const std::size_t newline = buffer_.find('\n', start_);
        if (newline != std::string::npos) {
            const std::size_t length = newline - start_;
            if (!discarding) line.text.assign(buffer_, start_, std::min(length, limit_));
            line.full_length += length;
            start_ = newline + 1;
            break;
        }
        const std::size_t pending = buffer_.size() - start_;
        if (pending > limit_) {
            // Keep the head of the line for the error message and drop the rest as it arrives.
            if (!discarding) line.text.assign(buffer_, start_, limit_);
            discarding = true;
            line.full_length += pending;
            buffer_.clear();
            start_ = 0;
        }
        if (!fill()) {
            const std::size_t rest = buffer_.size() - start_;
            if (rest == 0 && line.full_length == 0 && !discarding) return std::nullopt;
            if (!discarding) line.text.assign(buffer_, start_, std::min(rest, limit_));
            line.full_length += rest;
            buffer_.clear();
            start_ = 0;
            break;
        }
    }
    if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
    line.too_long = line.full_length > limit_;
    line.arrived = std::chrono::steady_clock::now();
    return line;
}

}  // namespace bge::protocol
