#pragma once
// Weighted random play over two kinds of moves (Tak: placements and spreads): with probability p
// a move of the first kind, otherwise one of the second, then uniformly within the kind. When only
// one kind is legal it is used whatever p says.

#include <cstdint>

#include "core/game.hpp"
#include "core/random.hpp"

namespace bge::search {

// `is_first_kind(move)` classifies a move. Draws one unit() only when both kinds are present, then
// one below(); `moves` must not be empty.
template <Game G, class IsFirstKind>
typename G::Move choose_by_kind(const MoveList<G>& moves, IsFirstKind&& is_first_kind, double first_probability,
                                Random& random) {
    std::uint32_t first = 0;
    for (const auto& move : moves)
        if (is_first_kind(move)) ++first;
    const auto total = static_cast<std::uint32_t>(moves.size());
    bool want_first = first == total;
    if (first != 0 && first != total) want_first = random.unit() < first_probability;
    const std::uint32_t pool = want_first ? first : total - first;
    std::uint32_t pick = random.below(pool);
    for (const auto& move : moves)
        if (static_cast<bool>(is_first_kind(move)) == want_first && pick-- == 0) return move;
    return moves[0];  // not reached
}

}  // namespace bge::search
