#pragma once
// Routes the page's messages: creates play tables and analysis boards (each owned by the client
// that asked for it and closed when it disconnects), subscribes clients to sessions, and answers
// anything it cannot use with an error message. Never throws on bad input.

#include <atomic>
#include <cstdint>
#include <thread>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "tools/gui/session.hpp"

namespace bge::gui {

class Hub {
public:
    static constexpr std::size_t max_sessions_per_client = 16;
    static constexpr std::size_t max_sessions = 64;
    // A message is parsed only within these: the server's own size limit, and nesting far
    // beyond what any message needs (three levels).
    static constexpr json::Limits message_limits{max_message_bytes, 16};

    explicit Hub(std::vector<EngineEntry> engines) : engines_(std::move(engines)) {}
    ~Hub() { close_all(); }

    // Closes every session and waits for them (their engines quit). Called once the server has
    // stopped, before it is destroyed: the sessions may still hold its clients.
    void close_all();

    void opened(const std::shared_ptr<Client>& client);
    void closed(const std::shared_ptr<Client>& client);
    void message(const std::shared_ptr<Client>& client, std::string_view text);

    // A session every client may watch (a match run from the command line), made with its id.
    std::shared_ptr<Session> add_shared_session(const std::function<std::shared_ptr<Session>(std::int64_t id)>& make,
                                                std::string game);

private:
    struct Entry {
        std::shared_ptr<Session> session;
        std::uint64_t owner = 0;  // 0: shared, never closed by a client
    };

    void handle(const std::shared_ptr<Client>& client, const Json& message);
    void create(const std::shared_ptr<Client>& client, const Json& message);
    std::shared_ptr<Session> find(std::int64_t id);
    // Closes on a helper thread (stopping an engine may take a second or two); the hub joins
    // them all before it is destroyed.
    void close_later(std::shared_ptr<Session> session);

    struct Closer {
        std::shared_ptr<std::atomic<bool>> done;
        std::jthread thread;
    };

    std::vector<EngineEntry> engines_;
    std::mutex closers_mutex_;
    std::vector<Closer> closers_;
    std::mutex mutex_;
    std::map<std::int64_t, Entry> sessions_;
    std::int64_t next_id_ = 1;
    std::int64_t watch_id_ = 0;
    std::string watch_game_;
};

}  // namespace bge::gui
