#include "engines/gomoku/players.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "engines/gomoku/evaluation.hpp"
#include "engines/gomoku/network.hpp"
#include "engines/gomoku/study_players.hpp"
#include "engines/gomoku/threat_search.hpp"
#include "protocol/output.hpp"
#include "search/alphabeta.hpp"
#include "search/mcts_player.hpp"
#include "search/random_player.hpp"

namespace bge::gomoku {

search::SearchRequest<GomokuSearch> search_request(const search::SearchRequest<Gomoku>& request) {
    search::SearchRequest<GomokuSearch> converted;
    converted.root = SearchBoard(request.root);
    converted.history = request.history;
    converted.limits = request.limits;
    converted.start = request.start;
    converted.search_moves = request.search_moves;
    return converted;
}

search::Report<Gomoku> rules_report(const search::Report<GomokuSearch>& report) {
    search::Report<Gomoku> converted;
    converted.depth = report.depth;
    converted.seldepth = report.seldepth;
    converted.score = report.score;
    converted.nodes = report.nodes;
    converted.time_ms = report.time_ms;
    converted.pv = report.pv;
    converted.extra = report.extra;
    return converted;
}

search::SearchControl<GomokuSearch> search_control(const search::SearchControl<Gomoku>& control) {
    search::SearchControl<GomokuSearch> converted;
    converted.stop = control.stop;
    if (control.report)
        converted.report = [&control](const search::Report<GomokuSearch>& report) {
            control.report(rules_report(report));
        };
    return converted;
}

namespace {

// PUCT's leaf value and move priors over the search board: the evaluation (the pattern network
// by default) squashed to [-1, 1], and the softmax of the learned policy's logits.
struct PuctPolicy {
    GomokuEvaluator evaluator;
    const policy::Policy* move_policy = nullptr;
    // evaluate() gives 200 centi-units per logit of the win probability p, so tanh(score / 400)
    // is 2p - 1, the expected result.
    float value_scale = 400.0f;
    float prior_temperature = 1.0f;

    // VCF at the leaves (PuctLeafVcf): the positions each leaf's search for a win by fours may
    // visit; 0: none. A leaf whose mover wins by fours is a proven win, so the tree needs to reach
    // only the start of a forcing line, not its five.
    std::uint64_t leaf_vcf_nodes = 0;
    VcfSearch leaf_vcf;

    float value(const SearchBoard& board, Random&) const {
        return std::tanh(static_cast<float>(evaluator.evaluate(board)) / value_scale);
    }
    bool proves_win(SearchBoard& board) {
        if (leaf_vcf_nodes == 0) return false;
        const Side me = board.side_to_move();
        // Without a cell that makes a four there is no VCF: skip the search.
        const auto& counts = board.threat_count[static_cast<std::size_t>(index_of(me))];
        if (counts[threat_four] + counts[threat_four_three] + counts[threat_double_four] + counts[threat_flex4] +
                counts[threat_five] ==
            0)
            return false;
        return leaf_vcf.search(board, 30, leaf_vcf_nodes).first.has_value();
    }
    void priors(const SearchBoard& board, const MoveList<GomokuSearch>& moves, float* out) const {
        if (!move_policy) {
            std::fill(out, out + moves.size(), 1.0f);
            return;
        }
        float best = -std::numeric_limits<float>::infinity();
        for (std::size_t i = 0; i < moves.size(); ++i) {
            out[i] = move_policy->logit(board, moves[i].square) / prior_temperature;
            best = std::max(best, out[i]);
        }
        for (std::size_t i = 0; i < moves.size(); ++i) out[i] = std::exp(out[i] - best);
    }
};
using PuctSearch = search::MctsPlayer<GomokuSearch, PuctPolicy>;

// The main search after the threat stages: alpha-beta, or PUCT with the policy's priors.
enum class MainSearch { alphabeta, puct };

// The strong player: threat-space searches for a forced win first (VCF, then VCT), a check of
// the opponent's forced wins by fours that narrows the root to the moves stopping them, then
// iterative-deepening alpha-beta (search/alphabeta.hpp) over the pattern evaluation, with
// threat-restricted move generation and fours in quiescence; or, as `puct`, the shared MCTS
// (search/mcts.hpp) with the network's value at the leaves and the policy's priors. Every part
// stops on `stop` and on the move's hard deadline.
class StrongPlayer : public search::Player<Gomoku> {
public:
    StrongPlayer(const protocol::OptionRegistry& options, MainSearch main)
        : options_(options),
          main_(main),
          search_(std::make_unique<search::AlphaBeta<GomokuSearch, GomokuEvaluator>>(GomokuEvaluator{},
                                                                                     hash_megabytes())) {
        if (main_ == MainSearch::puct) puct_ = std::make_unique<PuctSearch>("puct", [] { return PuctPolicy{}; });
    }

