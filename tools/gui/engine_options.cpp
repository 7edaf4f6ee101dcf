#include "tools/gui/engine_options.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "protocol/search_options.hpp"
#include "protocol/text.hpp"
#include "tools/arbiter/engine_player.hpp"

namespace bge::gui {

namespace {

bool contains_ignoring_case(std::string_view text, std::string_view part) {
    return std::search(text.begin(), text.end(), part.begin(), part.end(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
           }) != text.end();
}

std::int64_t memory_mib() {
    const std::int64_t memory = protocol::machine_memory_mib();
    return memory > 0 ? memory : 1024;
}

}  // namespace

std::int64_t engine_option_limit(const protocol::Option& option) {
    std::int64_t limit = option.max;
    const std::string_view name = option.name;
    if (contains_ignoring_case(name, "thread") || protocol::equals_ignoring_case(name, "Workers"))
        limit = std::min<std::int64_t>(limit, protocol::machine_cores());
    const bool memory = name.size() >= 6 && protocol::equals_ignoring_case(name.substr(name.size() - 6), "memory");
    if (protocol::equals_ignoring_case(name, "Hash") || memory) limit = std::min(limit, memory_mib() / 2);
    return std::max(limit, option.min);
}

bool page_may_set(const protocol::Option& option, std::span<const std::string_view> rule_options) {
    if (option.type != protocol::OptionType::spin && option.type != protocol::OptionType::check &&
        option.type != protocol::OptionType::combo)
        return false;
    return std::none_of(rule_options.begin(), rule_options.end(),
                        [&](std::string_view rule) { return protocol::equals_ignoring_case(rule, option.name); });
}

namespace {

Json page_options(const EngineEntry& entry, const std::vector<protocol::Option>& declared,
                  std::span<const std::string_view> rule_options) {
    Json list = Json::array();
    for (const auto& option : declared) {
        if (!page_may_set(option, rule_options)) continue;
        Json item;
        item["name"] = option.name;
        std::string value = option.default_value;
        for (const auto& [name, configured] : entry.config.options)
            if (protocol::equals_ignoring_case(name, option.name)) value = configured;
        switch (option.type) {
            case protocol::OptionType::spin:
                item["type"] = "spin";
                item["min"] = option.min;
                item["max"] = engine_option_limit(option);
                item["default"] = option.as_integer();
                {
                    auto number = protocol::parse_integer(value, option.min, option.max, "value");
                    item["value"] = number ? *number : option.as_integer();
                }
                break;
            case protocol::OptionType::check:
                item["type"] = "check";
                item["default"] = option.default_value == "true";
                item["value"] = value == "true";
                break;
            default:
                item["type"] = "combo";
                item["default"] = option.default_value;
                item["value"] = value;
                item["choices"] = option.choices;
                break;
        }
        list.push_back(std::move(item));
    }
    return list;
}

}  // namespace

EngineOptionsCache::~EngineOptionsCache() {
    std::vector<Asker> askers;
    {
        std::lock_guard lock(mutex_);
        askers.swap(askers_);
    }
    // Joined here, while the cache still stands: each ends within its engine's start-up timeout.
}

Expected<std::vector<protocol::Option>> EngineOptionsCache::declared(const EngineEntry& entry,
                                                                    protocol::Dialect dialect) {
    {
        std::lock_guard lock(mutex_);
        if (const auto found = known_.find(entry.config.name); found != known_.end()) return found->second;
    }
    std::vector<protocol::Option> options;
    if (dialect != protocol::Dialect::pbrain) {
        // Only the process and the handshake: the configured options are not sent to it.
        arbiter::EngineConfig bare = entry.config;
        bare.options.clear();
        arbiter::EnginePlayer engine(bare, dialect);
        if (engine.ensure_running() != arbiter::EngineStatus::ok)
            return make_error(engine.last_error().empty() ? fmt::format("engine {} did not start", entry.config.name)
                                                          : engine.last_error());
        options = engine.declared_options();
        engine.quit();
    }
    std::lock_guard lock(mutex_);
    known_[entry.config.name] = options;
    return options;
}

void EngineOptionsCache::describe_async(const EngineEntry& entry, protocol::Dialect dialect,
                                        std::span<const std::string_view> rule_options,
                                        std::function<void(std::string)> done) {
    {
        std::unique_lock lock(mutex_);
        if (const auto found = known_.find(entry.config.name); found != known_.end()) {
            Expected<std::vector<protocol::Option>> options = found->second;
            lock.unlock();
            done(page_message(entry, options, rule_options));
            return;
        }
    }
    std::vector<std::string> rules(rule_options.begin(), rule_options.end());
    auto finished = std::make_shared<std::atomic<bool>>(false);
    std::lock_guard lock(mutex_);
    std::erase_if(askers_, [](const Asker& asker) { return asker.finished->load(); });  // joins at once
    askers_.push_back({finished, std::jthread([this, entry, dialect, finished, rules = std::move(rules), done = std::move(done)] {
        std::vector<std::string_view> rule_views(rules.begin(), rules.end());
        done(page_message(entry, declared(entry, dialect), rule_views));
        finished->store(true);
    })});
}

std::string EngineOptionsCache::page_message(const EngineEntry& entry,
                                             const Expected<std::vector<protocol::Option>>& declared,
                                             std::span<const std::string_view> rule_options) {
    Json message;
    message["type"] = "engine_options";
    message["engine"] = entry.config.name;
    message["game"] = entry.game;
    // A failure shows where the options would be; the engine's own failure shows again when it plays.
    message["options"] = declared ? page_options(entry, *declared, rule_options) : Json::array();
    if (!declared) message["error"] = declared.error();
    return json::dump(message);
}

Expected<arbiter::EngineConfig> EngineOptionsCache::configure(const EngineEntry& entry, protocol::Dialect dialect,
                                                             const Json& values,
                                                             std::span<const std::string_view> rule_options,
                                                             bool may_ask) {
    arbiter::EngineConfig config = entry.config;
    if (values.is_null() || (values.is_object() && values.empty())) return config;
    if (!values.is_object()) return make_error("options must be an object: {\"Name\": value, ...}");
    if (values.size() > 200) return make_error("too many options");
    if (!may_ask) {
        std::lock_guard lock(mutex_);
        if (!known_.contains(entry.config.name))
            return make_error(fmt::format("the options of engine {} are not known yet: ask for them first "
                                          "({{\"type\": \"engine_options\", \"engine\": \"{}\"}})",
                                          entry.config.name, entry.config.name));
    }
    auto declared_options = declared(entry, dialect);
    if (!declared_options) return make_error(declared_options.error());
    for (const auto& [name, value] : values.items()) {
        const protocol::Option* option = protocol::find_option(*declared_options, name);
        if (!option) return make_error(fmt::format("engine {} has no option '{}'", entry.config.name, clipped(name)));
        if (!page_may_set(*option, rule_options))
            return make_error(fmt::format("option {} of engine {} is set on the command line or by the rules, not here",
                                          option->name, entry.config.name));
        std::string text;
        if (option->type == protocol::OptionType::spin) {
            const auto number = value.is_number_integer() ? json::integer(value) : std::nullopt;
            const std::int64_t limit = engine_option_limit(*option);
            if (!number || *number < option->min || *number > limit)
                return make_error(fmt::format("option {} must be a whole number from {} to {}", option->name,
                                              option->min, limit));
            text = std::to_string(*number);
        } else if (option->type == protocol::OptionType::check) {
            if (!value.is_boolean()) return make_error(fmt::format("option {} must be true or false", option->name));
            text = value.get<bool>() ? "true" : "false";
        } else {
            const auto& choices = option->choices;
            if (!value.is_string() || std::find(choices.begin(), choices.end(), value.get<std::string>()) == choices.end())
                return make_error(fmt::format("option {} must be one of: {}", option->name, fmt::join(choices, ", ")));
            text = value.get<std::string>();
        }
        // In place of a configured value of the same name, else after them.
        auto& configured = config.options;
        const auto same = std::find_if(configured.begin(), configured.end(), [&](const auto& pair) {
            return protocol::equals_ignoring_case(pair.first, option->name);
        });
        if (same != configured.end()) same->second = text;
        else configured.emplace_back(option->name, text);
    }
    return config;
}

}  // namespace bge::gui
