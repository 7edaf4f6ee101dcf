#pragma once
// A whole match: variant and openings from the configuration, the schedule, `-concurrency`
// worker threads (each with its own engine processes, started on first use and kept between
// games), the report on stdout and the game records. Written once for every game adapter.

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "tools/arbiter/game_runner.hpp"
#include "tools/arbiter/match_report.hpp"
#include "tools/arbiter/openings.hpp"
#include "tools/arbiter/schedule.hpp"

namespace bge::arbiter {

// Exit statuses of the arbiter.
constexpr int exit_complete = 0;
constexpr int exit_stopped = 1;  // an engine failed without -recover, or could not be run at all
constexpr int exit_usage = 2;

inline std::string today() {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    return fmt::format("{:04}.{:02}.{:02}", local.tm_year + 1900, local.tm_mon + 1, local.tm_mday);
}

template <GameAdapter A>
class Match {
public:
    using G = typename A::Game;

    Match(const MatchConfig& config, const typename G::Variant& variant, std::vector<Opening<G>> openings)
        : config_(config),
          variant_(variant),
          openings_(std::move(openings)),
          schedule_(make_schedule(config, static_cast<int>(openings_.size()))),
          report_(engine_names(config), static_cast<int>(schedule_.size())),
          date_(today()) {}

    int run() {
        const std::size_t threads =
            std::min<std::size_t>(static_cast<std::size_t>(config_.concurrency), schedule_.size());
        {
            std::vector<std::jthread> workers;
            for (std::size_t i = 0; i < threads; ++i) workers.emplace_back([this] { play_games(); });
        }
        report_.print_summary();
        if (fatal_ || report_.games_finished() < static_cast<int>(schedule_.size())) return exit_stopped;
        return exit_complete;
    }

private:
    using Players = std::vector<std::unique_ptr<EnginePlayer>>;

    static std::vector<std::string> engine_names(const MatchConfig& config) {
        std::vector<std::string> names;
        for (const EngineConfig& engine : config.engines) names.push_back(engine.name);
        return names;
    }

    std::optional<ScheduledGame> take_next_game() {
        std::lock_guard lock(mutex_);
        if (stopping_ || next_game_ >= schedule_.size()) return std::nullopt;
        const ScheduledGame game = schedule_[next_game_++];
        report_.game_started(game);
        return game;
    }

    EnginePlayer& player(Players& players, int engine) {
        auto& slot = players[static_cast<std::size_t>(engine)];
        if (!slot) {
            const EngineConfig& config = config_.engines[static_cast<std::size_t>(engine)];
            slot = std::make_unique<EnginePlayer>(config, config.dialect.value_or(A::default_dialect));
        }
        return *slot;
    }

    // One worker thread: plays games until the schedule is done or the match stops.
    void play_games() {
        Players players(config_.engines.size());
        while (const auto game = take_next_game()) {
            GameRunner<A> runner(variant_, openings_[static_cast<std::size_t>(game->opening)], config_.max_moves,
                                 {&player(players, game->white), &player(players, game->black)});
            const PlayedGame<G> played = runner.run();
            if (played.fatal_error) {
                stop(fmt::format("arbiter: error: {}; stopping the match\n", *played.fatal_error), true);
                break;
            }
            finish(*game, played);
            if (played.engine_failed && !config_.recover) stop(failure_message(players), false);
        }
        for (auto& engine : players)
            if (engine) engine->quit();
    }

    static std::string failure_message(const Players& players) {
        std::string names;
        for (const auto& engine : players)
            if (engine && engine->needs_restart()) names += (names.empty() ? "" : ", ") + engine->name();
        return fmt::format(
            "arbiter: {} crashed or stopped responding; stopping the match (-recover would restart it)\n", names);
    }

    void finish(const ScheduledGame& game, const PlayedGame<G>& played) {
        report_.game_finished(game, played.end.outcome, describe(played.end, A::rule_phrase(played.end.outcome)));
        if (config_.record_file.empty()) return;
        const RecordInfo info{config_.engines[static_cast<std::size_t>(game.white)].name,
                              config_.engines[static_cast<std::size_t>(game.black)].name, game.round, date_};
        const std::string record = A::format_record(played, info);
        std::lock_guard lock(mutex_);
        std::ofstream file(config_.record_file, std::ios::app | std::ios::binary);
        file << record << '\n';
        if (!file)
            std::fputs(fmt::format("arbiter: warning: cannot write to {}\n", config_.record_file).c_str(), stderr);
    }

    void stop(const std::string& message, bool fatal) {
        std::lock_guard lock(mutex_);
        if (!stopping_) std::fputs(message.c_str(), stderr);
        stopping_ = true;
        fatal_ = fatal_ || fatal;
    }

    const MatchConfig& config_;
    typename G::Variant variant_;
    std::vector<Opening<G>> openings_;
    std::vector<ScheduledGame> schedule_;
    MatchReport report_;
    std::string date_;
    std::mutex mutex_;
    std::size_t next_game_ = 0;
    bool stopping_ = false;
    bool fatal_ = false;
};

// Checks the game-specific settings and the openings, then plays the match. Returns the exit status.
template <GameAdapter A>
int run_match(const MatchConfig& config) {
    auto variant = A::make_variant(config);
    if (!variant) {
        std::fputs(fmt::format("arbiter: error: {}\n", variant.error()).c_str(), stderr);
        return exit_usage;
    }
    auto openings = match_openings<A>(config, *variant);
    if (!openings) {
        std::fputs(fmt::format("arbiter: error: {}\n", openings.error()).c_str(), stderr);
        return exit_usage;
    }
    Match<A> match(config, *variant, std::move(*openings));
    return match.run();
}

}  // namespace bge::arbiter