    std::string name() const override { return main_ == MainSearch::puct ? "puct" : "alphabeta"; }
    search::Limits bench_limits(int depth) const override {
        return puct_ ? puct_->bench_limits(depth) : search::Player<Gomoku>::bench_limits(depth);
    }
    void new_game() override {
        search_->clear();
        if (puct_) puct_->new_game();
        const std::string& rule = options_.text("Rule");
        prepare_tables(static_cast<int>(options_.integer("InARow")),
                       rule == "renju" ? Rule::renju : rule == "standard" ? Rule::standard : Rule::freestyle);
    }

    search::SearchResult<Gomoku> search(const search::SearchRequest<Gomoku>& request,
                                        const search::SearchControl<Gomoku>& control) override {
        search_->set_hash_megabytes(hash_megabytes());
        search_->set_threads(static_cast<int>(options_.integer("Threads")));
        refresh_evaluation();
        search::AlphaBetaSettings& settings = search_->settings();
        settings.null_move = options_.boolean("NullMove");
        settings.aspiration_window = static_cast<int>(options_.integer("AspirationWindow"));
        settings.lmr_divisor = static_cast<int>(options_.integer("LmrDivisor"));
        settings.adaptive_time = options_.boolean("AdaptiveTime");
        settings.late_move_pruning_depth = static_cast<int>(options_.integer("LatePruneDepth"));
        settings.threat_search_depth = static_cast<int>(options_.integer("ThreatSearchDepth"));
        settings.use_whole_move_time = options_.boolean("WholeMoveTime");
        settings.forced_reply_moves =
            options_.boolean("ForcedReplyExtension") ? static_cast<int>(options_.integer("ForcedReplyMoves")) : 0;
        settings.move_count_pruning = options_.boolean("MoveCountPruning");
        settings.lmr_base = static_cast<int>(options_.integer("LmrBase"));
        settings.hint_reduction_step = static_cast<int>(options_.integer("PolicyReduction"));
        settings.static_prune_depth = static_cast<int>(options_.integer("StaticPruneDepth"));
        settings.static_prune_margin = static_cast<int>(options_.integer("StaticPruneMargin"));
        search_->evaluator().set_quiescence_fours(static_cast<int>(options_.integer("QuiescenceFours")));
        search_->evaluator().set_threat_search(static_cast<std::uint64_t>(options_.integer("ThreatSearchNodes")),
                                               static_cast<int>(options_.integer("ThreatSearchThrees")));
        search_->evaluator().new_search();
        settings.futility_depth = static_cast<int>(options_.integer("FutilityDepth"));
        settings.futility_margin = static_cast<int>(options_.integer("FutilityMargin"));
        auto converted = search_request(request);
        search::SearchResult<Gomoku> result;
        const search::TimeBudget budget =
            search::plan_time(request.limits, request.root.side_to_move(), request.start);
        // The threat searches may use a share of the move's time; alpha-beta gets the rest.
        auto share = [&](int percent) {
            ThreatLimits limits;
            limits.stop = control.stop;
            if (budget.hard) limits.deadline = request.start + (*budget.hard - request.start) * percent / 100;
            return limits;
        };
        SearchBoard board = converted.root;
        if (options_.boolean("Vcf")) {
            ThreatLimits limits = share(25);
            limits.nodes = static_cast<std::uint64_t>(options_.integer("VcfNodes"));
            const VcfResult vcf = vcf_.search(board, 40, limits);
            result.nodes += vcf.nodes;
            if (vcf.first) return proven_win(request, control, vcf, "vcf", result.nodes);
        }
        vct_.set_policy(options_.boolean("VctPolicy") ? policy_for(request.root.rule) : nullptr);
        vct_.set_four_three(options_.boolean("VctFourThree"));
        if (options_.integer("VctDepth") > 0 && !control.stopped()) {
            ThreatLimits limits = share(static_cast<int>(options_.integer("VctTime")));
            limits.nodes = static_cast<std::uint64_t>(options_.integer("VctNodes"));
            const VcfResult vct = vct_.search(board, static_cast<int>(options_.integer("VctDepth")), limits);
            result.nodes += vct.nodes;
            if (vct.first) return proven_win(request, control, vct, "vct", result.nodes);
        }
        if (options_.boolean("ThreatDefence") && !control.stopped())
            converted.search_moves = stopping_moves(board, share(50), result.nodes);
        converted.root.use_network(network_for(request.root.rule));
        converted.root.exact_defence = options_.boolean("ExactDefence");
        search_->evaluator().set_policy(policy_for(request.root.rule));
        const auto converted_control = search_control(control);
        const auto found = puct_ ? run_puct(converted, converted_control) : search_->search(converted, converted_control);
        result.best = found.best;
        result.has_move = found.has_move;
        result.nodes += found.nodes;
        result.score = found.score;
        return result;
    }

private:
    search::SearchResult<GomokuSearch> run_puct(const search::SearchRequest<GomokuSearch>& request,
                                                const search::SearchControl<GomokuSearch>& control) {
        search::MctsSettings settings;
        settings.exploration = static_cast<float>(options_.integer("PuctExploration")) / 100.0f;
        settings.fpu_reduction = static_cast<float>(options_.integer("PuctFpu")) / 100.0f;
        settings.memory_mib = static_cast<std::size_t>(options_.integer("MctsMemory"));  // pbrain's max_memory caps it
        settings.cp_scale = 400.0f;
        // The move generator already plays a five and blocks the opponent's: no need to try
        // every move at expansion.
        settings.decisive_checks = false;
        puct_->configure(settings, static_cast<int>(options_.integer("Threads")),
                         static_cast<std::uint64_t>(options_.integer("Seed")));
        PuctPolicy policy;
        policy.evaluator = search_->evaluator();
        policy.move_policy = policy_for(request.root.rules.rule);
        policy.prior_temperature = static_cast<float>(options_.integer("PuctPriorTemperature")) / 100.0f;
        policy.leaf_vcf_nodes = static_cast<std::uint64_t>(options_.integer("PuctLeafVcf"));
        puct_->tree().policy() = std::move(policy);
        return puct_->search(request, control);
    }

