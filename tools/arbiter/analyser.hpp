#pragma once
// The analyser behind `arbiter analyse`, written once for every game adapter.
//
// The records of every input file, in order, are numbered; a shard takes its block of them. Each
// record is one job: an engine process starts a new game, then searches every position of the
// record that is not over and not a roll, from the start to the position after the last move,
// at the configured fixed limit. Each search becomes one line of the data file at once (flushed),
// so a run stopped at any point loses at most the search under way; -resume reads the lines back
// and searches only the positions missing. The annotated records are written again after every
// record finished, from the analyses gathered, in input order.
//
// A move's comment is the evaluation of the position after it from the mover's side, with the
// depth of that search; its mark compares it with the evaluation before the move (the best the
// engine found). Games with dice get no marks: the position after a move is scored after the
// next roll, so luck and the move cannot be told apart.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "core/game_record.hpp"
#include "tools/arbiter/analysis.hpp"
#include "tools/arbiter/game_adapter.hpp"
#include "tools/arbiter/game_runner.hpp"
#include "tools/arbiter/json.hpp"

namespace bge::arbiter {

namespace analysis_detail {

constexpr int exit_done = 0;
constexpr int exit_failures = 1;
constexpr int exit_usage = 2;

inline void say(const std::string& message) { std::fputs(fmt::format("arbiter: analyse: {}\n", message).c_str(), stderr); }

// What one search said about one position.
struct PositionAnalysis {
    std::optional<SearchInfo> info;  // score and depth (the PV is in `pv`), when the engine gave them
    std::string best;                // the engine's move in the game's notation; empty when it gave none legal
    std::vector<std::string> pv;     // the legal start of the engine's PV, in the game's notation
};

// Where a position is: the record file, the record's number in it (1-based) and the ply.
using PositionKey = std::tuple<std::string, int, int>;

// A record file by its absolute path, so that a run resumed from another folder or with the path
// spelt otherwise (games.ptn, ./games.ptn, /runs/games.ptn) finds the positions it has.
inline std::string file_key(const std::string& path) {
    if (path.empty()) return path;
    std::error_code error;
    const auto absolute = std::filesystem::weakly_canonical(std::filesystem::absolute(path, error), error);
    return error ? path : absolute.string();
}

// "p1win", "p2win", "draw" or "none" (the words of UGI's `query result`), from the rules when
// the record ends the game, otherwise from its result text ("R-0", "0-F", "1-0", "1/2-1/2", "*").
inline std::string outcome_word(const Outcome& rules_outcome, std::string_view result) {
    if (rules_outcome.is_over()) {
        if (rules_outcome.kind == OutcomeKind::draw) return "draw";
        return rules_outcome.winner == Side::first ? "p1win" : "p2win";
    }
    if (result == "1/2-1/2") return "draw";
    const std::size_t dash = result.find('-');
    if (dash == std::string_view::npos) return "none";
    const std::string_view left = result.substr(0, dash), right = result.substr(dash + 1);
    if (left == "0" && !right.empty() && right != "0") return "p2win";
    if (right == "0" && !left.empty() && left != "0") return "p1win";
    return "none";
}

// The score from the mover's side of a position the mover did not search: the next position's
// score, turned round when the other side is to move there.
inline int from_mover(int score, bool same_side) { return same_side ? score : -score; }

}  // namespace analysis_detail

template <GameAdapter A>
class Analyser {
public:
    using G = typename A::Game;
    using PositionAnalysis = analysis_detail::PositionAnalysis;
    using PositionKey = analysis_detail::PositionKey;

    // One record of one file.
    struct Job {
        std::string file;
        int game = 0;  // 1-based within the file
        AnalysisRecord<G> record;
        std::string outcome;  // the data's outcome word, the same for every position of the record
    };

    Analyser(const AnalysisConfig& config, typename G::Variant variant) : config_(config), variant_(variant) {}

