#include "engines/expendibots/study_players.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "engines/expendibots/evaluation.hpp"
#include "protocol/game_seeds.hpp"
#include "search/random_player.hpp"

namespace bge::expendibots {

namespace {

using protocol::OptionRegistry;

constexpr int decisive = 100'000;  // a won or lost position for the baselines' own scores

// Greedy's key for the position after the mover's move: tokens destroyed (enemy minus own),
// then closeness. A win beats everything, a loss is worst, a draw counts as nothing destroyed.
int greedy_key(const State& before, const State& after, Side mover) {
    const Outcome o = outcome(after);
    if (o.kind == OutcomeKind::win) return o.winner == mover ? decisive : -decisive;
    const int enemy_lost = before.tokens[index_of(opponent(mover))] - after.tokens[index_of(opponent(mover))];
    const int own_lost = before.tokens[index_of(mover)] - after.tokens[index_of(mover)];
    const int distance = closest_distance(after.stacks_of(mover), after.stacks_of(opponent(mover)));
    return 100 * (enemy_lost - own_lost) - distance;
}

// Material for the side to move, in centi-tokens; decided games are +-decisive.
int material(const State& state) {
    const Outcome o = outcome(state);
    if (o.kind == OutcomeKind::win) return o.winner == state.to_move ? decisive : -decisive;
    if (o.kind == OutcomeKind::draw) return 0;
    return 100 * (state.tokens[index_of(state.to_move)] - state.tokens[index_of(opponent(state.to_move))]);
}

// Plain negamax to `depth` over material, no pruning, no table.
int negamax(State& state, int depth) {
    if (depth == 0 || outcome(state).is_over()) return material(state);
    MoveList<Expendibots> moves;
    generate_moves(state, moves);
    int best = -2 * decisive;
    for (const Move& move : moves) {
        const Undo record = play(state, move);
        best = std::max(best, -negamax(state, depth - 1));
        undo(state, move, record);
    }
    return best;
}

template <class Choose>
class ChoosingPlayer : public search::Player<Expendibots> {
public:
    ChoosingPlayer(std::string name, const OptionRegistry& options, Choose choose)
        : name_(std::move(name)), seeds_(options), random_(seeds_.next()), choose_(std::move(choose)) {}
    std::string name() const override { return name_; }
    void new_game() override { random_.reseed(seeds_.next()); }

    search::SearchResult<Expendibots> search(const search::SearchRequest<Expendibots>& request,
                                             const search::SearchControl<Expendibots>& control) override {
        search::SearchResult<Expendibots> result;
        int score = 0;
        std::uint64_t nodes = 0;
        const std::vector<Move> best = choose_(request.root, score, nodes);
        if (best.empty()) return result;
        result.best = best[random_.below(static_cast<std::uint32_t>(best.size()))];
        result.has_move = true;
        result.nodes = nodes;
        const int depth = name_ == "minimax2" ? 2 : 1;
        // Decided positions in the search's terms: a win within `depth` plies.
        if (score >= decisive) score = search::win_score - depth;
        if (score <= -decisive) score = -(search::win_score - depth);
        result.score = score;
        if (control.report) {
            search::Report<Expendibots> report;
            report.depth = report.seldepth = depth;
            report.score = score;
            report.nodes = nodes;
            report.time_ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(search::Clock::now() - request.start).count();
            report.pv = {result.best};
            control.report(report);
        }
        return result;
    }

private:
    std::string name_;
    protocol::GameSeeds seeds_;
    Random random_;
    Choose choose_;
};

template <class Choose>
std::unique_ptr<search::Player<Expendibots>> make_choosing(std::string name, const OptionRegistry& options,
                                                            Choose choose) {
    return std::make_unique<ChoosingPlayer<Choose>>(std::move(name), options, std::move(choose));
}

}  // namespace

std::vector<Move> greedy_best_moves(const State& state) {
    MoveList<Expendibots> moves;
    generate_moves(state, moves);
    std::vector<Move> best;
    int best_key = 0;
    for (const Move& move : moves) {
        State after = state;
        play(after, move);
        const int key = greedy_key(state, after, state.to_move);
        if (best.empty() || key > best_key) {
            best.assign(1, move);
            best_key = key;
        } else if (key == best_key) {
            best.push_back(move);
        }
    }
    return best;
}

std::vector<Move> minimax2_best_moves(const State& root, int* best_score) {
    State state = root;
    MoveList<Expendibots> moves;
    generate_moves(state, moves);
    std::vector<Move> best;
    int best_value = 0;
    for (const Move& move : moves) {
        const Undo record = play(state, move);
        const int value = -negamax(state, 1);
        undo(state, move, record);
        if (best.empty() || value > best_value) {
            best.assign(1, move);
            best_value = value;
        } else if (value == best_value) {
            best.push_back(move);
        }
    }
    if (best_score) *best_score = best_value;
    return best;
}

std::vector<protocol::PlayerEntry<Expendibots>> study_players() {
    return {
        {"random", "uniform over the legal moves (reseeded from Seed and the game number every game)",
         [](const OptionRegistry& options) {
             return std::make_unique<search::RandomPlayer<Expendibots>>(
                 [&options] { return static_cast<std::uint64_t>(options.integer("Seed")); });
         }},
        {"greedy",
         "one ply: most tokens destroyed net of own losses, then closest to the enemy; ties at random (Seed)",
         [](const OptionRegistry& options) {
             return make_choosing("greedy", options, [](const State& state, int& score, std::uint64_t& nodes) {
                 const auto best = greedy_best_moves(state);
                 nodes = count_moves(state);
                 if (!best.empty()) {
                     State after = state;
                     play(after, best.front());
                     score = greedy_key(state, after, state.to_move);
                 }
                 return best;
             });
         }},
        {"minimax2", "plain depth-2 minimax over material (tokens), no pruning; ties at random (Seed)",
         [](const OptionRegistry& options) {
             return make_choosing("minimax2", options, [](const State& state, int& score, std::uint64_t& nodes) {
                 nodes = 0;
                 MoveList<Expendibots> moves;
                 generate_moves(state, moves);
                 State copy = state;
                 for (const Move& move : moves) {
                     const Undo record = play(copy, move);
                     nodes += 1 + (outcome(copy).is_over() ? 0 : count_moves(copy));
                     undo(copy, move, record);
                 }
                 return minimax2_best_moves(state, &score);
             });
         }},
    };
}

}  // namespace bge::expendibots
