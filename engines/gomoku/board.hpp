#pragma once
// The search's view of a Gomoku position: the rules state plus Rapfi-style incremental line
// patterns. Every line of the board (4 directions) is kept as a 64-bit word of 2-bit cells; the
// pattern a stone on an empty cell would make along one line is a table lookup on the 10 cells
// around it (5 each side). Each empty cell keeps, per colour, its best pattern, its threat class
// and a value; playing a stone refreshes only the cells within 5 along its 4 lines, and the
// per-colour sums of the values (the evaluation) follow incrementally. Undoing a stone restores
// what the play changed from a journal instead of computing the patterns again.
//
// GomokuSearch (below) is the Game the engine's searches run on: the same moves and rules, but
// generate_moves lists only cells near stones, and only the forced ones when a four or an open
// three is on the board. The full legal move list stays with core/gomoku (perft, the referee).

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/gomoku/gomoku.hpp"
#include "search/learning/nnue.hpp"

namespace bge::gomoku {

// What one more stone on an empty cell makes along one line, weakest first.
enum Pattern : std::uint8_t {
    dead,   // no room for k in a row
    one,    // room, but no other stone of ours in reach
    two,    // two stones within one k-window (one way to grow)
    flex2,  // an open two
    three,  // a three that can only become a four
    flex3,  // an open three: one more stone makes an open four
    four,   // four: one cell left to make k
    flex4,  // open four (or two fives-in-waiting on the line): cannot be stopped
    five,   // k in a row (under the colour's rule)
};

// The best threat a stone on a cell makes over all four lines, combining lines.
enum Threat : std::uint8_t {
    no_threat,
    threat_flex3,         // one open three
    threat_four,          // one four
    threat_double_three,  // two open threes (forbidden for Black under renju)
    threat_four_three,    // a four and an open three
    threat_double_four,   // two fours (forbidden for Black under renju)
    threat_flex4,         // an open four
    threat_five,
};

// A cell's shape class: its two strongest line patterns (p1 >= p2) when the strongest is at least
// a two; 0 otherwise (not counted). Classes 1..42.
constexpr int cell_class_count = 43;
constexpr int cell_class_of(int strongest, int second) {
    return strongest < 2 ? 0 : 1 + strongest * (strongest + 1) / 2 - 3 + second;
}

class PatternTable;
class LineTable;

struct SearchBoard {
    State rules;
    const LineTable* line_table;  // both colours' patterns by the 10 cells around a centre
    std::array<std::array<std::uint64_t, 48>, 4> lines;          // by direction, then line index
    std::array<std::uint8_t, cell_count> near;                   // stones within two cells (Chebyshev)
    std::array<std::array<std::uint8_t, cell_count>, 2> threat;  // Threat, by colour
    std::array<std::array<std::int16_t, cell_count>, 2> value;   // by colour
    int value_sum[2];
    // The evaluation's features, kept incrementally over the empty cells: per colour, how many
    // (cell, direction) pairs make each Pattern, and how many cells make each Threat.
    std::array<std::array<std::uint16_t, cell_count>, 2> line_patterns;  // 4 x 4 bits, by colour
    std::array<std::array<int, 9>, 2> pattern_count;
    std::array<std::array<int, 8>, 2> threat_count;
    std::array<std::array<std::int16_t, cell_class_count>, 2> class_count;  // empty cells by shape class

    // What one play changed, for its undo: the cells' features before it, and the counts.
    struct SavedCell {
        std::uint16_t square;
        std::uint16_t line_patterns[2];
        std::int16_t value[2];
        std::uint8_t threat[2];
    };
    struct SavedCounts {
        std::array<std::array<int, 9>, 2> pattern_count;
        std::array<std::array<int, 8>, 2> threat_count;
        std::array<std::array<std::int16_t, cell_class_count>, 2> class_count;
        int value_sum[2];
        std::uint32_t first_cell;  // this play's first entry in saved_cells
    };
    std::vector<SavedCell> saved_cells;
    std::vector<SavedCounts> saved_counts;

    // The pattern network's two accumulators (network.hpp), by colour: [0] from Black's
    // perspective, [1] from White's; kept only while a network is in use. Each play saves the
    // sums it is about to change (hidden units x 2) for its undo.
    using Network = search::learning::QuantisedNetwork;
    const Network* network = nullptr;
    std::array<Network::Accumulator, 2> accumulators;
    std::vector<std::int16_t> saved_sums;

    // The move generator's selectivity (candidate_moves, ExactDefence): facing the opponent's
    // open three, only the cells that stop it (off: every cell where either side makes a four),
    // and facing its four-three or double four, only the moves that stop that (off: every move).
    bool exact_defence = false;

    explicit SearchBoard(const State& state = start_state(Variant{}));

    Side side_to_move() const { return rules.side_to_move(); }
    // The pattern a stone of `side` on empty `square` makes along direction d.
    Pattern pattern(int square, int direction, Side side) const;
    // Both colours' patterns there: Black's in the low byte, White's in the high one.
    std::uint16_t patterns(int square, int direction) const;
    // The pattern `side` would make on empty `square` along direction d if the empty cell
    // `other`, on the same line, held a stone of `blocker` (does this stone break that line?).
    Pattern pattern_with(int square, int direction, Side side, int other, Side blocker) const;
    void refresh_cell(int square);
    // Refreshes only empty `square`'s pattern along direction d (a stone changed that line).
    void refresh_line(int square, int direction);
    // Recomputes everything from the rules state (tests compare it with the incremental one).
    void rebuild();
    // A stone on `square` (already in `rules`), and taking the last one back (`rules` already
    // undone): the journal makes the undo exact and cheap.
    void place_stone(int square);
    void remove_stone(int square);