    // Reads every input file; an unreadable file is an error, a record with an illegal move is not.
    Status read_inputs() {
        std::vector<Job> all;
        for (const std::string& input : config_.inputs) {
            std::ifstream in(input, std::ios::binary);
            if (!in) return make_error(fmt::format("{}: cannot read the file", input));
            const std::string file = analysis_detail::file_key(input);
            std::stringstream text;
            text << in.rdbuf();
            auto records = A::analysis_records(text.str(), variant_);
            if (!records) return make_error(fmt::format("{}: {}", input, records.error()));
            int game = 0;
            for (auto& record : *records) {
                auto end = record.start;
                for (const auto& move : record.moves) G::play(end, move);
                std::string outcome = analysis_detail::outcome_word(G::outcome(end), record.result);
                all.push_back({file, ++game, std::move(record), std::move(outcome)});
            }
        }
        const auto [first, last] = config_.shard.block(static_cast<long>(all.size()));
        jobs_.assign(std::make_move_iterator(all.begin() + first), std::make_move_iterator(all.begin() + last));
        done_.assign(jobs_.size(), false);
        return success();
    }

    // -resume: the lines of the data file already written. A line cut short by a kill is dropped
    // (the file is cut back to the last whole line); any other bad line refuses the file.
    Status load_data_file() {
        namespace fs = std::filesystem;
        std::error_code error;
        const bool exists = fs::exists(config_.data_file, error);
        if (!config_.resume) {
            if (exists && fs::file_size(config_.data_file, error) > 0)
                return make_error(fmt::format("-data {} already holds an analysis: give -resume to continue it, or "
                                              "another file",
                                              config_.data_file));
            return success();
        }
        if (!exists) return success();
        std::ifstream in(config_.data_file, std::ios::binary);
        if (!in) return make_error(fmt::format("-data {}: cannot read the file", config_.data_file));
        std::stringstream buffer;
        buffer << in.rdbuf();
        const std::string text = buffer.str();
        const std::size_t whole = text.empty() || text.back() == '\n' ? text.size() : text.rfind('\n') + 1;
        if (whole < text.size()) {
            analysis_detail::say(fmt::format("{}: its last line was cut short (a run stopped while writing it); "
                                             "dropped, that position is searched again",
                                             config_.data_file));
            in.close();
            fs::resize_file(config_.data_file, whole, error);
            if (error) return make_error(fmt::format("-data {}: cannot cut the unfinished line: {}", config_.data_file,
                                                     error.message()));
        }
        const std::string limit = analysis_limit_text(config_.engine);
        std::size_t start = 0;
        for (int line_number = 1; start < whole; ++line_number) {
            const std::size_t end = text.find('\n', start);
            const std::string_view line(text.data() + start, end - start);
            start = end + 1;
            auto refuse = [&](const std::string& why) {
                return make_error(fmt::format("-data {}, line {}: {}", config_.data_file, line_number, why));
            };
            auto value = json::parse(line);
            if (!value) return refuse(value.error());
            const auto game = json::small_integer(*value, "game"), ply = json::small_integer(*value, "ply");
            const std::string file = analysis_detail::file_key(json::text(*value, "file"));
            if (!game || !ply || file.empty()) return refuse("not a line of an analysis (no file, game or ply)");
            if (const std::string& was = json::text(*value, "limit"); was != limit)
                return refuse(fmt::format("analysed with {}, and this run asks for {}: resume with the same limit, "
                                          "or write another -data file",
                                          was, limit));
            PositionAnalysis analysis;
            analysis.best = json::text(*value, "best");
            for (const Json& move : json::items(*value, "pv"))
                if (move.is_string()) analysis.pv.push_back(move.get<std::string>());
            const auto score = json::small_integer(*value, "score_cp"), depth = json::small_integer(*value, "depth");
            if (score && depth) {
                SearchInfo info;
                info.score_cp = *score;
                info.depth = *depth;
                info.mate = json::small_integer(*value, "mate");
                analysis.info = info;
            }
            analyses_[{file, *game, *ply}] = std::move(analysis);
        }
        resumed_ = analyses_.size();
        return success();
    }

