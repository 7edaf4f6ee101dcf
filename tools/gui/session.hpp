#pragma once
// What the GUI's activities share: a table of play, an analysis board and a watched match are
// each a Session that clients subscribe to; the hub (hub.hpp) routes each message to its session.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "tools/arbiter/command_line.hpp"
#include "tools/arbiter/engine_player.hpp"
#include "tools/arbiter/json.hpp"
#include "tools/gui/web_server.hpp"

namespace bge::gui {

namespace json = arbiter::json;
using arbiter::Json;

// An engine the GUI may start: named on its command line or in its config file, for one game.
struct EngineEntry {
    std::string game;
    arbiter::EngineConfig config;
};

// {"type": "error", "message": ...} (with the session's id when there is one).
std::string error_message(std::string_view message, std::optional<std::int64_t> session = std::nullopt);

// The clients watching one session. Thread-safe; clients that went away are dropped.
class Subscribers {
public:
    void add(const std::shared_ptr<Client>& client);
    void remove(std::uint64_t client_id);
    void send_all(const std::string& message);
    bool empty();

private:
    std::mutex mutex_;
    std::vector<std::weak_ptr<Client>> clients_;
};

class Session {
public:
    virtual ~Session() = default;
    // A message for this session ({"type": "move", ...}); errors go back to `from`.
    virtual void handle(const Json& message, const std::shared_ptr<Client>& from) = 0;
    // Adds a watcher and sends it the current state.
    virtual void subscribe(const std::shared_ptr<Client>& client) = 0;
    virtual void unsubscribe(std::uint64_t client_id) = 0;
    // Stops the session's thread and its engines; called once, before destruction.
    virtual void close() = 0;
};

// A session whose work runs on a thread of its own (a table of play, an analysis board): its
// watchers, the state last sent (what a newcomer gets first), and the lock, wake-up and engine
// interrupt its thread shares with the server's threads. The derived class starts thread_ in its
// constructor and calls close() in its destructor.
class ThreadedSession : public Session {
public:
    void subscribe(const std::shared_ptr<Client>& client) override {
        subscribers_.add(client);
        std::lock_guard lock(mutex_);
        client->send(snapshot_);
    }

    void unsubscribe(std::uint64_t client_id) override { subscribers_.remove(client_id); }

protected:
    // The whole state as the page draws it.
    virtual Json state_json() const = 0;

    // Sends the state to every watcher and keeps it for newcomers; with the lock held.
    void publish(std::unique_lock<std::mutex>&) {
        snapshot_ = json::dump(state_json());
        subscribers_.send_all(snapshot_);
    }

    // Ends the thread: marks the session closing, interrupts an engine's search, wakes and joins
    // the thread. False when the session was already closed.
    bool stop_thread() {
        {
            std::lock_guard lock(mutex_);
            if (closing_) return false;
            closing_ = true;
            interrupt_ = true;
        }
        wake_.notify_all();
        if (thread_.joinable()) thread_.join();
        return true;
    }

    std::atomic<bool> interrupt_{false};  // stops an engine's search (arbiter::EnginePlayer)
    std::mutex mutex_;
    std::condition_variable wake_;
    bool closing_ = false;
    std::string snapshot_;
    Subscribers subscribers_;
    std::jthread thread_;
};

// An engine's `info` line, read as the arbiter reads it.
using arbiter::SearchLine;
using arbiter::parse_search_line;
// {"depth", "seldepth", "score", "mate", "nodes", "nps", "time", "text"} (the PV separately).
Json search_line_json(const SearchLine& line);
// The line to show after `previous` (the last shown, with its "pv"): a line with no depth, score
// or nodes (an `info string`, Rapfi's "MESSAGE Bestline H8 I9") keeps the depth and score shown
// and changes the words, and the PV when it has one. A line without a PV keeps the last PV: the
// caller starts from an empty `previous` for each search.
Json shown_search_line(const Json& previous, const SearchLine& line, Json pv);

// Rate limit for live updates (info lines): at most one per interval, except that the first line
// of each new depth always goes out, so the page never misses the line a finished iteration printed.
class Throttle {
public:
    explicit Throttle(std::chrono::milliseconds interval) : interval_(interval) {}
    bool ready(std::optional<int> depth = std::nullopt) {
        const auto now = std::chrono::steady_clock::now();
        const bool new_depth = depth && depth != last_depth_;
        if (depth) last_depth_ = depth;
        if (!new_depth && now - last_ < interval_) return false;
        last_ = now;
        return true;
    }
    void reset() {
        last_ = {};
        last_depth_.reset();
    }

private:
    std::chrono::milliseconds interval_;
    std::chrono::steady_clock::time_point last_{};
    std::optional<int> last_depth_;
};

// Milliseconds from a JSON field: a whole number in [minimum, maximum], or an error naming it.
Expected<std::optional<std::int64_t>> optional_integer(const Json& message, std::string_view key,
                                                       std::int64_t minimum, std::int64_t maximum);
// A text field: empty when absent or null, an error naming it when it is something else.
Expected<std::string> optional_text(const Json& message, std::string_view key);
// Text from the page quoted in an error message: its first 60 bytes, so an error never echoes
// megabytes back.
std::string clipped(std::string_view text);

}  // namespace bge::gui
