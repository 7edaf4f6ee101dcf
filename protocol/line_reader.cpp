#include "protocol/line_reader.hpp"

#ifdef _WIN32
#include <io.h>
#include <windows.h>
#else
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#endif

#include <cerrno>

namespace bge::protocol {

#ifdef _WIN32

LineReader::LineReader(int fd, std::size_t limit) : fd_(fd), limit_(limit) {}

LineReader::~LineReader() {
    if (void* thread = reading_thread_.exchange(nullptr)) ::CloseHandle(thread);
}

bool LineReader::read_chunk(char* chunk, std::size_t size, std::size_t& got) {
    const auto input = reinterpret_cast<HANDLE>(::_get_osfhandle(fd_));
    if (input == INVALID_HANDLE_VALUE) return false;
    if (reading_thread_id_ != ::GetCurrentThreadId()) {
        // A real handle of the thread that reads now (GetCurrentThread() is only a pseudo-handle),
        // so that interrupt() can cancel its read from another thread. The engine loop reads its
        // first line on the main thread, then hands the reader to the input thread.
        HANDLE self = nullptr;
        if (::DuplicateHandle(::GetCurrentProcess(), ::GetCurrentThread(), ::GetCurrentProcess(), &self, 0, FALSE,
                              DUPLICATE_SAME_ACCESS)) {
            if (void* before = reading_thread_.exchange(self)) ::CloseHandle(before);
            reading_thread_id_ = ::GetCurrentThreadId();
        }
    }
    while (true) {
        reading_now_.store(true);
        if (interrupted_.load()) {
            reading_now_.store(false);
            return false;
        }
        DWORD read = 0;
        const BOOL ok = ::ReadFile(input, chunk, static_cast<DWORD>(size), &read, nullptr);
        reading_now_.store(false);
        if (ok) {
            got = read;
            return read > 0;  // 0: the end of a file, or Ctrl+Z at a console
        }
        // A cancel that was not ours (none is expected) reads again; a closed pipe
        // (ERROR_BROKEN_PIPE) or any other failure is the end of input.
        if (::GetLastError() == ERROR_OPERATION_ABORTED && !interrupted_.load()) continue;
        return false;
    }
}

bool LineReader::interrupt() {
    interrupted_.store(true);
    void* thread = reading_thread_.load();
    if (!thread || ::CancelSynchronousIo(thread)) return true;
    // Nothing to cancel: the reader is between reads and sees the flag before the next one, or it
    // is in a read Windows cannot cancel (wine cannot cancel a pipe read): then say so, and the
    // reading thread is left to end with the process.
    return !reading_now_.load();
}

void LineReader::clear_interrupt() { interrupted_.store(false); }

#else

LineReader::LineReader(int fd, std::size_t limit) : fd_(fd), limit_(limit) {
    // Made before any read, so that every wait for input watches it. Without it (no descriptor
    // left) reads block on the input alone and interrupt() says it cannot end them.
    if (::pipe2(interrupt_pipe_, O_CLOEXEC | O_NONBLOCK) != 0) interrupt_pipe_[0] = interrupt_pipe_[1] = -1;
}

LineReader::~LineReader() {
    if (interrupt_pipe_[0] >= 0) ::close(interrupt_pipe_[0]);
    if (interrupt_pipe_[1] >= 0) ::close(interrupt_pipe_[1]);
}

bool LineReader::read_chunk(char* chunk, std::size_t size, std::size_t& got) {
    while (true) {
        if (interrupted_.load()) return false;
        if (interrupt_pipe_[0] >= 0 && fd_ >= 0) {
            pollfd watched[2] = {{fd_, POLLIN, 0}, {interrupt_pipe_[0], POLLIN, 0}};
            if (::poll(watched, 2, -1) < 0) {
                if (errno == EINTR) continue;
                return false;
            }
            if (watched[1].revents != 0) return false;
            // The input is readable, closed or invalid: read() tells which.
        }
        const ssize_t read = ::read(fd_, chunk, size);
        if (read > 0) {
            got = static_cast<std::size_t>(read);
            return true;
        }
        if (read < 0 && errno == EINTR) continue;
        return false;
    }
}

bool LineReader::interrupt() {
    if (interrupt_pipe_[1] < 0) return false;
    interrupted_.store(true);
    const char byte = 0;
    // A full pipe already holds a wake-up: the write may fail then and still wakes the reader.
    return ::write(interrupt_pipe_[1], &byte, 1) == 1 || errno == EAGAIN;
}

void LineReader::clear_interrupt() {
    interrupted_.store(false);
    char drained[64];
    if (interrupt_pipe_[0] >= 0)
        while (::read(interrupt_pipe_[0], drained, sizeof drained) > 0) {
        }
}

#endif

bool LineReader::fill() {
    if (eof_) return false;
    if (start_ > 0) {
        buffer_.erase(0, start_);
        start_ = 0;
    }
    char chunk[65536];
    std::size_t got = 0;
    if (!read_chunk(chunk, sizeof chunk, got)) {
        eof_ = !interrupted_.load();  // an interrupted read is not the end: it may read again once cleared
        return false;
    }
    buffer_.append(chunk, got);
    return true;
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
            // Not the end, so interrupted: no line now; a partial one stays for the next read
            // (only the head of an over-long line being dropped is lost).
            if (!eof_) return std::nullopt;
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