    search::SearchResult<Gomoku> proven_win(const search::SearchRequest<Gomoku>& request,
                                            const search::SearchControl<Gomoku>& control, const VcfResult& win,
                                            const char* kind, std::uint64_t nodes) const {
        search::SearchResult<Gomoku> result;
        result.best = *win.first;
        result.has_move = true;
        result.nodes = nodes;
        result.score = search::win_score - static_cast<int>(win.line.size());
        if (control.report) {
            search::Report<Gomoku> report;
            report.depth = report.seldepth = static_cast<int>(win.line.size());
            report.score = result.score;
            report.nodes = nodes;
            report.time_ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(search::Clock::now() - request.start).count();
            report.pv = win.line;
            report.extra = kind;
            control.report(report);
        }
        return result;
    }

    // When the opponent, moving now, would win by fours (or, with DefenceVct, by threes and
    // fours), the root moves that leave it no such win (each checked with a small threat
    // search); empty when there is no such threat, when nothing stops it, or when time ran out
    // (the search then chooses among all moves).
    std::vector<Move> stopping_moves(SearchBoard& board, ThreatLimits limits, std::uint64_t& nodes) {
        std::vector<Move> answers;
        const std::uint64_t vcf_budget = static_cast<std::uint64_t>(options_.integer("VcfNodes")) / 20 + 100;
        const int vct_depth = static_cast<int>(options_.integer("VctDepth"));
        const std::uint64_t vct_budget = static_cast<std::uint64_t>(options_.integer("DefenceVctNodes"));
        // The opponent's forced win from here, by fours, or by threes when `with_threes`.
        auto opponent_wins = [&](bool with_threes) {
            ThreatLimits bounded = limits;
            bounded.nodes = with_threes ? vct_budget : vcf_budget;
            const VcfResult found =
                with_threes ? vct_.search(board, vct_depth, bounded) : vcf_.search(board, 40, bounded);
            nodes += found.nodes;
            return found;
        };
        pass_turn(board.rules);
        bool with_threes = false;
        VcfResult threat = opponent_wins(false);
        if (!threat.first && options_.boolean("DefenceVct") && vct_depth > 0 && !control_stopped(limits)) {
            threat = opponent_wins(true);
            with_threes = true;
        }
        pass_turn(board.rules);
        if (!threat.first) return answers;
        MoveList<GomokuSearch> moves;
        GomokuSearch::generate_moves(board, moves);
        const Side me = board.side_to_move();
        for (const Move& move : moves) {
            const Undo record = GomokuSearch::play(board, move);
            bool stops = false;
            if (gomoku::outcome(board.rules).is_win_for(me)) {
                stops = true;
            } else if (!gomoku::outcome(board.rules).is_over()) {
                VcfResult reply = opponent_wins(false);
                if (!reply.first && with_threes && !reply.interrupted) reply = opponent_wins(true);
                if (reply.interrupted && control_stopped(limits)) {
                    GomokuSearch::undo(board, move, record);
                    return {};
                }
                // A search cut short by its node budget counts as "stopped": no proof either way.
                stops = !reply.first;
            }
            GomokuSearch::undo(board, move, record);
            if (stops) answers.push_back(move);
            if (limits.deadline && search::Clock::now() >= *limits.deadline) return {};
        }
        return answers;
    }

