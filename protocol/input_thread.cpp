#include "protocol/input_thread.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <utility>

namespace bge::protocol {

void Inbox::post(InputLine line) {
    {
        const std::lock_guard lock(mutex_);
        lines_.push_back(std::move(line));
    }
    changed_.notify_all();
}

void Inbox::close() {
    {
        const std::lock_guard lock(mutex_);
        closed_ = true;
    }
    changed_.notify_all();
}

void Inbox::wake() {
    {
        const std::lock_guard lock(mutex_);
        woken_ = true;
    }
    changed_.notify_all();
}

std::optional<InputLine> Inbox::wait() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !lines_.empty() || woken_ || (closed_ && !close_reported_); });
    if (!lines_.empty()) {
        InputLine line = std::move(lines_.front());
        lines_.pop_front();
        return line;
    }
    woken_ = false;
    if (closed_) close_reported_ = true;
    return std::nullopt;
}

std::optional<InputLine> Inbox::next_line() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !lines_.empty() || closed_; });
    if (lines_.empty()) {
        close_reported_ = true;
        return std::nullopt;
    }
    InputLine line = std::move(lines_.front());
    lines_.pop_front();
    return line;
}

bool Inbox::at_end() {
    const std::lock_guard lock(mutex_);
    return closed_ && lines_.empty();
}

InputThread::InputThread(LineReader& reader, Inbox& inbox) : reader_(reader) {
    if (::pipe2(interrupt_, O_CLOEXEC) == 0)
        reader.set_interrupt(interrupt_[0]);
    else
        interrupt_[0] = interrupt_[1] = -1;
    thread_ = std::thread([this, &reader, &inbox] {
        try {
            while (auto line = reader.next()) {
                if (stopping_.load()) return;
                inbox.post(std::move(*line));
            }
        } catch (...) {
            // Out of memory while reading: treated as the end of input, which the loop handles.
        }
        inbox.close();
    });
}

InputThread::~InputThread() {
    stopping_.store(true);
    if (interrupt_[1] >= 0) {
        const char byte = 0;
        if (::write(interrupt_[1], &byte, 1) != 1) {
            // The pipe is ours and empty, so this does not happen; the join below would wait for input.
        }
        thread_.join();
        reader_.set_interrupt(-1);  // the reader may be used again; the pipe is about to close
        ::close(interrupt_[0]);
        ::close(interrupt_[1]);
    } else {
        // No pipe to interrupt the read with: the thread ends with the process.
        thread_.detach();
    }
}

}  // namespace bge::protocol
