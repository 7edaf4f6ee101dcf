#pragma once
// Input read on its own thread, so an engine loop never waits on a search to read its next
// command: `stop`, `isready` and `quit` are answered while one runs (docs/protocol.md). The
// reading thread posts lines to an Inbox; the loop's thread takes them from there, and a search
// that ends wakes it through the same Inbox.

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include "protocol/line_reader.hpp"

namespace bge::protocol {

class Inbox {
public:
    void post(InputLine line);
    void close();  // end of input
    void wake();   // from any thread: something besides input needs the loop (a search ended)

    // The next line, or nothing when woken: once at the end of input, and after each wake().
    std::optional<InputLine> wait();
    // The next line, waiting through wakes; nothing at the end of input.
    std::optional<InputLine> next_line();
    // The input has ended and every line was taken.
    bool at_end();

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<InputLine> lines_;
    bool closed_ = false;
    bool close_reported_ = false;
    bool woken_ = false;
};

class InputThread {
public:
    // Reads `reader` into `inbox` on a new thread until the end of input.
    InputThread(LineReader& reader, Inbox& inbox);
    // Ends the reading (the input stays open) and joins the thread, or, when its read cannot be
    // ended, leaves it abandoned (LineReader::abandon()).
    ~InputThread();
    InputThread(const InputThread&) = delete;
    InputThread& operator=(const InputThread&) = delete;

private:
    LineReader& reader_;
    std::atomic<bool> stopping_{false};
    std::atomic<bool> finished_{false};  // the reading thread is about to end
    std::thread thread_;
};

}  // namespace bge::protocol
