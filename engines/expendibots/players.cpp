#include "engines/expendibots/players.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "engines/expendibots/evaluation.hpp"
#include "engines/expendibots/game_budget.hpp"
#include "engines/expendibots/opening_book.hpp"
#include "engines/expendibots/study_players.hpp"
#include "protocol/game_seeds.hpp"
#include "protocol/output.hpp"
#include "search/alphabeta.hpp"

namespace bge::expendibots {

namespace {

using protocol::OptionRegistry;

// Something loaded from the file an option names (empty: the built-in one). A file that cannot
// be used is reported once on stderr, and the built-in one is used instead.
template <class T>
class FileBacked {
public:
    using Loader = Expected<T> (*)(const std::string&);
    FileBacked(std::string option, const T& builtin, Loader load)
        : option_(std::move(option)), builtin_(builtin), load_(load) {}

    // The current value; `changed` says whether it differs from the last call's.
    const T& get(const OptionRegistry& options, bool& changed) {
        const std::string& path = options.text(option_);
        changed = !loaded_ || path != path_;
        if (changed) {
            loaded_ = true;
            path_ = path;
            value_ = builtin_;
            if (!path.empty()) {
                auto loaded = load_(path);
                if (loaded)
                    value_ = *loaded;
                else
                    protocol::Output::log(
                        fmt::format("expendibots: {}: {}; using the built-in one", option_, loaded.error()));
            }
        }
        return value_;
    }

private:
    std::string option_;
    const T& builtin_;
    Loader load_;
    bool loaded_ = false;
    std::string path_;
    T value_{};
};

// The study's agent: iterative-deepening alpha-beta with the Zobrist transposition table, the
// inverted quiescence, the opening book, the phase-aware learned evaluation, optional null move,
// and the GameTimeBudget mode.
class AlphaBetaPlayer : public search::Player<Expendibots> {
public:
    explicit AlphaBetaPlayer(const OptionRegistry& options)
        : options_(options),
          weights_("EvalWeights", builtin_weights(), &load_weights),
          book_("BookFile", builtin_book(), &OpeningBook::load),
          seeds_(options),
          random_(seeds_.next()),
          search_(std::make_unique<search::AlphaBeta<Expendibots, Evaluator>>(Evaluator{}, hash_megabytes())) {}

    ~AlphaBetaPlayer() override { report_game_cpu(); }

    std::string name() const override { return "alphabeta"; }

    void new_game() override {
        report_game_cpu();
        search_->clear();
        random_.reseed(seeds_.next());
        start_game_clock();
    }

    search::SearchResult<Expendibots> search(const search::SearchRequest<Expendibots>& request,
                                             const search::SearchControl<Expendibots>& control) override {
        const State& root = request.root;
        // A position earlier than the last one searched means a new game began without a new-game
        // command: the game's CPU clock starts again.
        if (!game_started_ || root.actions < last_root_actions_) {
            report_game_cpu();
            start_game_clock();
        }
        last_root_actions_ = root.actions;

        bool weights_changed = false;
        const EvalWeights& weights = weights_.get(options_, weights_changed);
        Evaluator& evaluator = search_->evaluator();
        // Scores in the table belong to one perspective and one set of weights.
        if (weights_changed || evaluator.perspective() != root.to_move) search_->clear();
        evaluator.set_weights(&weights);
        evaluator.set_perspective(root.to_move);
        evaluator.set_quiescence(options_.boolean("Quiescence"));
        search_->settings().null_move = options_.boolean("NullMove");
        search_->set_hash_megabytes(hash_megabytes());
        search_->set_threads(static_cast<int>(options_.integer("Threads")));

        if (options_.boolean("OwnBook")) {
            bool book_changed = false;
            const std::vector<Move> candidates = book_.get(options_, book_changed).moves_for(root);
            if (!candidates.empty()) {
                ++own_turns_;
                return book_move(request, control, candidates[random_.below(static_cast<std::uint32_t>(candidates.size()))]);
            }
        }

        search::SearchRequest<Expendibots> planned = request;
        if (options_.boolean("GameTimeBudget")) planned.limits = budget_limits(request);
        ++own_turns_;
        return search_->search(planned, control);
    }

private:
    std::size_t hash_megabytes() const {
        const auto requested = static_cast<std::size_t>(options_.integer("Hash"));
        if (!options_.boolean("GameTimeBudget")) return requested;
        return hash_megabytes_under_cap(requested, static_cast<std::size_t>(options_.integer("MemoryMB")));
    }

