#include "tools/gui/hub.hpp"

#include <algorithm>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "tools/gui/game_factory.hpp"

namespace bge::gui {

Hub::Hub(std::vector<EngineEntry> engines, std::chrono::milliseconds orphan_grace)
    : engines_(std::move(engines)), orphan_grace_(orphan_grace) {
    reaper_ = std::jthread([this](std::stop_token stop) {
        std::mutex sleep_mutex;
        std::condition_variable_any sleep;
        const auto interval = std::clamp<std::chrono::milliseconds>(orphan_grace_ / 4, std::chrono::milliseconds(50),
                                                                   std::chrono::milliseconds(5000));
        while (!stop.stop_requested()) {
            {
                std::unique_lock lock(sleep_mutex);
                sleep.wait_for(lock, stop, interval, [] { return false; });
            }
            if (stop.stop_requested()) break;
            std::vector<std::shared_ptr<Session>> closing;
            {
                std::lock_guard lock(mutex_);
                reap_orphans(closing);
            }
            for (auto& session : closing) close_later(std::move(session));
        }
    });
}

void Hub::close_all() {
    reaper_.request_stop();
    if (reaper_.joinable()) reaper_.join();
    std::map<std::int64_t, Entry> sessions;
    {
        std::lock_guard lock(mutex_);
        sessions.swap(sessions_);
    }
    for (auto& [id, entry] : sessions) entry.session->close();
    std::lock_guard lock(closers_mutex_);
    closers_.clear();  // joins every closing thread
}

void Hub::opened(const std::shared_ptr<Client>&) {}

namespace {

// 128 random bits as hex: a session's token.
std::string new_token() {
    std::random_device random;
    std::string token;
    for (int i = 0; i < 4; ++i) token += fmt::format("{:08x}", random());
    return token;
}

}  // namespace

void Hub::closed(const std::shared_ptr<Client>& client) {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    for (auto& [id, entry] : sessions_) {
        entry.session->unsubscribe(client->id());
        // The page may come back (a reload, a dropped connection): the session waits for it, and
        // the reaper closes it once the grace has run out.
        if (entry.owner == client->id()) {
            entry.owner = 0;
            entry.orphaned = now;
        }
    }
}

void Hub::reap_orphans(std::vector<std::shared_ptr<Session>>& closing) {
    const auto now = std::chrono::steady_clock::now();
    for (auto it = sessions_.begin(); it != sessions_.end();) {
        if (it->second.orphaned && now - *it->second.orphaned >= orphan_grace_) {
            closing.push_back(it->second.session);
            it = sessions_.erase(it);
        } else {
            ++it;
        }
    }
}

void Hub::resume(const std::shared_ptr<Client>& client, std::int64_t id, const Json& message) {
    std::shared_ptr<Session> session;
    {
        std::lock_guard lock(mutex_);
        const auto found = sessions_.find(id);
        const std::string& token = json::text(message, "token");
        if (found == sessions_.end() || found->second.token.empty() || token != found->second.token) {
            client->send(error_message(fmt::format("game {} cannot be resumed: it was closed, or the gui was started "
                                                   "again since",
                                                   id),
                                       id));
            return;
        }
        found->second.owner = client->id();
        found->second.orphaned.reset();
        session = found->second.session;
    }
    Json resumed;
    resumed["type"] = "resumed";
    resumed["id"] = id;
    client->send(json::dump(resumed));
    session->subscribe(client);
}

void Hub::close_later(std::shared_ptr<Session> session) {
    std::lock_guard lock(closers_mutex_);
    std::erase_if(closers_, [](const Closer& closer) { return closer.done->load(); });
    auto done = std::make_shared<std::atomic<bool>>(false);
    closers_.push_back({done, std::jthread([session = std::move(session), done] {
                            session->close();
                            done->store(true);
                        })});
}

std::shared_ptr<Session> Hub::add_shared_session(const std::function<std::shared_ptr<Session>(std::int64_t id)>& make,
                                                 std::string game) {
    std::lock_guard lock(mutex_);
    const std::int64_t id = next_id_++;
    auto session = make(id);
    sessions_[id] = Entry{session, 0, {}, std::nullopt};
    watch_id_ = id;
    watch_game_ = std::move(game);
    return session;
}

std::shared_ptr<Session> Hub::find(std::int64_t id) {
    std::lock_guard lock(mutex_);
    const auto found = sessions_.find(id);
    return found == sessions_.end() ? nullptr : found->second.session;
}

void Hub::message(const std::shared_ptr<Client>& client, std::string_view text) {
    auto parsed = json::parse(text, message_limits);
    if (!parsed) {
        client->send(error_message(fmt::format("not JSON: {}", parsed.error())));
        return;
    }
    if (!json::member(*parsed, "type").is_string()) {
        client->send(error_message("a message is a JSON object with a \"type\""));
        return;
    }
    try {
        handle(client, *parsed);
    } catch (const std::exception& error) {
        // Nothing here should throw; if something does (out of memory, a thread that cannot
        // start), the client hears of it and the server goes on.
        client->send(error_message(fmt::format("the server could not do that: {}", error.what())));
    }
}

void Hub::handle(const std::shared_ptr<Client>& client, const Json& message) {
    const std::string& type = json::text(message, "type");
    if (type == "hello") {
        Json welcome;
        welcome["type"] = "welcome";
        Json engines = Json::array();
        for (const EngineEntry& entry : engines_) {
            Json engine;
            engine["name"] = entry.config.name;
            engine["game"] = entry.game;
            engines.push_back(std::move(engine));
        }
        welcome["engines"] = std::move(engines);
        std::lock_guard lock(mutex_);
        if (watch_id_) {
            welcome["watch"] = watch_id_;
            welcome["watch_game"] = watch_game_;
        }
        client->send(json::dump(welcome));
        return;
    }
    if (type == "new_game" || type == "analyse" || type == "load_record") return create(client, message);
    if (type == "engine_options") return describe_options(client, message);
    if (type == "preview") {
        const GameFactory* factory = factory_for(json::text(message, "game"));
        if (!factory) {
            client->send(error_message(fmt::format("unknown game '{}': tak, gomoku, twixt, ur or expendibots",
                                                   clipped(json::text(message, "game")))));
            return;
        }
        auto preview = factory->preview(message);
        client->send(preview ? json::dump(*preview) : error_message(preview.error()));
        return;
    }
    const Json& id_value = json::member(message, "id");
    const auto id = id_value.is_number_integer() ? json::integer(id_value) : std::nullopt;
    if (!id) {
        client->send(error_message(fmt::format("'{}' needs the \"id\" of a game, analysis or match", clipped(type))));
        return;
    }
    if (type == "resume") return resume(client, *id, message);
    auto session = find(*id);
    if (!session) {
        client->send(error_message(fmt::format("there is no session {}", *id), *id));
        return;
    }
    if (type == "subscribe") return session->subscribe(client);
    if (type == "unsubscribe") return session->unsubscribe(client->id());
    if (type == "close") {
        {
            std::lock_guard lock(mutex_);
            const auto found = sessions_.find(*id);
            if (found == sessions_.end()) return;
            if (found->second.owner != client->id()) {
                client->send(error_message("only the page that opened it may close it", *id));
                return;
            }
            sessions_.erase(found);
        }
        close_later(std::move(session));
        return;
    }
    session->handle(message, client);
}

void Hub::create(const std::shared_ptr<Client>& client, const Json& message) {
    const std::string& game = json::text(message, "game");
    const GameFactory* factory = factory_for(game);
    if (!factory) {
        client->send(
            error_message(fmt::format("unknown game '{}': tak, gomoku, twixt, ur or expendibots", clipped(game))));
        return;
    }
    std::int64_t id = 0;
    {
        std::lock_guard lock(mutex_);
        std::size_t owned = 0;
        for (const auto& [key, entry] : sessions_) owned += entry.owner == client->id();
        // With too many, the orphans that waited longest make room first.
        while (sessions_.size() >= max_sessions) {
            auto oldest = sessions_.end();
            for (auto it = sessions_.begin(); it != sessions_.end(); ++it)
                if (it->second.orphaned && (oldest == sessions_.end() || *it->second.orphaned < *oldest->second.orphaned))
                    oldest = it;
            if (oldest == sessions_.end()) break;
            close_later(oldest->second.session);
            sessions_.erase(oldest);
        }
        if (owned >= max_sessions_per_client || sessions_.size() >= max_sessions) {
            client->send(error_message("too many open games and analyses: close one first"));
            return;
        }
        id = next_id_++;
    }
    const std::string& type = json::text(message, "type");
    auto session =
        type == "new_game" ? factory->new_game(id, message, engines_, *engine_options_)
                           : factory->new_analysis(id, message, engines_, engine_options_);
    if (!session) {
        client->send(error_message(session.error()));
        return;
    }
    const std::string token = new_token();
    {
        std::lock_guard lock(mutex_);
        sessions_[id] = Entry{*session, client->id(), token, std::nullopt};
    }
    Json created;
    created["type"] = "created";
    created["id"] = id;
    created["request"] = type;
    created["token"] = token;
    client->send(json::dump(created));
    (*session)->subscribe(client);
}

void Hub::describe_options(const std::shared_ptr<Client>& client, const Json& message) {
    const std::string& name = json::text(message, "engine");
    for (const EngineEntry& entry : engines_) {
        if (entry.config.name != name) continue;
        const GameFactory* factory = factory_for(entry.game);
        if (!factory) break;
        std::weak_ptr<Client> asker = client;
        engine_options_->describe_async(entry, entry.config.dialect.value_or(factory->default_dialect()),
                                        factory->rule_option_names(), [asker](std::string answer) {
                                            if (auto alive = asker.lock()) alive->send(answer);
                                        });
        return;
    }
    client->send(error_message(fmt::format("no engine named '{}' was given to the GUI", clipped(name))));
}

}  // namespace bge::gui
