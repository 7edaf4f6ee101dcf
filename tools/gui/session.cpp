#include "tools/gui/session.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "protocol/text.hpp"
#include "tools/arbiter/engine_player.hpp"

namespace bge::gui {

std::string error_message(std::string_view message, std::optional<std::int64_t> session) {
    Json value;
    value["type"] = "error";
    if (session) value["id"] = *session;
    value["message"] = message;
    return json::dump(value);
}

void Subscribers::add(const std::shared_ptr<Client>& client) {
    std::lock_guard lock(mutex_);
    clients_.push_back(client);
}

void Subscribers::remove(std::uint64_t client_id) {
    std::lock_guard lock(mutex_);
    std::erase_if(clients_, [&](const std::weak_ptr<Client>& weak) {
        auto client = weak.lock();
        return !client || client->id() == client_id;
    });
}

void Subscribers::send_all(const std::string& message) {
    std::vector<std::shared_ptr<Client>> live;
    {
        std::lock_guard lock(mutex_);
        std::erase_if(clients_, [](const std::weak_ptr<Client>& weak) { return weak.expired(); });
        for (const auto& weak : clients_)
            if (auto client = weak.lock()) live.push_back(std::move(client));
    }
    for (const auto& client : live) client->send(message);
}

bool Subscribers::empty() {
    std::lock_guard lock(mutex_);
    std::erase_if(clients_, [](const std::weak_ptr<Client>& weak) { return weak.expired(); });
    return clients_.empty();
}

Json search_line_json(const SearchLine& line) {
    Json value = Json::object();
    if (line.depth) value["depth"] = *line.depth;
    if (line.seldepth) value["seldepth"] = *line.seldepth;
    if (line.score_cp) value["score"] = *line.score_cp;
    if (line.mate) value["mate"] = *line.mate;
    if (line.nodes) value["nodes"] = *line.nodes;
    if (line.nps) value["nps"] = *line.nps;
    if (line.time_ms) value["time"] = *line.time_ms;
    if (!line.text.empty()) value["text"] = line.text;
    return value;
}

Expected<std::optional<std::int64_t>> optional_integer(const Json& message, std::string_view key,
                                                       std::int64_t minimum, std::int64_t maximum) {
    const Json& value = json::member(message, key);
    if (value.is_null()) return std::optional<std::int64_t>{};
    const auto number = value.is_number_integer() ? json::integer(value) : std::nullopt;
    if (!number || *number < minimum || *number > maximum)
        return make_error(fmt::format("{} must be a whole number from {} to {}", key, minimum, maximum));
    return std::optional<std::int64_t>{*number};
}

Expected<std::string> optional_text(const Json& message, std::string_view key) {
    const Json& value = json::member(message, key);
    if (value.is_null()) return std::string();
    if (!value.is_string()) return make_error(fmt::format("{} must be text", key));
    return value.get<std::string>();
}

std::string clipped(std::string_view text) {
    constexpr std::size_t shown = 60;
    return text.size() <= shown ? std::string(text)
                                : fmt::format("{}... ({} bytes)", text.substr(0, shown), text.size());
}

Json shown_search_line(const Json& previous, const SearchLine& line, Json pv) {
    const bool words_only = !line.depth && !line.score_cp && !line.mate && !line.nodes;
    if (words_only && previous.is_object() && previous.contains("depth")) {
        Json shown = previous;
        shown["text"] = line.text;
        if (!line.pv.empty()) shown["pv"] = std::move(pv);  // Rapfi's Bestline: a PV for the shown depth
        return shown;
    }
    Json shown = search_line_json(line);
    // A line without a PV (Rapfi's closing "Speed ... | Depth ..." line, a UCI `info depth 9
    // currmove ...`) keeps the search's last PV.
    const bool keep_pv = line.pv.empty() && previous.is_object() && previous.contains("pv") &&
                         previous["pv"].is_object() && !json::member(previous["pv"], "moves").empty();
    shown["pv"] = keep_pv ? previous["pv"] : std::move(pv);
    return shown;
}

}  // namespace bge::gui
