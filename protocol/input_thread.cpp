#include "protocol/input_thread.hpp"

#include <chrono>
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
    thread_ = std::thread([this, &reader, &inbox] {
        try {
            while (auto line = reader.next()) {
                if (stopping_.load()) break;
                inbox.post(std::move(*line));
            }
        } catch (...) {
            // Out of memory while reading: treated as the end of input, which the loop handles.
        }
        if (!stopping_.load()) inbox.close();
        finished_.store(true);
    });
}

InputThread::~InputThread() {
    stopping_.store(true);
    // The reader is asked again until the thread has left it: on Windows a cancel that comes just
    // before the read begins is lost. A read the system will not end (no pipe on Linux, a pipe
    // under wine) is given up on after a few refusals: the thread, abandoned, then never leaves
    // the reader, so neither this object nor the inbox is touched once they are gone.
    using namespace std::chrono_literals;
    int refusals = 0;
    for (auto waited = 0ms; waited < 1000ms && refusals < 20; waited += 1ms) {
        if (finished_.load()) break;
        refusals = reader_.interrupt() ? 0 : refusals + 1;
        std::this_thread::sleep_for(1ms);
    }
    if (!finished_.load() && reader_.abandon()) {
        thread_.detach();
        return;
    }
    thread_.join();             // it has ended, or is between reads and sees the interrupt
    reader_.clear_interrupt();  // the reader may be used again
}

}  // namespace bge::protocol
