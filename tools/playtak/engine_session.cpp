#include "tools/playtak/engine_session.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/tak/types.hpp"
#include "protocol/text.hpp"

namespace bge::playtak {

using protocol::ReadStatus;
using SteadyClock = std::chrono::steady_clock;

std::optional<std::string> unplayable_reason(const EngineCapabilities& engine, int size, int half_komi, int pieces,
                                             int capstones) {
    const int min_size = std::max(engine.min_size, tak::min_size);
    const int max_size = std::min(engine.max_size, tak::max_size);
    if (size < min_size || size > max_size)
        return fmt::format("board size {} is outside what the engine plays ({}..{})", size, min_size, max_size);
    if (half_komi != 0) {
        if (!engine.half_komi)
            return fmt::format("komi {} half flats, and the engine has no HalfKomi option", half_komi);
        if (half_komi < engine.half_komi->min || half_komi > engine.half_komi->max)
            return fmt::format("komi {} half flats is outside the engine's HalfKomi range {}..{}", half_komi,
                               engine.half_komi->min, engine.half_komi->max);
    }
    const tak::Reserves standard = tak::reserves_for(size);
    if (pieces > 0 && pieces != standard.stones)
        return fmt::format("{} stones each, not the standard {} for {}x{}", pieces, standard.stones, size, size);
    if (capstones >= 0 && capstones != standard.caps)
        return fmt::format("{} capstones each, not the standard {} for {}x{}", capstones, standard.caps, size, size);
    return std::nullopt;
}

namespace {

// "option name <name words> type <type> [default <d>] [min <m>] [max <M>] ..."
struct DeclaredOption {
    std::string name;
    std::optional<SpinRange> range;
};

std::optional<DeclaredOption> parse_option_line(const std::string& line) {
    const auto words = protocol::split_words(line);
    if (words.size() < 3 || words[0] != "option" || words[1] != "name") return std::nullopt;
    std::size_t type_at = 2;
    while (type_at < words.size() && words[type_at] != "type") ++type_at;
    DeclaredOption option{protocol::join_words(words, 2, type_at), std::nullopt};
    std::optional<std::int64_t> min, max;
    for (std::size_t i = type_at; i + 1 < words.size(); ++i) {
        if (words[i] == "min") {
            if (auto value = protocol::parse_integer(words[i + 1], -1'000'000, 1'000'000, "min")) min = *value;
        } else if (words[i] == "max") {
            if (auto value = protocol::parse_integer(words[i + 1], -1'000'000, 1'000'000, "max")) max = *value;
        }
    }
    if (min && max) option.range = SpinRange{static_cast<int>(*min), static_cast<int>(*max)};
    return option;
}

}  // namespace

bool EngineSession::send(const std::string& line) {
    log_.debug(fmt::format("engine < {}", line));
    if (process_.write_line(line)) return true;
    log_.info(fmt::format("engine: cannot write '{}': {}", line, process_.error()));
    return false;
}

Status EngineSession::wait_for(const std::string& wanted, std::chrono::milliseconds timeout) {
    const auto deadline = SteadyClock::now() + timeout;
    for (;;) {
        const auto read = process_.read_line_until(deadline);
        if (read.status == ReadStatus::closed) return make_error(fmt::format("the engine exited before '{}'", wanted));
        if (read.status == ReadStatus::timeout)
            return make_error(fmt::format("no '{}' from the engine within {} ms", wanted, timeout.count()));
        log_.debug(fmt::format("engine > {}", read.line));
        if (read.line == wanted) return success();
    }
}

Status EngineSession::start() {
    process_.kill();
    protocol::ProcessOptions options;
    options.command = config_.command;
    options.arguments = config_.arguments;
    options.stderr_path = config_.stderr_path;
    if (!process_.start(options)) return make_error(process_.error());
    log_.info(fmt::format("engine started: {} (pid {})", config_.command, process_.pid()));
    if (!send("tei")) return make_error("the engine does not read its input");

    EngineCapabilities found;
    found.name = config_.command;
    const auto deadline = SteadyClock::now() + config_.startup_timeout;
    for (;;) {
        const auto read = process_.read_line_until(deadline);
        if (read.status == ReadStatus::closed) {
            process_.kill();
            return make_error("the engine exited during the handshake (is it a TEI engine?)");
        }
        if (read.status == ReadStatus::timeout) {
            process_.kill();
            return make_error(fmt::format("no 'teiok' from the engine within {} ms (is it a TEI engine?)",
                                          config_.startup_timeout.count()));
        }
        log_.debug(fmt::format("engine > {}", read.line));
        if (read.line == "teiok") break;
        if (read.line.starts_with("id name ")) found.name = read.line.substr(8);
        auto option = parse_option_line(read.line);
        if (!option) continue;
        if (protocol::equals_ignoring_case(option->name, "HalfKomi"))
            found.half_komi = option->range.value_or(SpinRange{-1'000'000, 1'000'000});
        if (protocol::equals_ignoring_case(option->name, "Size") && option->range) {
            found.min_size = option->range->min;
            found.max_size = option->range->max;
        }
    }
    capabilities_ = found;
    for (const auto& [name, value] : config_.options)
        if (!send(fmt::format("setoption name {} value {}", name, value)))
            return make_error("the engine stopped reading its input");
    return success();
}

Status EngineSession::new_game(int size, int half_komi) {
    if (capabilities_.half_komi && !send(fmt::format("setoption name HalfKomi value {}", half_komi)))
        return make_error("the engine stopped reading its input");
    if (!send(fmt::format("teinewgame {}", size)) || !send("isready"))
        return make_error("the engine stopped reading its input");
    return wait_for("readyok", config_.startup_timeout);
}

std::optional<std::string> EngineSession::stop_and_collect() {
    if (!send("stop")) return std::nullopt;
    const auto deadline = SteadyClock::now() + stop_timeout;
    for (;;) {
        const auto read = process_.read_line_until(deadline);
        if (read.status != ReadStatus::line) {
            log_.info("engine: no bestmove after stop; killing it");
            process_.kill();
            return std::nullopt;
        }
        const auto words = protocol::split_words(read.line);
        if (!words.empty() && words[0] == "bestmove") return words.size() > 1 ? std::string(words[1]) : std::string();
    }
}

SearchOutcome EngineSession::search(const std::string& position, const std::string& go,
                                    std::chrono::milliseconds budget, const std::function<bool()>& cancelled) {
    SearchOutcome outcome;
    if (!send(position) || !send(go)) {
        outcome.error = "the engine stopped reading its input";
        return outcome;
    }
    const auto deadline = SteadyClock::now() + budget;
    constexpr auto slice = std::chrono::milliseconds(20);
    for (;;) {
        const auto read = process_.read_line_until(std::min(deadline, SteadyClock::now() + slice));
        if (read.status == ReadStatus::closed) {
            outcome.error = "the engine exited during a search";
            return outcome;
        }
        if (read.status == ReadStatus::timeout) {
            if (cancelled()) {
                stop_and_collect();
                outcome.kind = SearchOutcome::Kind::cancelled;
                return outcome;
            }
            if (SteadyClock::now() < deadline) continue;
            log_.info(fmt::format("engine: no move within {} ms; sending stop", budget.count()));
            if (auto move = stop_and_collect()) {
                outcome.kind = SearchOutcome::Kind::move;
                outcome.move = *move;
                return outcome;
            }
            outcome.error = "the engine did not answer stop";
            return outcome;
        }
        log_.debug(fmt::format("engine > {}", read.line));
        const auto words = protocol::split_words(read.line);
        if (!words.empty() && words[0] == "bestmove") {
            outcome.kind = SearchOutcome::Kind::move;
            outcome.move = words.size() > 1 ? std::string(words[1]) : std::string();
            return outcome;
        }
    }
}

std::string EngineSession::exit_description() const {
    const auto status = process_.exit_status();
    if (!status) return "running";
    if (*status < 0) return fmt::format("killed by signal {}", -*status);
    return fmt::format("exit status {}", *status);
}

void EngineSession::quit() {
    if (!process_.running()) return;
    if (process_.write_line("quit") && process_.wait_for_exit(quit_timeout)) return;
    process_.kill();
}

}  // namespace bge::playtak
