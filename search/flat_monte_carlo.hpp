#pragma once
// Flat Monte Carlo, written once for every game: every legal move of the root gets playouts in
// turn (one round gives each move one), and the move whose playouts the mover scored best in is
// played (a win counts 1, a draw 1/2). No tree: the baseline the MCTS studies compare against.
//
// The game supplies the playout: `Outcome playout(State& state, Random& random)` plays the state
// (a copy, which it may change) to the end.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/game.hpp"
#include "core/random.hpp"
#include "search/limits.hpp"
#include "search/player.hpp"

namespace bge::search {

struct FlatMonteCarloSettings {
    // Playouts per legal move; 0: as many rounds as the time limit allows (`default_rounds`
    // without one). `go nodes N` sets the total number of playouts instead.
    std::uint64_t playouts_per_move = 0;
    std::uint64_t default_rounds = 100;
};

template <Game G, class Playout>
SearchResult<G> flat_monte_carlo(const SearchRequest<G>& request, const SearchControl<G>& control,
                                 const FlatMonteCarloSettings& settings, Playout&& playout, Random& random) {
    using State = typename G::State;
    SearchResult<G> result;
    MoveList<G> moves;
    G::generate_moves(request.root, moves);
    if (moves.empty() || G::outcome(request.root).is_over()) return result;
    const Side mover = G::side_to_move(request.root);
    const TimeBudget budget = plan_time(request.limits, mover, request.start);
    const bool timed = budget.soft.has_value() || request.limits.infinite;

    std::uint64_t total_limit = std::numeric_limits<std::uint64_t>::max();
    if (request.limits.nodes)
        total_limit = std::max<std::uint64_t>(*request.limits.nodes, moves.size());
    else if (settings.playouts_per_move > 0)
        total_limit = settings.playouts_per_move * moves.size();
    else if (!timed)
        total_limit = settings.default_rounds * moves.size();

    std::vector<double> score(moves.size(), 0.0);
    std::vector<std::uint64_t> played(moves.size(), 0);
    std::uint64_t playouts = 0;
    bool stop = false;
    while (!stop && playouts < total_limit) {
        for (std::size_t i = 0; i < moves.size() && playouts < total_limit; ++i) {
            State state = request.root;
            G::play(state, moves[i]);
            const Outcome end = G::outcome(state).is_over() ? G::outcome(state) : playout(state, random);
            score[i] += end.kind == OutcomeKind::draw ? 0.5 : end.is_win_for(mover) ? 1.0 : 0.0;
            ++played[i];
            ++playouts;
            if ((playouts & 15) == 0) {
                if (control.stopped() || (budget.soft && !request.limits.infinite && Clock::now() >= *budget.soft)) {
                    stop = true;
                    break;
                }
            }
        }
    }
    std::size_t best = 0;
    auto rate = [&](std::size_t i) { return played[i] ? score[i] / static_cast<double>(played[i]) : -1.0; };
    for (std::size_t i = 1; i < moves.size(); ++i)
        if (rate(i) > rate(best)) best = i;
    result.best = moves[best];
    result.has_move = true;
    result.nodes = playouts;
    const double win_rate = std::clamp(rate(best), 0.001, 0.999);
    result.score = static_cast<int>(std::lround(300.0 * std::atanh(2.0 * win_rate - 1.0)));
    if (control.report) {
        Report<G> report;
        report.depth = report.seldepth = 1;
        report.score = result.score;
        report.nodes = playouts;
        report.time_ms = std::chrono::duration_cast<Milliseconds>(Clock::now() - request.start).count();
        report.pv = {result.best};
        control.report(report);
    }
    return result;
}

}  // namespace bge::search
