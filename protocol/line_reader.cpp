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
#include <thread>

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
    const std::shared_ptr<ReadState> state = state_;  // this thread's own: outlives an abandoned reader
    while (true) {
        if (!begin_read(state)) return false;
        DWORD read = 0;
        const BOOL ok = ::ReadFile(input, chunk, static_cast<DWORD>(size), &read, nullptr);
        const DWORD error = ok ? ERROR_SUCCESS : ::GetLastError();
        end_read(state);
        if (ok) {
            got = read;
            return read > 0;  // 0: the end of a file, or Ctrl+Z at a console
        }
        // A cancel that was not ours (none is expected) reads again; a closed pipe
        // (ERROR_BROKEN_PIPE) or any other failure is the end of input.
        if (error == ERROR_OPERATION_ABORTED && !interrupted_.load()) continue;
        return false;
    }
}

bool LineReader::interrupt() {
    interrupted_.store(true);
    const std::lock_guard lock(state_->mutex);
    if (!state_->in_read) return true;  // between reads: the next one sees the flag and does not begin
    void* thread = reading_thread_.load();
    return thread && ::CancelSynchronousIo(thread);
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
    // This thread's own copies: an abandoned read touches no member once it has begun.
    const std::shared_ptr<ReadState> state = state_;
    const int input = fd_;
    const int wake = interrupt_pipe_[0];
    while (true) {
        if (!begin_read(state)) return false;
        if (wake >= 0 && input >= 0) {
            pollfd watched[2] = {{input, POLLIN, 0}, {wake, POLLIN, 0}};
            const int polled = ::poll(watched, 2, -1);
            const int error = errno;
            if (polled < 0 || watched[1].revents != 0) {  // failed, or woken by interrupt()
                end_read(state);
                if (polled < 0 && error == EINTR) continue;
                return false;
            }
            // The input is readable, closed or invalid: read() tells which.
        }
        const ssize_t read = ::read(input, chunk, size);
        const int error = errno;
        end_read(state);
        if (read > 0) {
            got = static_cast<std::size_t>(read);
            return true;
        }
        if (read < 0 && error == EINTR) continue;
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

bool LineReader::begin_read(const std::shared_ptr<ReadState>& state) {
    const std::lock_guard lock(state->mutex);
    if (interrupted_.load()) return false;
    state->in_read = true;
    return true;
}

void LineReader::end_read(const std::shared_ptr<ReadState>& state) {
    std::unique_lock lock(state->mutex);
    if (state->abandoned) {
        lock.unlock();
        // The reader, and whoever read through it, may be gone by now: touch nothing of theirs
        // and wait for the process to end.
        while (true) std::this_thread::sleep_for(std::chrono::hours(1));
    }
    state->in_read = false;
}

bool LineReader::abandon() {
    const std::lock_guard lock(state_->mutex);
    if (!state_->in_read) return false;
    state_->abandoned = true;
    return true;
}

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
