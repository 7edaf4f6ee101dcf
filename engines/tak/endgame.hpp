#pragma once
// Endgame solver: proves the result of a Tak position near the end of the game, where the flat
// race is a counting problem that an evaluation can only guess (docs/tak.md, "Endgame solver").
//
// The game ends when either reserve is empty or the board is full (or on a road), and nothing
// forces a player to place: stack moves delay the end. So the solver does not count placements;
// it searches the real game, full width, to a depth of plies, and asks only yes-or-no questions
// about game-ending outcomes: "can the attacker make the game end with at least this result within
// d plies, whatever the defender does?" (an AND/OR search: the attacker needs one move, the
// defender must have no escape). A position is proven a win when the side to move can force a win,
// a loss when the opponent can, a draw when each side can force at least a draw. The depth grows
// one ply at a time, so the first win found is the fastest, and a lost side picks the move whose
// loss takes longest.
//
// Every question keeps its answers in a table keyed by the position (side to move included), the
// attacker, the goal, the board size and komi: "reached within p plies" and "not within q plies"
// are facts about the position alone, so the table is kept from one call to the next.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/tak/tak.hpp"
#include "engines/tak/tinue.hpp"
#include "search/limits.hpp"

namespace bge::tak {

// The fewest placements that could end the game on flats: the empty squares, or the smaller
// reserve. The solver's trigger compares it with EndgamePlacements.
int placements_to_end(const State& state);

enum class EndgameValue : std::uint8_t { unknown, win, draw, loss };

struct EndgameResult {
    EndgameValue value = EndgameValue::unknown;  // for the side to move
    std::optional<Move> best;  // the fastest win, a move that holds the draw, or the longest-resisting loss
    int plies = 0;             // win or loss: plies to the end of the game with best play on both sides
    std::uint64_t nodes = 0;   // moves played
    int depth = 0;             // the deepest iteration searched in full
};

class EndgameSolver {
public:
    // `table_entries` is rounded down to a power of two; the table is allocated on first use.
    explicit EndgameSolver(std::size_t table_entries = std::size_t{1} << 20);

    // Searches `root` to at most `max_plies` plies, within `node_budget` moves played, until `stop`
    // is set or `deadline` passes. Unknown when no proof was found in time.
    EndgameResult solve(const State& root, int max_plies, std::uint64_t node_budget,
                        const std::atomic<bool>* stop = nullptr,
                        std::optional<search::Clock::time_point> deadline = std::nullopt);

    // Forgets every proof: a new game starts from an empty table, so a game's moves do not depend
    // on the games the process played before (fixed-node matches and analyses repeat exactly,
    // whichever process plays them).
    void clear();

    // The same question as the search asks at each node, for the tests: can the side to move force
    // a result of at least `draw_is_enough ? draw : win` within `plies`? Uses no budget.
    bool forces(const State& state, bool draw_is_enough, int plies);

private:
    enum class Goal : std::uint8_t { win, at_least_draw };
    struct Entry {
        std::uint64_t key = 0;
        std::int8_t proven = -1;   // the goal is forced within this many plies
        std::int8_t refuted = -1;  // it is not forced within this many
        Move best = Move::none();  // the attacker's proving move, or the defender's escape
    };

    bool attack(State& state, int plies, int level);
    bool defend(State& state, int plies, int level);
    // Whether the side to move has a move that ends the game at once with at least `goal`; the
    // move in `found`.
    bool ends_at_once(State& state, Goal goal, Move* found = nullptr);
    bool reached(const Outcome& outcome, Side side, Goal goal) const;
    // The goal the defender needs to escape the attacker's: a draw escapes a win, a win escapes a draw.
    Goal escape_goal() const { return goal_ == Goal::win ? Goal::at_least_draw : Goal::win; }
    std::uint64_t key_of(const State& state) const;
    Entry* probe(const State& state);
    void store(const State& state, int plies, bool proven, Move best);
    // Moves in the order worth trying: the table's move first, then flat placements, captures,
    // the other placements, the other spreads.
    void order(const State& state, MoveList<Tak>& moves, Move first);
    // Calls visit(move) for every legal move, flat placements first, until it returns true.
    template <class Visit>
    void visit_moves(const State& state, int level, Move first, Visit&& visit);
    MoveList<Tak>& moves_at(int level);
    // Asks attack() at the root with the given attacker and goal; the proving move in `first`.
    bool ask(State& root, Side attacker, Goal goal, int plies, Move* first);
    void longest_resistance(State& root, int plies, EndgameResult& result);

    struct ScoredMove {
        int merit;
        Move move;
    };
    std::vector<ScoredMove> scored_;  // order()'s scratch, kept to avoid allocating per node
    std::vector<Entry> table_;
    std::size_t mask_ = 0;
    std::vector<std::unique_ptr<MoveList<Tak>>> move_lists_;
    Side attacker_ = Side::first;
    Goal goal_ = Goal::win;
    std::uint64_t nodes_ = 0;
    TinueBudget budget_;
    bool limited_ = false;
    Move root_move_ = Move::none();
};

}  // namespace bge::tak
