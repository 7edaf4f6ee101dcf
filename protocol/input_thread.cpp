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
    // The reader is asked again until the thread has left it: on Windows a cancel that comes
    // before the read starts is lost. A read that cannot be ended (no pipe on Linux, a console
    // Windows would not cancel) is left to end with the process.
    using namespace std::chrono_literals;
    for (auto waited = 0ms; waited < 1000ms && reader_.interrupt(); waited += 1ms) {
        if (finished_.load()) {
            thread_.join();
            reader_.clear_interrupt();  // the reader may be used again
            return;
        }
        std::this_thread::sleep_for(1ms);
    }
    thread_.detach();
}

}  // namespace bge::protocol
