#pragma once
// Engine options on the page: what each engine declares (`option name Hash type spin default 64
// min 1 max 65536`), learnt by starting it once, and the page's values for them, checked here
// before any reaches an engine. The page may set spin, check and combo options within what the
// engine declares and within the machine (engine_option_limit). Strings (file paths) and buttons
// stay with the command line and the config file, as the engines themselves do; so do the options
// the game's rules set (the arbiter's rule options, such as HalfKomi).

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/expected.hpp"
#include "protocol/options.hpp"
#include "tools/gui/session.hpp"

namespace bge::gui {

// The highest value the page may give a spin option: its declared max, and for the machine's
// sake no more threads than it has (names with "Thread", and "Workers") and no more than half its
// memory in MiB ("Hash", names ending in "Memory").
std::int64_t engine_option_limit(const protocol::Option& option);

// Whether the page may set the option (a spin, check or combo that the rules do not set).
bool page_may_set(const protocol::Option& option, std::span<const std::string_view> rule_options);

class EngineOptionsCache {
public:
    EngineOptionsCache() = default;
    ~EngineOptionsCache();
    EngineOptionsCache(const EngineOptionsCache&) = delete;
    EngineOptionsCache& operator=(const EngineOptionsCache&) = delete;

    // What the engine declares; the first call starts it, handshakes and quits it (blocking, up to
    // its start-up timeout). A pbrain engine declares nothing. An engine that fails to start is
    // an error, asked again next time.
    Expected<std::vector<protocol::Option>> declared(const EngineEntry& entry, protocol::Dialect dialect);

    // declared() on a thread of its own; `done` gets the page's message
    // {"type": "engine_options", "engine", "game", "options": [...]}, with "error" (and no
    // options) when the engine could not be asked.
    void describe_async(const EngineEntry& entry, protocol::Dialect dialect,
                        std::span<const std::string_view> rule_options, std::function<void(std::string)> done);

    // The entry's configuration with the page's values ({"Hash": 128, "Ponder": true, "Style":
    // "sharp"}) in place of or after the configured ones. Each must be an option the page may set
    // and a value within its limits; null or an empty object changes nothing and asks nothing.
    // Without `may_ask` (on the server's one I/O thread, which an engine slow to start would
    // hold up) an engine not asked yet is an error: the page asks first, to show the fields.
    Expected<arbiter::EngineConfig> configure(const EngineEntry& entry, protocol::Dialect dialect, const Json& values,
                                              std::span<const std::string_view> rule_options, bool may_ask = true);

private:
    struct Asker {
        std::shared_ptr<std::atomic<bool>> finished;
        std::jthread thread;
    };
    // The page's message: "options", [{"name", "type", "default", "value" (the command line's,
    // else the default), "min", "max" (engine_option_limit), "choices"}] of those it may set; or
    // an empty list and "error" when the engine could not be asked.
    static std::string page_message(const EngineEntry& entry, const Expected<std::vector<protocol::Option>>& declared,
                                    std::span<const std::string_view> rule_options);

    std::mutex mutex_;
    std::map<std::string, std::vector<protocol::Option>> known_;  // by engine name
    std::vector<Asker> askers_;
};

}  // namespace bge::gui
