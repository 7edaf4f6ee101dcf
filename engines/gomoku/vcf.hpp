#pragma once
// Victory by continuous fours (VCF): the side to move wins if a chain of fours, each answered by
// the one block it allows, ends in a five or an unstoppable double threat. Every attacker move
// is a four, so the defender's reply is forced; a defender's block that makes a four of its own
// must be answered first, by a move that is itself a four. Under renju the rules decide Black's
// forbidden moves (a forbidden attacker move is skipped, a forbidden forced block loses).

#include <cstdint>
#include <optional>
#include <unordered_set>
#include <vector>

#include "engines/gomoku/board.hpp"

namespace bge::gomoku {

struct VcfResult {
    std::optional<Move> first;  // the move that starts the win
    std::vector<Move> line;     // attacker and defender moves to the five
    std::uint64_t nodes = 0;
};

class VcfSearch {
public:
    // Searches at most `max_plies` attacker moves deep and `node_limit` positions.
    VcfResult search(SearchBoard& board, int max_plies = 30, std::uint64_t node_limit = 200'000);

private:
    bool attack(SearchBoard& board, int plies_left, std::vector<Move>& line);
    std::uint64_t nodes_ = 0;
    std::uint64_t node_limit_ = 0;
    std::unordered_set<std::uint64_t> failed_;
};

}  // namespace bge::gomoku