    // Runs the jobs on `concurrency` engines; returns the exit status.
    int run() {
        using namespace analysis_detail;
        if (!config_.data_file.empty()) {
            data_.open(config_.data_file, std::ios::binary | std::ios::app);
            if (!data_) {
                say(fmt::format("-data {}: cannot write the file", config_.data_file));
                return exit_usage;
            }
        }
        if (!config_.out_file.empty() && !write_records()) return exit_usage;  // a bad path shows at once
        const auto started = SteadyClock::now();
        const int workers = std::max(1, std::min<int>(config_.concurrency, static_cast<int>(jobs_.size())));
        std::vector<std::thread> threads;
        for (int w = 0; w < workers; ++w) threads.emplace_back([this] { work(); });
        for (auto& thread : threads) thread.join();
        if (!config_.out_file.empty() && !write_records()) failures_ = true;

        const double seconds = std::chrono::duration<double>(SteadyClock::now() - started).count();
        const std::string summary = fmt::format(
            "{} record{}, {} position{} searched in {:.1f} s ({:.2f} positions/s on {} engine{}){}{}", jobs_.size(),
            jobs_.size() == 1 ? "" : "s", searched_.load(), searched_.load() == 1 ? "" : "s", seconds, seconds > 0 ? static_cast<double>(searched_.load()) / seconds : 0.0, workers,
            workers == 1 ? "" : "s", resumed_ ? fmt::format(", {} from the data file", resumed_) : std::string(),
            failed_positions_ ? fmt::format(", {} left out after the engine failed", failed_positions_.load())
                              : std::string());
        say(summary);
        if (engine_lost_) return exit_failures;
        return failures_ ? exit_failures : exit_done;
    }

private:
    // One engine process, taking records until none is left.
    void work() {
        EnginePlayer player(config_.engine, config_.engine.dialect.value_or(A::default_dialect));
        for (;;) {
            const std::size_t index = next_job_++;
            if (index >= jobs_.size() || engine_lost_) break;
            analyse(player, jobs_[index]);
            std::lock_guard lock(mutex_);
            done_[index] = true;
            if (!config_.out_file.empty() && !write_records()) failures_ = true;
        }
        player.quit();
    }

    std::string where(const Job& job) const { return fmt::format("{}, game {}", job.file, job.game); }

    // Starts the engine (again) and a new game of the record's variant; false when it cannot.
    bool start_game(EnginePlayer& player, const Job& job, const typename G::Variant& variant) {
        using analysis_detail::say;
        const EngineStatus status = player.ensure_running();
        if (status == EngineStatus::fatal) {
            say(fmt::format("{}: {}; the analysis stops", where(job), player.last_error()));
            engine_lost_ = true;
            return false;
        }
        if (status == EngineStatus::ok) {
            std::lock_guard lock(mutex_);
            if (engine_identity_.empty())
                engine_identity_ = player.identity().empty() ? config_.engine.name : player.identity();
        }
        auto options = status == EngineStatus::ok ? A::rule_options(variant, player)
                                                  : Expected<OptionList>(make_error(player.last_error()));
        if (!options) {
            say(fmt::format("{}: {}; record left out", where(job), options.error()));
            failures_ = true;
            return false;
        }
        if (player.start_game(*options, A::new_game_command(player.dialect(), variant)) != EngineStatus::ok) {
            say(fmt::format("{}: {}; record left out", where(job), player.last_error()));
            failures_ = true;
            return false;
        }
        return true;
    }

