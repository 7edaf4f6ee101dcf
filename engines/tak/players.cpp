#include "engines/tak/players.hpp"

#include <algorithm>
#include <memory>

#include <chrono>

#include "engines/tak/endgame.hpp"
#include "engines/tak/eval_file.hpp"
#include "engines/tak/evaluation.hpp"
#include "engines/tak/tinue.hpp"
#include "engines/tak/tinue_pns.hpp"
#include "engines/tak/mcts_player.hpp"
#include "engines/tak/study_players.hpp"
#include "search/alphabeta.hpp"
#include "search/random_player.hpp"

namespace bge::tak {

namespace {

// Alpha-beta over the trained evaluation, after a tinuë search for a forced road; reads its
// options before each search.
class AlphaBetaPlayer : public search::Player<Tak> {
public:
    explicit AlphaBetaPlayer(const protocol::OptionRegistry& options)
        : options_(options),
          search_(std::make_unique<search::AlphaBeta<Tak, TakEvaluator>>(TakEvaluator{}, hash_megabytes())) {}

    std::string name() const override { return "alphabeta"; }
    void new_game() override {
        search_->clear();
        endgame_.clear();
    }

    // On a clock, time by the phase of the game: a move in the first two plies (the opponent's
    // flat) gets a tenth of the usual time, and the moves still to come are counted from the
    // mover's reserves. Stack moves spend none, so games outlast the reserves: in 120 games
    // against Tiltak (docs/experiments/tak-tiltak.md, "Time by phase") the mover still had a
    // median of about L + min(3L/5, 12) moves to play with L pieces left, on 5x5 and 6x6 alike
    // (44 at the start of 6x6, 33 of 5x5). Planning on fewer spent the clock before the flat
    // race, which both sides then played on the increment alone.
    void plan_limits(search::Limits& limits, const State& root) const override {
        const int mover = index_of(root.side_to_move());
        const int pieces = root.stones_left[mover] + root.caps_left[mover];
        limits.expected_moves_left = std::clamp(pieces + std::min(pieces * 3 / 5, 12), 6, 50);
        if (root.in_opening()) limits.time_share = 0.1;
    }

