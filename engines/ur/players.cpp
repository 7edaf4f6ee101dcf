#include "engines/ur/players.hpp"

#include <cmath>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "core/random.hpp"
#include "engines/ur/evaluation.hpp"
#include "engines/ur/td_network.hpp"
#include "protocol/output.hpp"
#include "search/expectimax.hpp"
#include "search/random_player.hpp"

namespace bge::ur {

namespace {

using protocol::OptionRegistry;

int score_of(double value) { return static_cast<int>(std::lround(value * 1000)); }

// Expectimax to a fixed depth, or deepening while the clock allows.
template <class Evaluator>
class ExpectimaxPlayer : public search::Player<Ur> {
public:
    ExpectimaxPlayer(std::string name, const OptionRegistry& options, Evaluator evaluator, int fixed_depth = 0)
        : name_(std::move(name)), options_(options), search_(std::move(evaluator)), fixed_depth_(fixed_depth) {}

    std::string name() const override { return name_; }

    search::SearchResult<Ur> search(const search::SearchRequest<Ur>& request,
                                    const search::SearchControl<Ur>& control) override {
        search::SearchResult<Ur> result;
        const auto& limits = request.limits;
        const int depth_option = static_cast<int>(options_.integer("Depth"));
        const int max_depth = fixed_depth_ ? fixed_depth_ : limits.depth ? *limits.depth : depth_option;
        const bool timed = !fixed_depth_ && !limits.depth &&
                           (limits.move_time_ms || limits.has_clock(request.root.to_move) || limits.infinite);
        const auto budget = search::plan_time(limits, request.root.to_move, request.start);
        auto should_stop = [&] { return control.stopped() || (budget.hard && search::Clock::now() >= *budget.hard); };
        if constexpr (requires { search_.evaluator().prepare(request.root); }) search_.evaluator().prepare(request.root);
        const int last = timed ? 64 : max_depth;
        for (int depth = timed ? 1 : max_depth; depth <= last; ++depth) {
            const auto found = search_.search(request.root, depth, should_stop, limits.nodes.value_or(0));
            result.nodes += found.nodes;
            if (!found.has_move) break;
            if (found.complete || !result.has_move) {
                result.best = found.best;
                result.has_move = true;
                result.score = score_of(found.value);
            }
            if (control.report) {
                search::Report<Ur> report;
                report.depth = depth;
                report.score = result.score;
                report.nodes = result.nodes;
                report.time_ms =
                    std::chrono::duration_cast<search::Milliseconds>(search::Clock::now() - request.start).count();
                report.pv = {result.best};
                control.report(report);
            }
            if (!found.complete || std::abs(found.value) >= 1.0) break;
            if (timed && budget.soft && search::Clock::now() >= *budget.soft) break;
            if (timed && limits.infinite && control.stopped()) break;
        }
        return result;
    }

private:
    std::string name_;
    const OptionRegistry& options_;
    search::Expectimax<Ur, Evaluator> search_;
    int fixed_depth_;
};

// Perfect play from the solver's table: the move whose position after it has the highest
// probability of winning (an extra roll keeps the mover; otherwise the opponent's chance is
// subtracted from one).
class PerfectPlayer : public search::Player<Ur> {
public:
    explicit PerfectPlayer(const OptionRegistry& options) : options_(options) {}
    std::string name() const override { return "perfect"; }

