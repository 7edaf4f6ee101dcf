#pragma once
// Rollout (playout) policies for Monte Carlo searches: a policy picks one move among the legal
// ones. It may play and undo moves on `state` but must leave it as it found it; it is called from
// several threads at once, each with its own Random, so choose() must not change the policy.

#include <concepts>
#include <cstdint>

#include "core/game.hpp"
#include "core/random.hpp"

namespace bge::search {

template <class P, class G>
concept RolloutPolicy = Game<G> &&
    requires(const P& policy, typename G::State& state, const MoveList<G>& moves, Random& random) {
    { policy.choose(state, moves, random) } -> std::same_as<typename G::Move>;
};

template <Game G>
struct UniformRollout {
    typename G::Move choose(typename G::State&, const MoveList<G>& moves, Random& random) const {
        return moves[random.below(static_cast<std::uint32_t>(moves.size()))];
    }
};

// How a playout ended, counted over several playouts.
struct RolloutTally {
    std::uint64_t wins[2] = {0, 0};  // by Side index
    std::uint64_t draws = 0;
    std::uint64_t total() const { return wins[0] + wins[1] + draws; }
    RolloutTally& operator+=(const RolloutTally& other) {
        wins[0] += other.wins[0];
        wins[1] += other.wins[1];
        draws += other.draws;
        return *this;
    }
};

// Plays `state` out with `policy` until the game ends or `max_plies` more plies have been played
// (then it counts as a draw). `state` is left at the end of the playout.
template <Game G, RolloutPolicy<G> P>
RolloutTally play_out(typename G::State& state, const P& policy, Random& random, int max_plies) {
    RolloutTally tally;
    MoveList<G> moves;
    for (int ply = 0;; ++ply) {
        const Outcome outcome = G::outcome(state);
        if (outcome.kind == OutcomeKind::win) {
            ++tally.wins[index_of(outcome.winner)];
            return tally;
        }
        if (outcome.kind == OutcomeKind::draw || ply >= max_plies) break;
        moves.clear();
        G::generate_moves(state, moves);
        if (moves.empty()) break;
        G::play(state, policy.choose(state, moves, random));
    }
    ++tally.draws;
    return tally;
}

}  // namespace bge::search
