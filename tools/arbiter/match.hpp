#pragma once
// A whole match: the variant and openings from the configuration, this shard's part of the
// schedule, `-concurrency` worker threads (each with its own engine processes, started on first
// use and kept between games), the report on stdout, and the files: game records (-pgnout), the
// state journal (-state, for -resume) and the results file (-jsonout). Written once for every
// game adapter.
//
// Exactly once, even across SIGKILL: a finished game goes to the journal (on disk) first, then to
// the record file and the results. On -resume the record file is cut back to where this match
// began and rewritten from the journal, so a game the journal lost is neither kept nor counted.

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "tools/arbiter/game_runner.hpp"
#include "tools/arbiter/journal.hpp"
#include "tools/arbiter/match_report.hpp"
#include "tools/arbiter/openings.hpp"
#include "tools/arbiter/results.hpp"
#include "tools/arbiter/results_file.hpp"
#include "tools/arbiter/schedule.hpp"

namespace bge::arbiter {

// Exit statuses of the arbiter.
constexpr int exit_complete = 0;     // every game played, or the SPRT decided
constexpr int exit_stopped = 1;      // an engine failed without -recover, or could not be run at all
constexpr int exit_usage = 2;        // bad command line, openings or state file
constexpr int exit_interrupted = 130;  // SIGINT or SIGTERM: the summary so far was printed

// Set by SIGINT/SIGTERM: no new game starts, running games are abandoned (and replayed on
// -resume), the summary is printed. A second signal ends the arbiter at once.
inline std::atomic<bool> interrupt_requested{false};

inline void install_interrupt_handler() {
    struct sigaction action {};
    action.sa_handler = [](int) { interrupt_requested.store(true); };
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

// Sees a whole match (the live feed, -feed and -live; the GUI's watch page): its games as they
// start, play and end. Called on the match's worker threads.
template <Game G>
class MatchObserver {
public:
    virtual ~MatchObserver() = default;
    // `results` holds the games a resumed match had already played.
    virtual void match_started(const MatchDescription& match, const Results& results) = 0;
    // Returns the observer of that game's moves, or null.
    virtual GameObserver<G>* game_started(const ScheduledGame& game) = 0;
    // After the game was counted; `results` holds every finished game (called under the match's lock).
    virtual void game_finished(const ScheduledGame& game, const FinishedGame& finished, const Results& results,
                               const MatchDescription& match) = 0;
    virtual void match_finished(const Results& results) = 0;
};

template <GameAdapter A>
class Match {
public:
    using G = typename A::Game;

    Match(const MatchConfig& config, std::vector<std::string> arguments, const typename G::Variant& variant,
          std::vector<Opening<G>> openings)
        : config_(config),
          arguments_(std::move(arguments)),
          variant_(variant),
          openings_(std::move(openings)),
          full_schedule_(make_schedule(config, static_cast<int>(openings_.size()))),
          shard_schedule_(shard_of(full_schedule_, config.shard)),
          results_(engine_names(config), engine_pairs(config.tournament, static_cast<int>(config.engines.size()))),
          date_(today()),
          engine_ids_(config.engines.size()) {
        adjudication_.max_moves = config.max_moves;
        adjudication_.draw = config.draw_adjudication;
        adjudication_.resign = config.resign_adjudication;
        adjudication_.interrupt = &interrupt_requested;
        if (config.sprt) sprt_config_ = SprtConfig{config.sprt->elo0, config.sprt->elo1, config.sprt->alpha, config.sprt->beta};
    }

    // Takes over the games of an earlier run of this match (from its journal).
    Status resume_from(const JournalContents& journal) {
        for (const FinishedGame& game : journal.games) {
            const ScheduledGame* scheduled = find_scheduled(game.scheduled.number);
            if (!scheduled || scheduled->white != game.scheduled.white || scheduled->black != game.scheduled.black ||
                scheduled->opening != game.scheduled.opening)
                return make_error(fmt::format("the state file's game {} does not belong to this schedule",
                                              game.scheduled.number));
            if (!results_.contains(game.scheduled.number)) results_.add(game);
        }
        record_file_offset_ = journal.header.record_file_offset;
        resumed_ = true;
        return success();
    }

    void set_observer(MatchObserver<G>* observer) { observer_ = observer; }

    int run() {
        if (auto status = open_files(); !status) {
            std::fputs(fmt::format("arbiter: error: {}\n", status.error()).c_str(), stderr);
            return exit_usage;
        }
        for (const ScheduledGame& game : shard_schedule_)
            if (!results_.contains(game.number)) pending_.push_back(game);
        resumed_games_ = results_.games().size();
        started_ = std::chrono::steady_clock::now();
        report_.emplace(engine_names(config_), static_cast<int>(full_schedule_.size()),
                        static_cast<int>(pending_.size()));
        if (resumed_)
            std::fputs(fmt::format("arbiter: resuming: {} of {} games already played\n", results_.games().size(),
                                   shard_schedule_.size())
                           .c_str(),
                       stderr);
        if (sprt_config_ && config_.shard.count > 1)
            std::fputs(fmt::format("arbiter: shard {}/{} plays all its games; `arbiter merge` judges the SPRT on the "
                                   "merged shards\n",
                                   config_.shard.index, config_.shard.count)
                           .c_str(),
                       stderr);
        check_sprt();  // a resumed match may already be decided
        if (observer_) observer_->match_started(description(), results_);
        const std::size_t threads = std::min<std::size_t>(static_cast<std::size_t>(config_.concurrency), pending_.size());
        {
            std::vector<std::jthread> workers;
            for (std::size_t i = 0; i < threads; ++i) workers.emplace_back([this] { play_games(); });
        }
        write_results(true);
        if (observer_) observer_->match_finished(results_);
        report_->summary(results_, sprt_status(), sprt_config_);
        report_usage();
        if (interrupt_requested.load()) {
            std::fputs(config_.state_file.empty()
                           ? "arbiter: interrupted; games not finished were not counted\n"
                           : fmt::format("arbiter: interrupted; `arbiter -resume {}` plays the rest\n", config_.state_file)
                                 .c_str(),
                       stderr);
            return exit_interrupted;
        }
        if (fatal_) return exit_stopped;
        if (sprt_decided_) return exit_complete;
        return results_.games().size() < shard_schedule_.size() ? exit_stopped : exit_complete;
    }

private:
    using Players = std::vector<std::unique_ptr<EnginePlayer>>;

    static std::vector<std::string> engine_names(const MatchConfig& config) {
        std::vector<std::string> names;
        for (const EngineConfig& engine : config.engines) names.push_back(engine.name);
        return names;
    }

    const ScheduledGame* find_scheduled(int number) const {
        for (const ScheduledGame& game : shard_schedule_)
            if (game.number == number) return &game;
        return nullptr;
    }

    // Throughput and the arbiter's own share of the CPU, for tuning match set-ups (stderr).
    void report_usage() const {
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        const double cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        const std::size_t played = results_.games().size() - resumed_games_;
        std::fputs(fmt::format("arbiter: {} game{} in {:.1f} s ({:.1f} games/s); arbiter CPU {:.2f} s ({:.1f}% of one "
                               "core)\n",
                               played, played == 1 ? "" : "s", wall, wall > 0 ? static_cast<double>(played) / wall : 0.0, cpu,
                               wall > 0 ? 100.0 * cpu / wall : 0.0)
                       .c_str(),
                   stderr);
    }

    MatchDescription description() const {
        MatchDescription d;
        d.game = config_.game;
        d.variant = A::variant_text(variant_);
        d.arguments = arguments_;
        d.seed = config_.seed;
        d.shard = config_.shard;
        d.engine_names = engine_names(config_);
        for (const EngineConfig& engine : config_.engines) d.engine_commands.push_back(engine.command);
        d.engine_ids = engine_ids_;
        d.tournament = config_.tournament;
        d.games_per_encounter = config_.games_per_encounter;
        d.scheduled_games = static_cast<int>(shard_schedule_.size());
        d.total_games = static_cast<int>(full_schedule_.size());
        d.sprt = config_.sprt;
        return d;
    }

    // The record file keeps what it held before this match; the journal is the truth about ours.
    Status open_files() {
        if (!config_.record_file.empty()) {
            std::error_code error;
            const auto size = std::filesystem::file_size(config_.record_file, error);
            if (!resumed_) {
                record_file_offset_ = error ? 0 : static_cast<std::int64_t>(size);
            } else {
                if (!error && static_cast<std::int64_t>(size) > record_file_offset_)
                    std::filesystem::resize_file(config_.record_file, static_cast<std::uintmax_t>(record_file_offset_),
                                                 error);
                std::string records;
                for (const FinishedGame& game : results_.games()) records += game.record + "\n";
                if (auto status = append_records(records); !status) return status;
            }
        }
        if (!config_.state_file.empty()) {
            auto journal = resumed_ ? Journal::reopen(config_.state_file)
                                    : Journal::create(config_.state_file, {arguments_, record_file_offset_});
            if (!journal) return make_error(journal.error());
            journal_ = std::move(*journal);
        }
        return success();
    }

    Status append_records(const std::string& text) {
        if (config_.record_file.empty() || text.empty()) return success();
        std::ofstream file(config_.record_file, std::ios::app | std::ios::binary);
        file << text;
        file.flush();
        if (!file) return make_error(fmt::format("cannot write to {}", config_.record_file));
        return success();
    }

    std::optional<ScheduledGame> take_next_game() {
        std::lock_guard lock(mutex_);
        if (stopping_ || interrupt_requested.load() || next_game_ >= pending_.size()) return std::nullopt;
        const ScheduledGame game = pending_[next_game_++];
        report_->game_started(game);
        return game;
    }

    EnginePlayer& player(Players& players, int engine) {
        auto& slot = players[static_cast<std::size_t>(engine)];
        if (!slot) {
            const EngineConfig& config = config_.engines[static_cast<std::size_t>(engine)];
            slot = std::make_unique<EnginePlayer>(config, config.dialect.value_or(A::default_dialect),
                                                  config_.timeouts, &interrupt_requested);
        }
        return *slot;
    }

    // One worker thread: plays games until the schedule is done or the match stops.
    void play_games() {
        Players players(config_.engines.size());
        while (const auto game = take_next_game()) {
            std::uint64_t dice_seed = config_.seed ^ (0xD1CE000000000000ULL + static_cast<std::uint64_t>(game->encounter));
            dice_seed = splitmix64(dice_seed);
            GameObserver<G>* game_observer = observer_ ? observer_->game_started(*game) : nullptr;
            GameRunner<A> runner(variant_, openings_[static_cast<std::size_t>(game->opening)], adjudication_,
                                 {&player(players, game->white), &player(players, game->black)}, dice_seed,
                                 game_observer);
            const PlayedGame<G> played = runner.run();
            remember_identity(game->white, players);
            remember_identity(game->black, players);
            if (played.fatal_error) {
                stop(fmt::format("arbiter: error: {}; stopping the match\n", *played.fatal_error), true);
                break;
            }
            if (played.interrupted) break;
            // Stopping a whole run (Ctrl-C in a terminal, scancel of a cluster task, a shutdown)
            // signals the engines as well as the arbiter, and an engine may die first: a game lost
            // by a disconnect is not counted when the arbiter's own stop follows within a moment
            // (-resume plays it again).
            if (played.end.termination == Termination::disconnect && stop_follows()) break;
            finish(*game, played);
            if (played.engine_failed && !config_.recover) stop(failure_message(players), false);
        }
        for (auto& engine : players)
            if (engine) engine->quit();
    }

    static bool stop_follows() {
        for (int waited = 0; waited < 500 && !interrupt_requested.load(); waited += 10)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        return interrupt_requested.load();
    }

    // What an engine said it is, for the results file: the last non-empty answer of any of its
    // processes (each worker thread runs its own).
    void remember_identity(int engine, const Players& players) {
        const auto& slot = players[static_cast<std::size_t>(engine)];
        if (!slot || slot->identity().empty()) return;
        std::lock_guard lock(mutex_);
        engine_ids_[static_cast<std::size_t>(engine)] = slot->identity();
    }

    static std::string failure_message(const Players& players) {
        std::string names;
        for (const auto& engine : players)
            if (engine && engine->needs_restart()) names += (names.empty() ? "" : ", ") + engine->name();
        return fmt::format(
            "arbiter: {} crashed or stopped responding; stopping the match (-recover would restart it)\n", names);
    }

    FinishedGame summarize(const ScheduledGame& game, const PlayedGame<G>& played) const {
        FinishedGame finished;
        finished.scheduled = game;
        finished.result = result_score(played.end.outcome);
        finished.termination = termination_tag(played.end);
        finished.reason = describe(played.end, A::rule_phrase(played.end.outcome), A::side_names);
        finished.plies = static_cast<int>(played.moves.size());
        const RecordInfo info{config_.engines[static_cast<std::size_t>(game.white)].name,
                              config_.engines[static_cast<std::size_t>(game.black)].name, game.round, date_};
        finished.record = A::format_record(played, info);
        return finished;
    }

    void finish(const ScheduledGame& game, const PlayedGame<G>& played) {
        FinishedGame finished = summarize(game, played);
        std::lock_guard lock(mutex_);
        if (auto status = journal_.append(finished); !status) {
            // Without the journal the game cannot be counted safely; stop rather than lose track.
            std::fputs(fmt::format("arbiter: error: {}; stopping the match\n", status.error()).c_str(), stderr);
            stopping_ = fatal_ = true;
            return;
        }
        if (auto status = append_records(finished.record + "\n"); !status)
            std::fputs(fmt::format("arbiter: warning: {}\n", status.error()).c_str(), stderr);
        results_.add(std::move(finished));
        report_->game_finished(results_.games().back(), results_);
        if (observer_) observer_->game_finished(game, results_.games().back(), results_, description());
        if (config_.rating_interval > 0 && results_.games().size() % static_cast<std::size_t>(config_.rating_interval) == 0)
            report_->ratings(results_);
        check_sprt();
        write_results(false);
    }

    std::optional<SprtStatus> sprt_status() const {
        if (!sprt_config_ || results_.pairs().empty()) return std::nullopt;
        if (config_.games_per_encounter == 2) return sprt(results_.pentanomial(0), *sprt_config_);
        return sprt(results_.tally(0), *sprt_config_);
    }

    // Ends the match once the SPRT accepts a hypothesis (games already running still count). A
    // shard plays all its games: the SPRT is judged on the merged shards (arbiter merge).
    void check_sprt() {
        if (config_.shard.count > 1) return;
        const auto status = sprt_status();
        if (!status || status->verdict == SprtStatus::Verdict::continue_testing || sprt_decided_) return;
        sprt_decided_ = true;
        stopping_ = true;
        report_->line(fmt::format("SPRT: H{} accepted (LLR {:.2f})",
                                  status->verdict == SprtStatus::Verdict::accept_h1 ? 1 : 0, status->llr));
    }

    // The results file is rewritten at most once a second while games finish, and at the end.
    void write_results(bool final) {
        if (config_.results_file.empty()) return;
        const auto now = std::chrono::steady_clock::now();
        if (!final && now - last_results_write_ < std::chrono::seconds(1)) return;
        last_results_write_ = now;
        if (auto status = write_results_file(config_.results_file, description(), results_); !status)
            std::fputs(fmt::format("arbiter: warning: {}\n", status.error()).c_str(), stderr);
    }

    void stop(const std::string& message, bool fatal) {
        std::lock_guard lock(mutex_);
        if (!stopping_) std::fputs(message.c_str(), stderr);
        stopping_ = true;
        fatal_ = fatal_ || fatal;
    }

    const MatchConfig& config_;
    std::vector<std::string> arguments_;
    typename G::Variant variant_;
    std::vector<Opening<G>> openings_;
    std::vector<ScheduledGame> full_schedule_;
    std::vector<ScheduledGame> shard_schedule_;
    std::vector<ScheduledGame> pending_;
    Results results_;
    Adjudication adjudication_;
    std::optional<SprtConfig> sprt_config_;
    std::optional<MatchReport> report_;
    Journal journal_;
    std::int64_t record_file_offset_ = 0;
    bool resumed_ = false;
    std::string date_;
    std::vector<std::string> engine_ids_;  // what each engine said it is (remember_identity)
    std::mutex mutex_;
    std::size_t next_game_ = 0;
    bool stopping_ = false;
    bool fatal_ = false;
    bool sprt_decided_ = false;
    std::chrono::steady_clock::time_point last_results_write_{};
    std::chrono::steady_clock::time_point started_{};
    std::size_t resumed_games_ = 0;
    MatchObserver<G>* observer_ = nullptr;
};

// Checks the game-specific settings and the openings, then plays the match (continuing the
// journal when `resume` is given). Returns the exit status.
template <GameAdapter A>
int run_match(const MatchConfig& config, const std::vector<std::string>& arguments,
              const std::optional<JournalContents>& resume = std::nullopt,
              MatchObserver<typename A::Game>* observer = nullptr) {
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
    Match<A> match(config, arguments, *variant, std::move(*openings));
    if (resume) {
        if (auto status = match.resume_from(*resume); !status) {
            std::fputs(fmt::format("arbiter: error: {}\n", status.error()).c_str(), stderr);
            return exit_usage;
        }
    }
    match.set_observer(observer);
    install_interrupt_handler();
    return match.run();
}

}  // namespace bge::arbiter