    // An empty cell's shape class for colour `side` (0 Black, 1 White): its two strongest line
    // patterns (cell_class_of), 0 for an occupied cell or nothing above a one.
    int shape_class(int square, int side) const;
    // Evaluates with `net` from now on (nullptr: no network): the accumulators are rebuilt here
    // and then follow every play and undo. A board larger than network::max_cells takes none.
    void use_network(const Network* net);
    // The network's logit for the side to move (a network must be in use).
    double network_logit() const {
        const int me = index_of(side_to_move());
        return network->logit(accumulators[static_cast<std::size_t>(me)], accumulators[static_cast<std::size_t>(1 - me)]);
    }

private:
    // The network's inputs for a cell whose shape classes went from (old_black, old_white) to
    // the cell's present ones.
    void shapes_changed(int square, int old_black, int old_white);
    // Adds (sign +1) or removes (-1) a cell's input with these shape classes, in both views.
    void shape_rows(int black_class, int white_class, int sign);
    void reset_accumulators();
    void save_cell(int square);
    // Sets empty `square`'s direction-d patterns to `both` (as patterns() gives them).
    void update_line(int square, int direction, std::uint16_t both);
    void set_line_cell(int square, std::uint8_t cell, int near_change);
};

struct GomokuSearch {
    using Variant = gomoku::Variant;
    using State = SearchBoard;
    using Move = gomoku::Move;
    using Undo = gomoku::Undo;
    static constexpr std::string_view name = "gomoku";
    static constexpr std::size_t max_moves = max_legal_moves;

    static State start_state(const Variant& variant) { return SearchBoard(gomoku::start_state(variant)); }
    static void generate_moves(const State& state, MoveList<GomokuSearch>& moves);
    static Undo play(State& state, const Move& move);
    static void undo(State& state, const Move& move, const Undo& record);
    // The search's null move: the turn passes without a stone (patterns do not depend on it).
    static Undo play_null(State& state) {
        pass_turn(state.rules);
        return Undo{state.rules.last, state.rules.result};
    }
    static void undo_null(State& state, const Undo&) { pass_turn(state.rules); }
    static Side side_to_move(const State& state) { return state.rules.side_to_move(); }
    static std::uint64_t hash(const State& state) { return state.rules.hash; }
    static Outcome outcome(const State& state) { return gomoku::outcome(state.rules); }
    static int repetition_limit(const State&) { return 0; }
    static Variant variant_of(const State& state) { return gomoku::variant_of(state.rules); }
    static Expected<Move> parse_move(const State& state, std::string_view text) {
        return gomoku::parse_move(state.rules, text);
    }
    static std::string format_move(const State& state, const Move& move) {
        return gomoku::format_move(state.rules, move);
    }
    static Expected<State> parse_position(const Variant& variant, std::string_view text) {
        auto rules = gomoku::parse_position(text, variant);
        if (!rules) return make_error(rules.error());
        return SearchBoard(*rules);
    }
    static std::string format_position(const State& state) { return gomoku::format_position(state.rules); }
    static std::string draw_board(const State& state, const Outcome& outcome) {
        return gomoku::draw_board(state.rules, outcome);
    }
    static std::string result_text(const State&, const Outcome& outcome) { return gomoku::result_text(outcome); }
};

static_assert(Game<GomokuSearch>);

// Builds the pattern tables a board of this k and rule uses (tens of milliseconds the first
// time), so that cost falls on a new game rather than on the first move's clock.
void prepare_tables(int k, Rule rule);

// Cells near stones (or the centre of an empty board), then the subset a threat forces:
// our win in one; else the blocks of the opponent's five; else, facing an open three, our fours
// and the cells that stop it; else, with board.exact_defence, facing a cell where the opponent
// would make a four-three or a double four, our fours and the cells that stop that. Black's forbidden cells are left out under renju.
void candidate_moves(const SearchBoard& board, MoveList<GomokuSearch>& moves);
// `attacker` would make a four-three or a double four on `threat_cell`: marks in `stops` the
// cells that answer it, as Rapfi's move generator does (facts from its source, our code): the
// cell itself; every cell that breaks one of the lines of its four or three (our stone there
// lowers the attacker's pattern on that line); and, for each cell that blocks its four, the cells
// that would make our forced block there a four of ours (a counter). The defender's own fours are
// the only other answers. Returns false when a block of its four is already a four of the
// defender's: then no answer is forced. Black's fouls under renju are not looked at.
bool four_three_answers(const SearchBoard& board, int threat_cell, Side attacker, std::array<bool, cell_count>& stops);
// A threat class that wins unless answered at once though it is no open four: a four-three or a
// double four.
constexpr bool is_four_three(Threat threat) { return threat == threat_four_three || threat == threat_double_four; }
// A cell where `side` would make a four-three or a double four, or 0 (a wall index) for none.
int four_three_cell(const SearchBoard& board, Side side);
// Cells where `side` would make five / a four or better (for the threat searches).
void cells_with_threat(const SearchBoard& board, Side side, Threat at_least, MoveList<GomokuSearch>& out);

}  // namespace bge::gomoku