    search::SearchResult<Tak> search(const search::SearchRequest<Tak>& request,
                                     const search::SearchControl<Tak>& control) override {
        search_->set_hash_megabytes(hash_megabytes());
        search_->set_threads(static_cast<int>(options_.integer("Threads")));
        const bool weights_changed = eval_file_.refresh(options_);
        if (network_option_.refresh(options_) || weights_changed) {
            search_->evaluator() = TakEvaluator(eval_file_.weights());
            search_->evaluator().use_networks(network_option_.networks());
            search_->evaluator().use_policy(network_option_.move_policy());
        }
        search::AlphaBetaSettings& settings = search_->settings();
        settings.null_move = options_.boolean("NullMove");
        settings.null_move_reduction = static_cast<int>(options_.integer("NullMoveReduction"));
        settings.quiescence_answer_plies = static_cast<int>(options_.integer("ThreatQuiescence"));
        settings.threat_extension = options_.boolean("ThreatExtension");
        search_->evaluator().extend_flat_threats(options_.boolean("FlatThreatExtension"));
        search_->evaluator().set_network_weight(static_cast<int>(options_.integer("NnueWeight")));
        settings.aspiration_window = static_cast<int>(options_.integer("AspirationWindow"));
        settings.adaptive_time = options_.boolean("AdaptiveTime");
        settings.static_prune_depth = static_cast<int>(options_.integer("StaticPruneDepth"));
        settings.static_prune_margin = static_cast<int>(options_.integer("StaticPruneMargin"));
        settings.lmr_divisor = static_cast<int>(options_.integer("LmrDivisor"));
        settings.lmr_base = static_cast<int>(options_.integer("LmrBase"));
        settings.late_move_pruning_depth = static_cast<int>(options_.integer("LateMovePruning"));
        settings.late_move_pruning_base = static_cast<int>(options_.integer("LateMovePruningBase"));
        settings.futility_depth = static_cast<int>(options_.integer("FutilityDepth"));
        settings.futility_margin = static_cast<int>(options_.integer("FutilityMargin"));

        search::SearchResult<Tak> result;
        // On a clock, the forced-road and endgame searches may each take a quarter of the move's
        // planned time: with tall stacks their move budgets alone can outlast a short move.
        const search::TimeBudget planned = search::plan_time(request.limits, request.root.side_to_move(), request.start);
        std::optional<search::Clock::time_point> deadline;
        if (planned.soft) deadline = request.start + (*planned.soft - request.start) / 4;
        // Under `go nodes N` the three searches share the N nodes: each pre-search may take at most
        // half of what is left, and the alpha-beta search gets the rest. Otherwise a fixed-node
        // match or analysis would spend the pre-searches' own budgets (hundreds of thousands of
        // nodes) on top of N in the endgame.
        if (solve_endgame(request, control, deadline, result)) return result;
        if (const auto tinue_depth = static_cast<int>(options_.integer("TinueDepth")); tinue_depth > 0) {
            const auto budget = search::pre_search_nodes(static_cast<std::uint64_t>(options_.integer("TinueNodes")),
                                                         request.limits, result.nodes);
            TinueResult tinue = tinue_.search(request.root, tinue_depth, budget, control.stop, deadline);
            result.nodes += tinue.nodes;
            // Then, best first and without a depth limit, the forcing lines too long for it.
            if (!tinue.first && options_.boolean("TinuePns")) {
                const std::uint64_t spent = tinue.nodes;
                tinue = tinue_pns_.search(request.root, budget, control.stop, deadline);
                result.nodes += tinue.nodes;
                tinue.nodes += spent;
            }
            if (tinue.first) {
                result.best = *tinue.first;
                result.has_move = true;
                result.score = search::win_score - (2 * tinue.depth - 1);
                if (control.report) {
                    search::Report<Tak> report;
                    report.depth = report.seldepth = static_cast<int>(tinue.line.size());
                    report.score = result.score;
                    report.nodes = tinue.nodes;
                    report.time_ms =
                        std::chrono::duration_cast<search::Milliseconds>(search::Clock::now() - request.start).count();
                    report.pv = tinue.line;
                    report.extra = "tinue";
                    control.report(report);
                }
                return result;
            }
        }
        search::SearchRequest<Tak> rest = request;
        rest.limits.nodes = search::nodes_left(request.limits, result.nodes);
        const auto found = search_->search(rest, control);
        result.best = found.best;
        result.has_move = found.has_move;
        result.score = found.score;
        result.nodes += found.nodes;
        return result;
    }

private:
    // Near the end of the game (EndgamePlacements), the endgame solver's proof decides the move:
    // the fastest win, a held draw, or the longest resistance. False, with the nodes counted in
    // `result`, when the position does not qualify or nothing was proven in the budget.
    bool solve_endgame(const search::SearchRequest<Tak>& request, const search::SearchControl<Tak>& control,
                       std::optional<search::Clock::time_point> deadline, search::SearchResult<Tak>& result) {
        const State& root = request.root;
        // A repetition draw makes results depend on the moves before, which the solver ignores.
        if (!options_.boolean("EndgameSolver") || root.repetition_draw ||
            placements_to_end(root) > options_.integer("EndgamePlacements"))
            return false;
        const auto budget = search::pre_search_nodes(static_cast<std::uint64_t>(options_.integer("EndgameNodes")),
                                                     request.limits, result.nodes);
        const EndgameResult solved = endgame_.solve(root, max_endgame_plies, budget, control.stop, deadline);
        result.nodes += solved.nodes;
        if (solved.value == EndgameValue::unknown || !solved.best) return false;
        result.best = *solved.best;
        result.has_move = true;
        result.score = solved.value == EndgameValue::win    ? search::win_score - solved.plies
                       : solved.value == EndgameValue::loss ? -(search::win_score - solved.plies)
                                                            : 0;
        if (control.report) {
            search::Report<Tak> report;
            report.depth = report.seldepth = std::max(1, solved.depth);
            report.score = result.score;
            report.nodes = result.nodes;
            report.time_ms =
                std::chrono::duration_cast<search::Milliseconds>(search::Clock::now() - request.start).count();
            report.pv = {*solved.best};
            report.extra = "endgame";
            control.report(report);
        }
        return true;
    }

