#pragma once
// Routes the page's messages: creates play tables and analysis boards (each owned by the client
// that asked for it), subscribes clients to sessions, and answers anything it cannot use with an
// error message. Never throws on bad input.
//
// A session outlives a dropped connection or a reloaded page: when its owner disconnects it is
// kept, still playing, for the orphan grace, and a client that shows its token (given in `created`,
// kept by the page in its tab's sessionStorage) takes it over with {"type": "resume"}. An orphan
// nobody resumes is closed then; another tab, without the token, cannot take it.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <condition_variable>
#include <functional>
#include <thread>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/gui/engine_options.hpp"
#include "tools/gui/session.hpp"

namespace bge::gui {

class Hub {
public:
    static constexpr std::size_t max_sessions_per_client = 16;
    static constexpr std::size_t max_sessions = 64;
    // How long a session whose page went away waits for it: a reload or a dropped connection
    // comes back within seconds; a closed tab's engines stop this long after.
    static constexpr std::chrono::milliseconds default_orphan_grace{std::chrono::minutes(2)};
    // A message is parsed only within these: the server's own size limit, and nesting far
    // beyond what any message needs (three levels).
    static constexpr json::Limits message_limits{max_message_bytes, 16};

    explicit Hub(std::vector<EngineEntry> engines, std::chrono::milliseconds orphan_grace = default_orphan_grace);
    ~Hub() { close_all(); }

    // Closes every session and waits for them (their engines quit). Called once the server has
    // stopped, before it is destroyed: the sessions may still hold its clients.
    void close_all();

    void opened(const std::shared_ptr<Client>& client);
    void closed(const std::shared_ptr<Client>& client);
    void message(const std::shared_ptr<Client>& client, std::string_view text);
    // The web server's callbacks, bound to this hub.
    ServerHandlers handlers() {
        return {[this](const auto& client) { opened(client); },
                [this](const auto& client, std::string_view text) { message(client, text); },
                [this](const auto& client) { closed(client); }};
    }

    // A session every client may watch (a match run from the command line), made with its id.
    std::shared_ptr<Session> add_shared_session(const std::function<std::shared_ptr<Session>(std::int64_t id)>& make,
                                                std::string game);

private:
    struct Entry {
        std::shared_ptr<Session> session;
        std::uint64_t owner = 0;  // 0: shared, never closed by a client
        std::string token;        // what a page shows to resume the session
        std::optional<std::chrono::steady_clock::time_point> orphaned;  // when its owner went away
    };

    void resume(const std::shared_ptr<Client>& client, std::int64_t id, const Json& message);
    // Takes out the orphans whose grace has run out (the reaper thread closes them); with mutex_ held.
    void reap_orphans(std::vector<std::shared_ptr<Session>>& closing);

    void handle(const std::shared_ptr<Client>& client, const Json& message);
    // {"type": "engine_options", "engine"}: what the engine declares that the page may set.
    void describe_options(const std::shared_ptr<Client>& client, const Json& message);
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
    std::shared_ptr<EngineOptionsCache> engine_options_ = std::make_shared<EngineOptionsCache>();
    std::chrono::milliseconds orphan_grace_;
    std::mutex closers_mutex_;
    std::vector<Closer> closers_;
    std::mutex mutex_;
    std::map<std::int64_t, Entry> sessions_;
    std::int64_t next_id_ = 1;
    std::int64_t watch_id_ = 0;
    std::string watch_game_;
    std::jthread reaper_;  // closes orphans whose grace has run out, when nothing else happens
};

}  // namespace bge::gui
