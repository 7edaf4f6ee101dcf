#include "engines/gomoku/vcf.hpp"

#include <algorithm>

namespace bge::gomoku {

namespace {

// Empty cells where `side` would make five right now.
int five_cells(const SearchBoard& b, Side side, int* out, int max) {
    int count = 0;
    const auto& threats = b.threat[static_cast<std::size_t>(index_of(side))];
    for (int y = 0; y < b.rules.height; ++y) {
        const int row = square_at(0, y);
        for (int x = 0; x < b.rules.width; ++x) {
            const int square = row + x;
            if (b.near[static_cast<std::size_t>(square)] && threats[static_cast<std::size_t>(square)] == threat_five &&
                b.rules.cells[static_cast<std::size_t>(square)] == empty) {
                if (count < max) out[count] = square;
                ++count;
            }
        }
    }
    return count;
}

}  // namespace

VcfResult VcfSearch::search(SearchBoard& board, int max_plies, std::uint64_t node_limit) {
    VcfResult result;
    nodes_ = 0;
    node_limit_ = node_limit;
    failed_.clear();
    if (board.rules.result != Result::ongoing) return result;
    std::vector<Move> line;
    if (attack(board, max_plies, line)) {
        result.first = line.front();
        result.line = line;
    }
    result.nodes = nodes_;
    return result;
}

bool VcfSearch::attack(SearchBoard& b, int plies_left, std::vector<Move>& line) {
    ++nodes_;
    const Side me = b.side_to_move();
    const Side them = opponent(me);
    int cells[4];
    if (five_cells(b, me, cells, 4) > 0) {
        line.push_back(Move{static_cast<std::uint16_t>(cells[0])});
        return true;
    }
    if (plies_left <= 0 || nodes_ >= node_limit_) return false;
    if (failed_.count(b.rules.hash)) return false;

    // Facing a five, the only move is its block, and it must be a four to keep the initiative.
    MoveList<GomokuSearch> tries;
    int blocks[2];
    const int their_fives = five_cells(b, them, blocks, 2);
    if (their_fives >= 2) return false;
    const auto& mine = b.threat[static_cast<std::size_t>(index_of(me))];
    auto is_four = [&](int square) {
        const Threat t = static_cast<Threat>(mine[static_cast<std::size_t>(square)]);
        return t >= threat_four && t != threat_double_three;
    };
    if (their_fives == 1) {
        if (!is_four(blocks[0])) return false;
        tries.push_back(Move{static_cast<std::uint16_t>(blocks[0])});
    } else {
        cells_with_threat(b, me, threat_four, tries);
        std::size_t kept = 0;
        for (const Move& move : tries)
            if (is_four(move.square)) tries[kept++] = move;
        tries.resize(kept);
        // Open fours and double threats first: they end the search at once.
        std::stable_sort(tries.begin(), tries.end(),
                         [&](const Move& a, const Move& c) { return mine[a.square] > mine[c.square]; });
    }

    for (const Move& move : tries) {
        const Undo attack_record = GomokuSearch::play(b, move);
        line.push_back(move);
        bool won = false;
        const Outcome after = gomoku::outcome(b.rules);
        if (after.is_win_for(me)) {
            won = true;
        } else if (!after.is_over()) {
            int replies[4];
            const int threats = five_cells(b, me, replies, 4);
            if (threats >= 2) {
                // Two fives in waiting: the defender blocks one, the other wins.
                const Undo block = GomokuSearch::play(b, Move{static_cast<std::uint16_t>(replies[0])});
                const Outcome blocked = gomoku::outcome(b.rules);
                if (blocked.is_win_for(me)) {
                    won = true;  // the block was a forbidden move
                    line.push_back(Move{static_cast<std::uint16_t>(replies[0])});
                } else if (!blocked.is_over()) {
                    line.push_back(Move{static_cast<std::uint16_t>(replies[0])});
                    won = attack(b, plies_left - 1, line);
                    if (!won) line.pop_back();
                }
                GomokuSearch::undo(b, Move{static_cast<std::uint16_t>(replies[0])}, block);
            } else if (threats == 1) {
                const Move reply{static_cast<std::uint16_t>(replies[0])};
                const Undo block = GomokuSearch::play(b, reply);
                line.push_back(reply);
                const Outcome blocked = gomoku::outcome(b.rules);
                if (blocked.is_win_for(me))
                    won = true;  // the forced block was forbidden
                else if (!blocked.is_over())
                    won = attack(b, plies_left - 1, line);
                if (!won) line.pop_back();
                GomokuSearch::undo(b, reply, block);
            }
        }
        if (!won) line.pop_back();
        GomokuSearch::undo(b, move, attack_record);
        if (won) return true;
        if (nodes_ >= node_limit_) return false;
    }
    failed_.insert(b.rules.hash);
    return false;
}

}  // namespace bge::gomoku