    void analyse(EnginePlayer& player, const Job& job) {
        using analysis_detail::say;
        const AnalysisRecord<G>& record = job.record;
        if (!record.write) {  // the record's own fault: a run again would not mend it
            say(fmt::format("{}: cannot be read: {}; record left out", where(job), record.problem));
            return;
        }
        if (!record.problem.empty())
            say(fmt::format("{}: {}; the moves before it are analysed", where(job), record.problem));
        GameRecord<G> line(record.start);
        bool started = false;
        for (std::size_t ply = 0; ply <= record.moves.size() && !engine_lost_; ++ply) {
            if (ply > 0) line.play(record.moves[ply - 1]);
            if (line.outcome().is_over()) break;
            if constexpr (StochasticGame<G>)
                if (G::is_chance_node(line.current())) continue;
            const PositionKey key{job.file, job.game, static_cast<int>(ply)};
            {
                std::lock_guard lock(mutex_);
                if (analyses_.contains(key)) continue;
            }
            if (!started && !(started = start_game(player, job, G::variant_of(record.start)))) return;
            auto analysis = search(player, line);
            if (!analysis) {
                say(fmt::format("{}, ply {}: {}; position left out", where(job), ply, analysis.error()));
                ++failed_positions_;
                failures_ = true;
                // A new process for the next position, when this one died or was killed.
                if (player.needs_restart()) started = false;
                continue;
            }
            ++searched_;
            std::lock_guard lock(mutex_);
            if (data_.is_open()) {
                data_ << json::dump(data_line(job, line, ply, *analysis)) << '\n';
                data_.flush();
                if (!data_) {
                    say(fmt::format("-data {}: cannot write the file; the analysis stops", config_.data_file));
                    engine_lost_ = true;
                    failures_ = true;
                }
            }
            analyses_[key] = std::move(*analysis);
        }
    }