    // Deeper than any budget reaches: the node budget and the clock end the solver's deepening.
    static constexpr int max_endgame_plies = 64;
    std::size_t hash_megabytes() const { return static_cast<std::size_t>(options_.integer("Hash")); }
    const protocol::OptionRegistry& options_;
    std::unique_ptr<search::AlphaBeta<Tak, TakEvaluator>> search_;
    EvalFile eval_file_;
    NetworkOption network_option_;
    TinueSearch tinue_;
    ProofNumberTinue tinue_pns_;
    EndgameSolver endgame_;
};

}  // namespace

void add_player_options(protocol::OptionRegistry& options) {
    options.add_check("NullMove", true, "alphabeta: null-move pruning");
    options.add_spin("NullMoveReduction", 2, 1, 6, "alphabeta: the null move's depth reduction R (plus depth/6)");
    options.add_spin("ThreatQuiescence", 0, 0, 16,
                     "alphabeta: plies below the horizon where a road threat is answered by searching every move");
    options.add_check("ThreatExtension", true, "alphabeta: search a position facing a road threat one ply deeper");
    options.add_check("FlatThreatExtension", false,
                      "alphabeta: ThreatExtension also for a threat to end the game ahead on flats");
    options.add_spin("AspirationWindow", 40, 0, 10000, "alphabeta: root window around the last score, centi-flats (0: off)");
    options.add_check("AdaptiveTime", false,
                      "alphabeta: more time when the best move changes, the score falls or a road is threatened");
    options.add_spin("StaticPruneDepth", 0, 0, 8,
                     "alphabeta: reverse futility pruning up to this depth (0: off): a static evaluation "
                     "StaticPruneMargin x depth above beta cuts off");
    options.add_spin("StaticPruneMargin", 100, 1, 5000, "alphabeta: the margin of StaticPruneDepth, centi-flats per ply");
    options.add_spin("LmrDivisor", 0, 0, 1000,
                     "alphabeta: late move reductions log(depth)*log(n)*100/LmrDivisor + LmrBase/100 (0: 1 or 2 plies)");
    options.add_spin("LmrBase", 50, 0, 300, "alphabeta: the constant of the logarithmic reductions, hundredths");
    options.add_spin("LateMovePruning", 0, 0, 8,
                     "alphabeta: up to this depth, quiet moves after LateMovePruningBase + depth^2 are skipped (0: off)");
    options.add_spin("LateMovePruningBase", 3, 0, 100, "alphabeta: the constant of LateMovePruning");
    options.add_spin("FutilityDepth", 0, 0, 8,
                     "alphabeta: up to this depth, quiet moves are skipped when the static evaluation plus "
                     "FutilityMargin x depth cannot reach alpha (0: off)");
    options.add_spin("FutilityMargin", 100, 1, 5000, "alphabeta: the margin of FutilityDepth, centi-flats per ply");
    options.add_spin("TinueDepth", 5, 0, 16, "alphabeta: attacker moves of the forced-road search before the main search (0: off)");
    options.add_check("TinuePns", false,
                      "alphabeta: when the forced-road search finds nothing, a proof-number search of the same "
                      "game with no depth limit (TinueNodes moves)");
    options.add_spin("TinueNodes", 30000, 1, 1'000'000'000, "alphabeta: moves the forced-road search may play per move");
    options.add_check("EndgameSolver", true,
                      "alphabeta: near the end of the game, prove the result by an exhaustive search and play the proof");
    options.add_spin("EndgamePlacements", 3, 0, 100,
                     "alphabeta: the endgame solver runs when the empty squares or the smaller reserve are at most this");
    options.add_spin("EndgameNodes", 300000, 1, 1'000'000'000,
                     "alphabeta: moves the endgame solver may play per move (and at most a quarter of its time)");
    options.add_string("EvalFile", "", "alphabeta and mcts: an evaluation weights file (train_tak_eval); empty: built in");
    options.add_check("UseNnue", false,
                      "alphabeta and mcts: evaluate with the value network of the board size where there is one (docs/tak.md)");
    options.add_spin("NnueWeight", 100, 0, 100,
                     "alphabeta and mcts: with UseNnue, the network's share of the evaluation in percent; "
                     "the linear model has the rest");
    options.add_check("UsePolicy", false, "alphabeta: order moves by the learned move policy; mcts: its priors (docs/tak.md)");
    options.add_string("PolicyFile", "", "alphabeta and mcts: a move policy file (train_tak_eval policy) instead of the built-in one");
    options.add_string("NnueFile", "",
                       "alphabeta and mcts: a value network file (train_tak_eval network) replacing the built-in one of its size");
    options.add_spin("Seed", 1, 0, 1'000'000'000, "seed for the players that use chance");
    add_mcts_player_options(options);
    add_study_player_options(options);
}

std::vector<protocol::PlayerEntry<Tak>> tak_players() {
    std::vector<protocol::PlayerEntry<Tak>> players = {
        {"alphabeta", "iterative-deepening PVS with a transposition table over the hand-written evaluation",
         [](const protocol::OptionRegistry& options) { return std::make_unique<AlphaBetaPlayer>(options); }},
        {"random", "uniform over the legal moves (reseeded from Seed and the game number every game)",
         [](const protocol::OptionRegistry& options) {
             return std::make_unique<search::RandomPlayer<Tak>>(
                 [&options] { return static_cast<std::uint64_t>(options.integer("Seed")); });
         }},
    };
    for (auto& entry : mcts_players()) players.push_back(std::move(entry));
    for (auto& entry : study_players()) players.push_back(std::move(entry));
    return players;
}

}  // namespace bge::tak
