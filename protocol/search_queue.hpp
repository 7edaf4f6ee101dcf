#pragma once
// What both protocol loops (engine_loop.hpp, pbrain_loop.hpp) keep beside a search running on
// its own thread: the commands that wait for it, and the way out at quit / END.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <deque>
#include <string>
#include <thread>
#include <utility>

namespace bge::protocol {

// Commands waiting for a search, in arrival order. Input is read whatever the queue holds, so a
// flood must not take all memory: the queue refuses text beyond limit_bytes.
template <typename Item>
class CommandQueue {
public:
    static constexpr std::size_t limit_bytes = std::size_t{256} << 20;

    // False, and nothing queued, when `text_bytes` more would pass the limit.
    bool push(Item item, std::size_t text_bytes) {
        if (bytes_ + text_bytes > limit_bytes) return false;
        bytes_ += text_bytes;
        items_.push_back({std::move(item), text_bytes});
        return true;
    }
    Item pop() {
        Entry entry = std::move(items_.front());
        items_.pop_front();
        bytes_ -= entry.bytes;
        return std::move(entry.item);
    }
    bool empty() const { return items_.empty(); }
    void clear() {
        items_.clear();
        bytes_ = 0;
    }
    template <typename Visit>
    void for_each(Visit visit) {
        for (Entry& entry : items_) visit(entry.item);
    }

private:
    struct Entry {
        Item item;
        std::size_t bytes;
    };
    std::deque<Entry> items_;
    std::size_t bytes_ = 0;  // text in items_
};

// quit / END: tells the running search to stop and gives it `grace` to notice and end, then
// joins it. Searches stop within milliseconds; one deaf to stop is not waited for: the process
// exits (every line already went out whole and flushed).
inline void stop_search_for_exit(std::atomic<bool>& stop, const std::atomic<bool>& searching, std::thread& search,
                                 std::chrono::milliseconds grace) {
    stop.store(true);
    const auto give_up = std::chrono::steady_clock::now() + grace;
    while (searching.load() && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (searching.load()) std::_Exit(0);
    if (search.joinable()) search.join();
}

}  // namespace bge::protocol