    // One search of the line's current position at the fixed limit.
    Expected<PositionAnalysis> search(EnginePlayer& player, const GameRecord<G>& line) {
        const EngineConfig& engine = config_.engine;
        const Side side = G::side_to_move(line.current());
        const auto budget = engine.move_time_ms ? std::chrono::milliseconds(*engine.move_time_ms + 5'000) : stall_timeout;
        const EngineReply reply = think_about<A>(player, line, engine, side, Clocks{}, budget);
        switch (reply.kind) {
            case EngineReply::Kind::move:
                break;
            case EngineReply::Kind::timeout:
                player.abandon_search();
                return make_error(fmt::format("engine {}: no bestmove within {} ms", player.name(), budget.count()));
            case EngineReply::Kind::closed:
            case EngineReply::Kind::interrupted:
            case EngineReply::Kind::stall:
                return make_error(player.last_error().empty() ? fmt::format("engine {}: it stopped answering", player.name())
                                                              : player.last_error());
        }
        auto best = G::parse_move(line.current(), reply.move);
        if (!best)
            return make_error(fmt::format("engine {}: bestmove '{}' is not a legal move: {}", player.name(), reply.move,
                                          best.error()));
        PositionAnalysis analysis;
        analysis.best = G::format_move(line.current(), *best);
        if (reply.info) {
            analysis.info = reply.info;
            analysis.info->pv.clear();
            // The PV as far as it is legal, written in the game's own notation.
            auto position = line.current();
            for (const std::string& word : reply.info->pv) {
                if (G::outcome(position).is_over()) break;
                auto move = G::parse_move(position, word);
                if (!move) break;
                analysis.pv.push_back(G::format_move(position, *move));
                G::play(position, *move);
            }
        }
        return analysis;
    }

    Json data_line(const Job& job, const GameRecord<G>& line, std::size_t ply, const PositionAnalysis& analysis) const {
        const Side side = G::side_to_move(line.current());
        std::string side_word(side_name(side, A::side_names));
        std::transform(side_word.begin(), side_word.end(), side_word.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        Json value = Json::object();
        value["file"] = job.file;
        value["game"] = job.game;
        value["ply"] = ply;
        value["variant"] = A::variant_text(G::variant_of(job.record.start));
        value["position"] = G::format_position(line.current());
        value["side"] = side_word;
        value["score_cp"] = analysis.info ? Json(analysis.info->score_cp) : Json();
        value["mate"] = analysis.info && analysis.info->mate ? Json(*analysis.info->mate) : Json();
        value["depth"] = analysis.info ? Json(analysis.info->depth) : Json();
        value["best"] = analysis.best;
        value["pv"] = analysis.pv;
        value["played"] = ply < job.record.moves.size()
                              ? Json(G::format_move(line.current(), job.record.moves[ply]))
                              : Json();
        value["result"] = job.record.result;
        value["outcome"] = job.outcome;
        value["engine"] = engine_identity_;
        value["limit"] = analysis_limit_text(config_.engine);
        return value;
    }

    // The comments and marks of a record from the analyses gathered (mutex_ held).
    std::string annotated(const Job& job) const {
        using analysis_detail::from_mover;
        const AnalysisRecord<G>& record = job.record;
        const std::size_t count = record.moves.size();
        std::vector<std::string> comments(count), marks(count);
        auto analysis_at = [&](std::size_t ply) -> const PositionAnalysis* {
            const auto found = analyses_.find(PositionKey{job.file, job.game, static_cast<int>(ply)});
            return found == analyses_.end() ? nullptr : &found->second;
        };
        auto position = record.start;
        for (std::size_t i = 0; i < count; ++i) {
            const Side mover = G::side_to_move(position);
            const std::string played = G::format_move(position, record.moves[i]);
            const PositionAnalysis* before = analysis_at(i);
            G::play(position, record.moves[i]);
            const PositionAnalysis* after_analysis = analysis_at(i + 1);
            std::optional<int> after;  // the mover's score after its move
            if (const Outcome outcome = G::outcome(position); outcome.is_over()) {
                after = outcome.kind == OutcomeKind::draw ? 0 : outcome.winner == mover ? mate_cp : -mate_cp;
            } else if (after_analysis && after_analysis->info) {
                const bool same_side = G::side_to_move(position) == mover;
                SearchInfo shown = *after_analysis->info;
                shown.score_cp = from_mover(shown.score_cp, same_side);
                if (shown.mate) shown.mate = same_side ? *shown.mate : -*shown.mate;
                comments[i] = score_text(shown);
                after = shown.score_cp;
            }
            if constexpr (StochasticGame<G>) continue;  // luck and the move cannot be told apart
            if (!before || !before->info || !after || before->best == played) continue;
            const int loss = before->info->score_cp - *after;
            const std::string mark = loss >= config_.blunder_cp ? "??" : loss >= config_.mistake_cp ? "?" : "";
            if (mark.empty()) continue;
            marks[i] = mark;
            comments[i] += fmt::format("{}best {}", comments[i].empty() ? "" : " ", before->best);
        }
        return record.write(comments, marks);
    }

    // Writes the records finished so far, in input order, to -out through a temporary file, so
    // the file is always whole (mutex_ held, or no worker running).
    bool write_records() {
        std::string text;
        for (std::size_t i = 0; i < jobs_.size(); ++i)
            if (done_[i] && jobs_[i].record.write) {
                if (!text.empty()) text += '\n';
                text += annotated(jobs_[i]);
            }
        const std::string temporary = config_.out_file + ".part";
        {
            std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
            out << text;
            out.flush();
            if (!out) {
                analysis_detail::say(fmt::format("-out {}: cannot write {}", config_.out_file, temporary));
                return false;
            }
        }
        std::error_code error;
        std::filesystem::rename(temporary, config_.out_file, error);
        if (error) {
            analysis_detail::say(fmt::format("-out {}: cannot write the file: {}", config_.out_file, error.message()));
            return false;
        }
        return true;
    }

    const AnalysisConfig& config_;
    typename G::Variant variant_;
    std::vector<Job> jobs_;
    std::vector<bool> done_;
    std::map<PositionKey, PositionAnalysis> analyses_;
    std::size_t resumed_ = 0;
    std::ofstream data_;
    std::mutex mutex_;
    std::atomic<std::size_t> next_job_{0};
    std::atomic<std::size_t> searched_{0}, failed_positions_{0};
    std::atomic<bool> failures_{false}, engine_lost_{false};
    std::string engine_identity_;  // the engine's `id name` (or ABOUT), for the data file
};

template <GameAdapter A>
int analyse_records(const AnalysisConfig& config) {
    using namespace analysis_detail;
    auto variant = A::make_variant(config.rules);
    if (!variant) {
        say(variant.error());
        return exit_usage;
    }
    Analyser<A> analyser(config, *variant);
    if (auto status = analyser.read_inputs(); !status) {
        say(status.error());
        return exit_usage;
    }
    if (!config.data_file.empty())
        if (auto status = analyser.load_data_file(); !status) {
            say(status.error());
            return exit_usage;
        }
    return analyser.run();
}

}  // namespace bge::arbiter