    search::SearchResult<Ur> search(const search::SearchRequest<Ur>& request,
                                    const search::SearchControl<Ur>& control) override {
        std::string error;
        const auto table = solver_table(options_.text("TablePath"), error);
        if (!table) throw std::runtime_error(error);
        const State& root = request.root;
        if (root.variant() != table->variant())
            throw std::runtime_error(fmt::format("the table solves {} with {} pieces; this game is {} with {}",
                                                 ruleset_name(table->ruleset()), table->pieces(),
                                                 ruleset_name(root.ruleset), root.pieces));
        search::SearchResult<Ur> result;
        MoveList<Ur> moves;
        generate_moves(root, moves);
        double best = -1;
        for (const Move& move : moves) {
            const double mine = table->move_value(root, move);
            if (mine > best) {
                best = mine;
                result.best = move;
                result.has_move = true;
            }
        }
        result.nodes = moves.size();
        result.score = score_of(2 * best - 1);
        // One look-up per move is a search of depth 1; its exact score goes out as `info`, where
        // GUIs and the arbiter's adjudication read scores.
        if (control.report && result.has_move) {
            search::Report<Ur> report;
            report.depth = 1;
            report.score = result.score;
            report.nodes = result.nodes;
            report.time_ms =
                std::chrono::duration_cast<search::Milliseconds>(search::Clock::now() - request.start).count();
            report.pv = {result.best};
            control.report(report);
        }
        return result;
    }

private:
    const OptionRegistry& options_;
};

// The td player's leaf value: the network shipped for the position's ruleset, or the TdWeights
// file when it was trained for that ruleset.
class TdPlayerEvaluator {
public:
    explicit TdPlayerEvaluator(const OptionRegistry& options) : options_(&options) {}
    // Called before each search: picks the network once, not per leaf.
    void prepare(const State& root) { current_ = &network(root.ruleset); }
    double evaluate(const State& state) const { return 2.0 * current_->win_probability(state) - 1.0; }

private:
    const TdNetwork& network(Ruleset ruleset) const {
        const std::string& path = options_->text("TdWeights");
        if (path != path_) {
            path_ = path;
            warned_ = false;
            loaded_.reset();
            if (!path.empty()) {
                auto loaded = TdNetwork::load(path);
                if (loaded)
                    loaded_ = std::make_shared<TdNetwork>(std::move(*loaded));
                else
                    protocol::Output::log(fmt::format("ur: TdWeights: {}; using the built-in network", loaded.error()));
            }
        }
        if (loaded_ && loaded_->ruleset == ruleset) return *loaded_;
        if (loaded_ && !warned_) {
            warned_ = true;
            protocol::Output::log(fmt::format("ur: TdWeights: the network was trained for {}; using the built-in {} network",
                                              ruleset_name(loaded_->ruleset), ruleset_name(ruleset)));
        }
        return builtin_td_network(ruleset);
    }
    const OptionRegistry* options_;
    mutable std::string path_;
    mutable std::shared_ptr<TdNetwork> loaded_;
    mutable bool warned_ = false;
    const TdNetwork* current_ = &builtin_td_network(Ruleset::finkel);
};

std::mutex table_mutex;
std::string table_path;
std::shared_ptr<const SolverTable> table_loaded;
std::string table_error;

}  // namespace

std::shared_ptr<const SolverTable> solver_table(const std::string& path, std::string& error) {
    std::lock_guard lock(table_mutex);
    if (path.empty()) {
        error = "the perfect player needs a solver table: setoption name TablePath value <file from ur solve>";
        return nullptr;
    }
    if (path != table_path) {
        table_path = path;
        table_loaded.reset();
        table_error.clear();
        auto loaded = SolverTable::load(path);
        if (loaded)
            table_loaded = std::make_shared<const SolverTable>(std::move(*loaded));
        else
            table_error = loaded.error();
    }
    error = table_error;
    return table_loaded;
}

void add_player_options(OptionRegistry& options) {
    options.add_combo("Ruleset", "finkel", {"finkel", "masters", "blitz"}, "the rules: finkel, masters or blitz");
    options.add_spin("Pieces", 0, 0, max_pieces, "pieces per side; 0: the ruleset's own (7, or 5 for blitz)");
    options.add_spin("Depth", 3, 1, 20, "expectimax and td: decisions searched when no depth or clock is given");
    options.add_spin("Seed", 1, 0, 1'000'000'000, "seed for the random player");
    // Load the table at once, so a bad file is reported when it is named, not mid-game.
    options.add_string("TablePath", "", "perfect: the solver table written by `ur solve`").on_change =
        [](const protocol::Option& option) {
            std::string error;
            if (!option.value.empty() && !solver_table(option.value, error))
                protocol::Output::log(fmt::format("ur: TablePath: {}", error));
        };
    options.add_string("TdWeights", "", "td: a weights file from train_ur_td; empty: the built-in network");
}

std::vector<protocol::PlayerEntry<Ur>> ur_players() {
    std::vector<protocol::PlayerEntry<Ur>> players;
    players.push_back({"random", "uniformly random legal moves", [](const OptionRegistry& options) {
                           return std::make_unique<search::RandomPlayer<Ur>>(
                               [&options] { return static_cast<std::uint64_t>(options.integer("Seed")); });
                       }});
    players.push_back({"greedy", "the move whose position after it the hand-written evaluation likes best",
                       [](const OptionRegistry& options) {
                           return std::make_unique<ExpectimaxPlayer<HandEvaluator>>("greedy", options, HandEvaluator{},
                                                                                    1);
                       }});
    players.push_back({"expectimax", "expectimax with Star1/Star2 pruning and the hand-written evaluation",
                       [](const OptionRegistry& options) {
                           return std::make_unique<ExpectimaxPlayer<HandEvaluator>>("expectimax", options,
                                                                                    HandEvaluator{});
                       }});
    players.push_back({"td", "expectimax over the dice with Star1/Star2 pruning and the ruleset's trained network",
                       [](const OptionRegistry& options) {
                           return std::make_unique<ExpectimaxPlayer<TdPlayerEvaluator>>("td", options,
                                                                                        TdPlayerEvaluator(options));
                       }});
    players.push_back({"perfect", "perfect play from the solver table (TablePath)",
                       [](const OptionRegistry& options) { return std::make_unique<PerfectPlayer>(options); }});
    return players;
}

}  // namespace bge::ur