    // On stderr, for the experiments: what the game just finished cost (GameTimeBudget's measure).
    void report_game_cpu() const {
        if (!game_started_ || own_turns_ == 0) return;
        protocol::Output::log(fmt::format("expendibots: alphabeta: game CPU {} ms over {} own turns",
                                          process_cpu_ms() - game_start_cpu_ms_, own_turns_));
    }

    void start_game_clock() {
        game_started_ = true;
        game_start_cpu_ms_ = process_cpu_ms();
        own_turns_ = 0;
        last_root_actions_ = 0;
    }

    // The whole-game CPU budget turned into this move's limit; a clock or move time in the
    // request still bounds it. Depth or node limits (bench, analysis) are left as they are.
    search::Limits budget_limits(const search::SearchRequest<Expendibots>& request) const {
        const search::Limits& given = request.limits;
        if (given.infinite || given.depth || given.nodes) return given;
        const std::int64_t used = process_cpu_ms() - game_start_cpu_ms_;
        std::int64_t move_ms = plan_move_ms(options_.integer("GameTimeMs"), used, own_turns_);
        const search::TimeBudget clock = search::plan_time(given, request.root.to_move, request.start);
        if (clock.soft)
            move_ms = std::min<std::int64_t>(
                move_ms, std::chrono::duration_cast<search::Milliseconds>(*clock.soft - request.start).count());
        search::Limits limits;
        if (move_ms < 10)
            limits.depth = 2;  // the budget is spent: answer at once
        else
            limits.move_time_ms = move_ms;
        return limits;
    }

    static search::SearchResult<Expendibots> book_move(const search::SearchRequest<Expendibots>& request,
                                                       const search::SearchControl<Expendibots>& control, Move move) {
        search::SearchResult<Expendibots> result;
        result.best = move;
        result.has_move = true;
        if (control.report) {
            search::Report<Expendibots> report;
            report.time_ms =
                std::chrono::duration_cast<search::Milliseconds>(search::Clock::now() - request.start).count();
            report.pv = {move};  // depth 0 and no nodes: a book move
            control.report(report);
        }
        return result;
    }

    const OptionRegistry& options_;
    FileBacked<EvalWeights> weights_;
    FileBacked<OpeningBook> book_;
    protocol::GameSeeds seeds_;
    Random random_;
    std::unique_ptr<search::AlphaBeta<Expendibots, Evaluator>> search_;
    bool game_started_ = false;
    std::int64_t game_start_cpu_ms_ = 0;
    int own_turns_ = 0;
    int last_root_actions_ = 0;
};

}  // namespace

void add_player_options(protocol::OptionRegistry& options) {
    options.add_spin("Seed", 1, 0, 1'000'000'000, "seed for the players that use chance (and book choices)");
    options.add_check("Quiescence", true, "alphabeta: the study's inverted quiescence at the leaves");
    options.add_check("NullMove", false, "alphabeta: null-move pruning");
    options.add_check("OwnBook", true, "alphabeta: play from the opening book");
    options.add_string("BookFile", "", "alphabeta: an opening book file (lines of moves); empty: the built-in book");
    options.add_string("EvalWeights", "", "alphabeta: a weights file from train_expendibots_tdleaf; empty: built in");
    options.add_check("GameTimeBudget", false,
                      "alphabeta: spend a whole-game CPU budget (GameTimeMs) and stay under MemoryMB");
    options.add_spin("GameTimeMs", 60'000, 100, 86'400'000, "GameTimeBudget: CPU milliseconds for the whole game");
    options.add_spin("MemoryMB", 100, 16, 65536, "GameTimeBudget: memory cap in MiB (sizes the table)");
}

std::vector<protocol::PlayerEntry<Expendibots>> expendibots_players() {
    std::vector<protocol::PlayerEntry<Expendibots>> players = {
        {"alphabeta",
         "iterative-deepening PVS with a Zobrist transposition table, inverted quiescence, an opening book and "
         "the TDLeaf-trained phase-aware evaluation",
         [](const OptionRegistry& options) { return std::make_unique<AlphaBetaPlayer>(options); }},
    };
    for (auto& entry : study_players()) players.push_back(std::move(entry));
    return players;
}

}  // namespace bge::expendibots
