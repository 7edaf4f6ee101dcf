#include "engines/tak/mcts_player.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>
#include <memory>

#include "core/tak/bitboard.hpp"
#include "engines/tak/eval_file.hpp"
#include "search/mcts_player.hpp"

namespace bge::tak {

float TakMctsPolicy::value(const State& state, Random&) const {
    if (leaf_depth <= 0) return std::tanh(static_cast<float>(evaluator.evaluate(state)) / value_scale);
    State copy = state;
    const int score = negamax(copy, leaf_depth, -1'000'000, 1'000'000);
    return std::tanh(static_cast<float>(score) / value_scale);
}

// A plain alpha-beta (no table) over the evaluation, for leaf values that see short tactics.
int TakMctsPolicy::negamax(State& state, int depth, int alpha, int beta) const {
    const Outcome outcome = tak::outcome(state);
    if (outcome.is_over()) {
        if (outcome.kind == OutcomeKind::draw) return 0;
        return outcome.winner == state.side_to_move() ? 100'000 : -100'000;
    }
    if (depth == 0) return evaluator.evaluate(state);
    MoveList<Tak> moves;
    generate_moves(state, moves);
    std::vector<std::pair<int, Move>> ordered;
    ordered.reserve(moves.size());
    for (const Move& move : moves) ordered.emplace_back(evaluator.static_hint(state, move), move);
    std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    int best = -1'000'000;
    for (const auto& [hint, move] : ordered) {
        const Undo record = play(state, move);
        const int score = -negamax(state, depth - 1, -beta, -alpha);
        undo(state, move, record);
        best = std::max(best, score);
        alpha = std::max(alpha, score);
        if (alpha >= beta) break;
    }
    return best;
}

TakMctsPolicy::Context TakMctsPolicy::context(const State& s) const {
    const Side us = s.side_to_move();
    return {TakEvaluator::road_in_one_squares(s, us), TakEvaluator::road_in_one_squares(s, opponent(us)),
            s.road_squares(us), s.top_of(opponent(us))};
}

float TakMctsPolicy::logit(const State& s, const Context& c, const Move& move) const {
    const int square = move.square();
    const Bitboard here = bit(square);
    // A placement that completes a road wins on the spot; one that fills the opponent's winning
    // square is usually forced.
    if (move.is_placement()) {
        if ((c.our_threats & here) && move.stone() != Stone::wall) return 12.0f;
        if (c.their_threats & here) return 5.0f + (move.stone() == Stone::flat ? 0.0f : 0.5f);
    }
    float logit = move_policy ? move_policy->logit(s, policy::Context{s.side_to_move(), c.their_threats}, move)
                              : static_cast<float>(evaluator.static_hint(s, move)) / 25.0f;
    if (c.their_threats && !move.is_placement()) logit += 0.5f;  // spreads can also break a road
    return logit;
}

void TakMctsPolicy::priors(const State& s, const MoveList<Tak>& moves, float* out) const {
    const Context c = context(s);
    float highest = -1e9f;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        out[i] = logit(s, c, moves[i]) / prior_temperature;
        highest = std::max(highest, out[i]);
    }
    for (std::size_t i = 0; i < moves.size(); ++i) out[i] = std::exp(out[i] - highest);
}

namespace {

using TakMcts = search::MctsPlayer<Tak, TakMctsPolicy>;

// Reads the MCTS options before each search, so setoption takes effect at the next move.
class MctsPlayer : public search::Player<Tak> {
public:
    explicit MctsPlayer(const protocol::OptionRegistry& options)
        : options_(options), player_("mcts", [this] { return make_policy(); }, settings(), threads(), seed()) {}

    std::string name() const override { return "mcts"; }
    void new_game() override { player_.new_game(); }

    search::SearchResult<Tak> search(const search::SearchRequest<Tak>& request,
                                     const search::SearchControl<Tak>& control) override {
        eval_file_.refresh(options_);
        network_option_.refresh(options_);
        player_.configure(settings(), threads(), seed());
        const TakMctsPolicy policy = make_policy();
        player_.tree().policy() = policy;  // each search thread starts from a copy of it
        return player_.search(request, control);
    }

private:
    search::MctsSettings settings() const {
        search::MctsSettings s;
        s.exploration = static_cast<float>(options_.integer("MctsCpuct")) / 100.0f;
        s.fpu_reduction = static_cast<float>(options_.integer("MctsFpu")) / 100.0f;
        s.solver = options_.boolean("MctsSolver");
        s.reuse_tree = options_.boolean("MctsReuseTree");
        s.graph = options_.boolean("MctsGraph");
        s.memory_mib = static_cast<std::size_t>(options_.integer("MctsMemory"));
        s.cp_scale = static_cast<float>(options_.integer("MctsValueScale"));
        s.minimax_weight = static_cast<float>(options_.integer("MctsMinimaxWeight")) / 100.0f;
        return s;
    }
    // The evaluation and priors of EvalFile, UseNnue and UsePolicy, as alpha-beta uses them.
    TakMctsPolicy make_policy() const {
        TakMctsPolicy policy;
        if (const auto weights = eval_file_.weights()) policy.evaluator = TakEvaluator(weights);
        policy.evaluator.use_networks(network_option_.networks());
        policy.evaluator.set_network_weight(static_cast<int>(options_.integer("NnueWeight")));
        policy.move_policy = network_option_.move_policy();
        policy.value_scale = static_cast<float>(options_.integer("MctsValueScale"));
        policy.prior_temperature = static_cast<float>(options_.integer("MctsPriorTemperature")) / 100.0f;
        policy.leaf_depth = static_cast<int>(options_.integer("MctsLeafDepth"));
        return policy;
    }
    int threads() const { return static_cast<int>(options_.integer("Threads")); }
    std::uint64_t seed() const { return static_cast<std::uint64_t>(options_.integer("Seed")); }

    const protocol::OptionRegistry& options_;
    EvalFile eval_file_;
    NetworkOption network_option_;
    TakMcts player_;
};

}  // namespace

void add_mcts_player_options(protocol::OptionRegistry& options) {
    options.add_spin("MctsMemory", 512, 16, 65536, "mcts: memory per tree in MiB; a full tree ends the search");
    options.add_spin("MctsCpuct", 140, 1, 10000, "mcts: PUCT exploration constant, in hundredths");
    options.add_spin("MctsFpu", 30, 0, 200, "mcts: first-play urgency reduction, in hundredths");
    options.add_spin("MctsValueScale", 400, 10, 10000, "mcts: evaluation (centi-flats) mapped to tanh(1)");
    options.add_spin("MctsPriorTemperature", 100, 10, 1000, "mcts: softmax temperature of move priors, hundredths");
    options.add_spin("MctsMinimaxWeight", 0, 0, 100, "mcts: weight of implicit minimax backups, in hundredths");
    options.add_spin("MctsLeafDepth", 2, 0, 4, "mcts: leaves valued by an alpha-beta search this deep (0: static)");
    options.add_check("MctsSolver", true, "mcts: propagate proven wins and losses");
    options.add_check("MctsReuseTree", true, "mcts: keep the tree between moves");
    options.add_check("MctsGraph", false, "mcts: share nodes between transpositions (Monte-Carlo graph search)");
}

std::vector<protocol::PlayerEntry<Tak>> mcts_players() {
    return {{"mcts", "PUCT Monte Carlo tree search over a Tak policy and value",
             [](const protocol::OptionRegistry& options) { return std::make_unique<MctsPlayer>(options); }}};
}

}  // namespace bge::tak
