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

std::optional<SearchLine> parse_search_line(std::string_view line) {
    const auto words = protocol::split_words(line);
    if (words.empty()) return std::nullopt;
    SearchLine parsed;
    if (words[0] == "MESSAGE") {
        // A pbrain engine's status: ours write an info line after MESSAGE; Rapfi writes its own
        // fields (arbiter::parse_pbrain_status), whose PV it gives in a later line of its own.
        if (words.size() > 1 && words[1] == "depth") {
            auto info = parse_search_line("info " + protocol::join_words(words, 1, words.size()));
            if (info) return info;
        }
        if (auto status = arbiter::parse_pbrain_status(line)) {
            parsed.depth = status->depth;
            parsed.seldepth = status->seldepth;
            parsed.score_cp = status->score_cp;
            parsed.nodes = status->nodes;
            parsed.nps = status->nps;
            parsed.time_ms = status->time_ms;
            parsed.pv = std::move(status->pv);
            return parsed;
        }
        // Rapfi's "MESSAGE Bestline H8 I9 ...": its PV in its own labels.
        if (words.size() > 2 && words[1] == "Bestline")
            if (auto pv = arbiter::pbrain_moves_from_labels({words.begin() + 2, words.begin() + std::min<std::size_t>(words.size(), 66)}))
                parsed.pv = std::move(*pv);
        parsed.text = protocol::join_words(words, 1, words.size());
        return parsed;
    }
    if (words[0] != "info") return std::nullopt;
    auto integer = [&](std::size_t i) -> std::optional<std::int64_t> {
        if (i >= words.size()) return std::nullopt;
        auto value = protocol::parse_integer(words[i], -1'000'000'000'000LL, 1'000'000'000'000'000LL, "value");
        if (!value) return std::nullopt;
        return *value;
    };
    auto small = [](std::optional<std::int64_t> value) -> std::optional<int> {
        if (!value || *value < -1'000'000'000 || *value > 1'000'000'000) return std::nullopt;
        return static_cast<int>(*value);
    };
    for (std::size_t i = 1; i < words.size(); ++i) {
        const std::string_view key = words[i];
        if (key == "string") {
            parsed.text = protocol::join_words(words, i + 1, words.size());
            break;
        }
        if (key == "pv") {
            for (std::size_t j = i + 1; j < words.size() && parsed.pv.size() < 64; ++j) parsed.pv.emplace_back(words[j]);
            break;
        }
        if (key == "depth") parsed.depth = small(integer(++i));
        else if (key == "seldepth") parsed.seldepth = small(integer(++i));
        else if (key == "nodes") parsed.nodes = integer(++i);
        else if (key == "nps") parsed.nps = integer(++i);
        else if (key == "time") parsed.time_ms = integer(++i);
        else if (key == "score" && i + 2 < words.size()) {
            if (words[i + 1] == "cp") parsed.score_cp = small(integer(i + 2));
            else if (words[i + 1] == "mate") parsed.mate = small(integer(i + 2));
            i += 2;
        }
    }
    return parsed;
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