    static bool control_stopped(const ThreatLimits& limits) { return limits.stop && limits.stop->load(); }

    // Eval and EvalFile: the fitted weights (the built-in ones per rule, or one file for every
    // rule), or the hand-made pattern values. A file that cannot be read is reported on stderr
    // and the built-in weights are used.
    void refresh_evaluation() {
        const std::string& path = options_.text("EvalFile");
        if (path != file_path_) {
            file_path_ = path;
            file_weights_.reset();
            if (!path.empty()) {
                if (auto loaded = load_fitted_weights(path))
                    file_weights_ = *loaded;
                else
                    protocol::Output::log(fmt::format("gomoku: EvalFile: {}; using the built-in weights", loaded.error()));
            }
        }
        std::array<const FittedWeights*, 3> fitted{};
        if (options_.text("Eval") != "classic")
            for (Rule rule : {Rule::freestyle, Rule::standard, Rule::renju})
                fitted[static_cast<std::size_t>(rule)] = file_weights_ ? &*file_weights_ : builtin_fitted_weights(rule);
        search_->evaluator().set_fitted(fitted);
    }

    // Eval network: the rule's network (NnueFile's, else the built-in one), or none, when the
    // fitted or hand-made evaluation scores. A file that cannot be read is reported on stderr
    // and the built-in networks are used.
    const search::learning::QuantisedNetwork* network_for(Rule rule) {
        if (options_.text("Eval") != "network") return nullptr;
        const std::string& path = options_.text("NnueFile");
        if (path != network_path_ || !networks_) {
            network_path_ = path;
            networks_ = network::NetworkSet::builtin();
            if (!path.empty()) {
                auto with_file = std::make_shared<network::NetworkSet>(*networks_);
                if (auto added = with_file->add_file(path, std::nullopt); added)
                    networks_ = with_file;
                else
                    protocol::Output::log(fmt::format("gomoku: NnueFile: {}; using the built-in networks", added.error()));
            }
        }
        return networks_->for_rule(rule);
    }

