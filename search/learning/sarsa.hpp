#pragma once
// SARSA with a linear action-value function, written once against the Game concept.
//
// Q(s, a) = w . phi(s, a), where phi describes the position after a (the afterstate) from the
// view of the side that played a. In a two-player game each side's decisions form their own
// SARSA chain, so the rule is the textbook one without negation:
//
//   - when a side chooses its next action a' in s', the update for its previous pair (s, a) is
//     made, before a' is played:  Q(s,a) += alpha * (r + gamma * Q(s',a') - Q(s,a));
//   - when the game ends, the pending pair of each side gets a final update with the terminal
//     target r: +1 for a win, -1 for a loss, 0 for a draw. Every other reward is 0.
//
// The update is applied through NLMS (linear.hpp), so alpha is the fraction of the error removed
// on the sample and alpha near 1 (the Tak study's 0.99) stays stable.
//
// Features: a type F with `static constexpr std::size_t count` and
// `static void compute(const State& after, const Move& move, Side mover, std::array<double, count>&)`.

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/game.hpp"
#include "core/random.hpp"
#include "search/learning/linear.hpp"

namespace bge::search::learning {

template <class F, class G>
concept ActionFeatures = Game<G> && requires(const typename G::State& after, const typename G::Move& move, Side mover,
                                             std::array<double, F::count>& phi) {
    { F::count } -> std::convertible_to<std::size_t>;
    { F::compute(after, move, mover, phi) } -> std::same_as<void>;
};

struct SarsaParameters {
    double epsilon = 0.1;  // exploration: probability of a uniformly random action
    double alpha = 0.99;   // NLMS step (fraction of the error removed per update)
    double gamma = 0.99;   // discount per own move
};

// The reward of a finished game for `side`: +1 win, -1 loss, 0 draw (and 0 while it goes on).
inline double terminal_reward(const Outcome& outcome, Side side) {
    if (outcome.kind != OutcomeKind::win) return 0.0;
    return outcome.winner == side ? 1.0 : -1.0;
}

template <Game G, class F>
requires ActionFeatures<F, G>
class Sarsa {
public:
    using State = typename G::State;
    using Move = typename G::Move;
    using Q = LinearFunction<F::count>;
    using Phi = typename Q::Features;

    // phi of `move` in `state`, from the mover's view. `state` is played on and restored.
    static Phi features(State& state, const Move& move) {
        Phi phi{};
        const Side mover = G::side_to_move(state);
        const auto undo = G::play(state, move);
        F::compute(state, move, mover, phi);
        G::undo(state, move, undo);
        return phi;
    }

    struct Choice {
        Move move{};
        Phi phi{};
        double q = 0;
    };

    // Epsilon-greedy: with probability epsilon a uniformly random move, otherwise one of highest
    // Q (ties broken uniformly at random). `moves` must not be empty.
    static Choice choose(State& state, const MoveList<G>& moves, const Q& q, double epsilon, Random& random) {
        Choice best;
        if (epsilon > 0 && random.unit() < epsilon) {
            best.move = moves[random.below(static_cast<std::uint32_t>(moves.size()))];
            best.phi = features(state, best.move);
            best.q = q.value(best.phi);
            return best;
        }
        std::uint32_t ties = 0;
        for (const auto& move : moves) {
            const Phi phi = features(state, move);
            const double value = q.value(phi);
            if (ties == 0 || value > best.q) {
                best = {move, phi, value};
                ties = 1;
            } else if (value == best.q && random.below(++ties) == 0) {
                best = {move, phi, value};
            }
        }
        return best;
    }

    // The study's update for one pair: target = reward + gamma * next_q, or just the reward when
    // the game ended (next_q empty). Returns the error before the update.
    static double update(Q& q, const Phi& phi, double reward, std::optional<double> next_q,
                         const SarsaParameters& parameters) {
        const double target = next_q ? reward + parameters.gamma * *next_q : reward;
        return q.nlms_update(phi, target, parameters.alpha);
    }

    // One side's chain: the pair waiting for its update.
    struct Pending {
        bool active = false;
        Phi phi{};
    };

    struct Episode {
        Outcome outcome;  // ongoing when the game was cut at max_plies
        int plies = 0;
        int updates = 0;
        double squared_error = 0;  // summed over the updates
    };

    // One game of self-play from `state` (both sides share q). A game longer than max_plies is cut
    // without a terminal update.
    static Episode self_play(State state, Q& q, const SarsaParameters& parameters, Random& random, int max_plies) {
        Episode episode;
        Pending pending[2];
        MoveList<G> moves;
        auto apply = [&](Pending& pair, double reward, std::optional<double> next_q) {
            const double error = update(q, pair.phi, reward, next_q, parameters);
            episode.squared_error += error * error;
            ++episode.updates;
            pair.active = false;
        };
        while (episode.plies < max_plies) {
            const Side mover = G::side_to_move(state);
            moves.clear();
            G::generate_moves(state, moves);
            if (moves.empty()) break;
            const Choice choice = choose(state, moves, q, parameters.epsilon, random);
            // The previous pair of this side is updated now that a' is chosen, before it is played.
            if (pending[index_of(mover)].active) apply(pending[index_of(mover)], 0.0, choice.q);
            pending[index_of(mover)] = {true, choice.phi};
            G::play(state, choice.move);
            ++episode.plies;
            episode.outcome = G::outcome(state);
            if (episode.outcome.is_over()) {
                for (Side side : {mover, opponent(mover)})
                    if (pending[index_of(side)].active)
                        apply(pending[index_of(side)], terminal_reward(episode.outcome, side), std::nullopt);
                break;
            }
        }
        return episode;
    }
};

}  // namespace bge::search::learning