    // MovePolicy: PolicyFile's policy, else the rule's built-in one (none: the pattern values
    // order the moves). A file that cannot be read is reported on stderr once.
    const policy::Policy* policy_for(Rule rule) {
        if (!options_.boolean("MovePolicy")) return nullptr;
        const std::string& path = options_.text("PolicyFile");
        if (path != policy_path_) {
            policy_path_ = path;
            file_policy_.reset();
            if (!path.empty()) {
                if (auto loaded = policy::Policy::load(path))
                    file_policy_ = std::move(*loaded);
                else
                    protocol::Output::log(fmt::format("gomoku: PolicyFile: {}; using the built-in policy", loaded.error()));
            }
        }
        return file_policy_ ? &*file_policy_ : policy::builtin_policy(rule);
    }

    std::size_t hash_megabytes() const { return static_cast<std::size_t>(options_.integer("Hash")); }
    std::string policy_path_;
    std::optional<policy::Policy> file_policy_;
    std::string network_path_;
    std::shared_ptr<const network::NetworkSet> networks_;
    const protocol::OptionRegistry& options_;
    MainSearch main_;
    std::unique_ptr<PuctSearch> puct_;
    std::string file_path_;
    std::optional<FittedWeights> file_weights_;
    std::unique_ptr<search::AlphaBeta<GomokuSearch, GomokuEvaluator>> search_;
    VcfSearch vcf_;
    VctSearch vct_;
};

}  // namespace

void add_player_options(protocol::OptionRegistry& options) {
    options.add_check("Vcf", true, "alphabeta: look for a win by continuous fours before the main search");
    options.add_spin("VcfNodes", 200'000, 1, 100'000'000, "alphabeta: positions the VCF search may visit per move");
    options.add_combo("Eval", "network", {"network", "fitted", "classic"},
                      "alphabeta: the pattern network (where one is trained; else fitted), the linear evaluation "
                      "fitted to self-play (where trained), or the hand-made pattern values");
    options.add_string("EvalFile", "", "alphabeta: fitted weights from a file (train_gomoku_eval fit), for every rule");
    options.add_string("NnueFile", "",
                       "alphabeta, Eval network: a network file (train_gomoku_eval network) for every rule");
    options.add_check("MovePolicy", true,
                      "alphabeta: order moves by the learned policy (where one is trained) instead of pattern values");
    options.add_string("PolicyFile", "", "alphabeta, MovePolicy: a policy file (train_gomoku_eval policy) for every rule");
    options.add_check("ExactDefence", false,
                      "alphabeta, puct: facing the opponent's open three, search only our fours and the cells that stop "
                      "it; facing its four-three or double four, our fours and the moves that stop that");
    options.add_check("NullMove", false, "alphabeta: null-move pruning where neither side has a four or open three");
    options.add_spin("AspirationWindow", 0, 0, 100000, "alphabeta: aspiration window from depth 5 (0: full windows)");
    options.add_spin("LmrDivisor", 0, 0, 1000, "alphabeta: logarithmic late move reductions, hundredths (0: one or two plies)");
    options.add_spin("LmrBase", 50, 0, 1000, "alphabeta: with LmrDivisor, the reductions' constant term, hundredths");
    options.add_check("MoveCountPruning", false,
                      "alphabeta: at every depth, skip quiet moves after the first 3 + depth^1.32 (half when not improving)");
    options.add_spin("PolicyReduction", 0, 0, 100000,
                     "alphabeta: reduce a late move one more ply per this many order-hint points below the best, "
                     "beyond the first (MovePolicy: hundredths of a logit; 0: off)");
    options.add_spin("StaticPruneDepth", 0, 0, 20,
                     "alphabeta: at non-PV nodes up to this depth, return a static evaluation that beats beta by "
                     "StaticPruneMargin x depth (0: off)");
    options.add_spin("StaticPruneMargin", 100, 0, 100000, "alphabeta: StaticPruneDepth's margin per ply, centi-units");
    options.add_spin("QuiescenceFours", 3, 0, 64, "alphabeta: the mover's fours quiescence tries per node");
    options.add_check("AdaptiveTime", false, "alphabeta: spend more time when the best move changes");
    options.add_check("WholeMoveTime", false,
                      "alphabeta: with go movetime, keep deepening until the time is up (a cut-off iteration still counts)");
    options.add_check("ForcedReplyExtension", false,
                      "alphabeta: a forced reply (the only move, e.g. blocking a four) does not use up a ply");
    options.add_spin("ForcedReplyMoves", 1, 1, 20,
                     "alphabeta, ForcedReplyExtension: extend nodes with at most this many moves (1: only a forced block)");
    options.add_spin("ThreatSearchDepth", 0, 0, 64,
                     "alphabeta: nodes with at least this many plies left first look for a win by threats (0: off)");
    options.add_spin("ThreatSearchNodes", 500, 1, 1'000'000,
                     "alphabeta: positions each of ThreatSearchDepth's threat searches may visit");
    options.add_spin("ThreatSearchThrees", 1, 0, 20, "alphabeta: threes a win found inside the search may use (0: fours only)");
    options.add_spin("LatePruneDepth", 3, 0, 20,
                     "alphabeta: skip quiet moves after the first 3 + depth^2 at nodes up to this depth (0: off)");
    options.add_spin("FutilityDepth", 0, 0, 20,
                     "alphabeta: skip quiet moves where the evaluation + margin x depth cannot reach alpha, up to this depth (0: off)");
    options.add_spin("FutilityMargin", 150, 0, 100000, "alphabeta: the futility margin per ply, centi-units");
    options.add_spin("VctDepth", 3, 0, 20, "alphabeta: threes a VCT win may use (0: no VCT search)");
    options.add_spin("VctNodes", 100'000, 1, 100'000'000, "alphabeta: positions the VCT search may visit per move");
    options.add_spin("VctTime", 10, 1, 100, "alphabeta: percent of the move's time the VCT search may use");
    options.add_check("VctPolicy", false,
                      "alphabeta, puct: the VCT search tries threats of one class in the move policy's order");
    options.add_check("VctFourThree", false,
                      "alphabeta, puct: the VCT search also counts as a threat a move that makes a four-three or "
                      "double-four cell, answered by the moves that stop it");
    options.add_check("ThreatDefence", true,
                      "alphabeta: when the opponent threatens a win by fours, search only the moves that stop it");
    options.add_check("DefenceVct", false,
                      "alphabeta: ThreatDefence also against wins by threes (the opponent's VCT)");
    options.add_spin("DefenceVctNodes", 2000, 1, 10'000'000,
                     "alphabeta: positions each of DefenceVct's threat searches may visit");
    options.add_spin("PuctExploration", 150, 1, 10000, "puct: c in c * prior * sqrt(N) / (1 + n), hundredths");
    options.add_spin("PuctFpu", 30, 0, 200, "puct: an unvisited move starts at its parent's value minus this, hundredths");
    options.add_spin("PuctPriorTemperature", 100, 10, 1000,
                     "puct: the policy's logits are divided by this (hundredths) before the softmax");
    options.add_spin("PuctLeafVcf", 100, 0, 1'000'000,
                     "puct: positions a search for a win by fours at each new leaf may visit; a leaf whose mover "
                     "wins by fours is a proven win (0: no such search)");
    options.add_spin("Seed", 1, 0, 1'000'000'000, "seed for the players that use chance");
    add_study_player_options(options);
}

std::vector<protocol::PlayerEntry<Gomoku>> gomoku_players() {
    std::vector<protocol::PlayerEntry<Gomoku>> players = {
        {"alphabeta", "VCF threat search, then alpha-beta over incremental line patterns with threat-restricted moves",
         [](const protocol::OptionRegistry& options) {
             return std::make_unique<StrongPlayer>(options, MainSearch::alphabeta);
         }},
        {"puct", "the same threat searches, then PUCT with the pattern network's value and the policy's priors",
         [](const protocol::OptionRegistry& options) { return std::make_unique<StrongPlayer>(options, MainSearch::puct); }},
        {"random", "uniform over the legal moves (reseeded from Seed and the game number every game)",
         [](const protocol::OptionRegistry& options) {
             return std::make_unique<search::RandomPlayer<Gomoku>>(
                 [&options] { return static_cast<std::uint64_t>(options.integer("Seed")); });
         }},
    };
    for (auto& entry : study_players()) players.push_back(std::move(entry));
    return players;
}

}  // namespace bge::gomoku
