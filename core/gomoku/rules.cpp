#include "core/gomoku/rules.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "core/random.hpp"

namespace bge::gomoku {

namespace {

struct Keys {
    std::uint64_t stone[cell_count][2];
    std::uint64_t second_to_move;
};

Keys make_keys() {
    Keys keys{};
    std::uint64_t seed = 0x60D0'2026'0000'0005ULL;  // fixed, so hashes are the same in every run
    for (auto& cell : keys.stone)
        for (auto& key : cell) key = splitmix64(seed);
    keys.second_to_move = splitmix64(seed);
    return keys;
}

const Keys& keys() {
    static const Keys instance = make_keys();
    return instance;
}

using Cells = std::array<std::uint8_t, cell_count>;

// Stones of `stone` next to `square` along `step`, not counting the square itself. The wall ring
// ends every scan inside the array.
int run_from(const Cells& cells, int square, int step, std::uint8_t stone) {
    int count = 0;
    for (int s = square + step; cells[s] == stone; s += step) ++count;
    return count;
}

int line_through(const Cells& cells, int square, int step, std::uint8_t stone) {
    return 1 + run_from(cells, square, step, stone) + run_from(cells, square, -step, stone);
}

bool completes_line(int length, int k, Rule rule, std::uint8_t stone) {
    switch (rule) {
        case Rule::freestyle:
            return length >= k;
        case Rule::standard:
            return length == k;
        case Rule::renju:
            return stone == white ? length >= k : length == k;
    }
    return false;
}

bool wins_with(const Cells& cells, int square, std::uint8_t stone, int k, Rule rule) {
    for (const int step : line_steps)
        if (completes_line(line_through(cells, square, step, stone), k, rule, stone)) return true;
    return false;
}

// ---------------------------------------------------------------------------------------------
// Renju. Within one line, everything that decides a four or a three through a square lies within
// five cells of it (a five through the square spans at most four cells either side, and whether
// it is exactly five depends on the next cell). So each direction is judged on an 11-cell window:
// 0 empty, 1 black, 2 white or off the board. Whether a three's extension point is itself
// forbidden needs the whole board, and is judged recursively.

using Window = std::array<std::uint8_t, 11>;
constexpr int centre = 5;
constexpr int max_renju_depth = 8;  // deeper chains of threes do not occur in real positions

Window window_at(const Cells& cells, int square, int step) {
    Window w{};
    w[centre] = 1;
    for (const int sign : {1, -1}) {
        bool blocked = false;
        for (int j = 1; j <= 5; ++j) {
            std::uint8_t value = 2;
            if (!blocked) {
                const std::uint8_t cell = cells[square + sign * j * step];
                if (cell == wall)
                    blocked = true;
                else
                    value = cell == black ? 1 : cell == empty ? 0 : 2;
            }
            w[centre + sign * j] = value;
        }
    }
    return w;
}

// Black on empty window cell e makes exactly five through the centre.
bool five_at(Window w, int e) {
    w[e] = 1;
    int low = e, high = e;
    while (low > 0 && w[low - 1] == 1) --low;
    while (high < 10 && w[high + 1] == 1) ++high;
    return high - low + 1 == 5 && low <= centre && centre <= high;
}

// Fours through the centre: cells that would make five. Two such cells five apart are one
// straight four (.XXXX.); otherwise each is a four of its own (X.XXX.X is a double four).
int fours_in(const Window& w) {
    int points[10];
    int count = 0;
    for (int e = 1; e <= 9; ++e)
        if (e != centre && w[e] == 0 && five_at(w, e)) points[count++] = e;
    if (count == 2 && points[1] - points[0] == 5) return 1;
    return count;
}

// A straight four through the centre and `e`: two five-making cells five apart around both.
bool straight_four_with(const Window& w, int e) {
    for (int p = 0; p + 5 <= 10; ++p) {
        if (!(p < e && e < p + 5 && p < centre && centre < p + 5)) continue;
        if (w[p] == 0 && w[p + 5] == 0 && five_at(w, p) && five_at(w, p + 5)) return true;
    }
    return false;
}

bool forbidden_at(Cells& cells, int square, int depth);

// A three through the centre: one more stone (on a cell that is not itself forbidden) makes a
// straight four.
bool three_in(Cells& cells, int square, int step, const Window& w, int depth) {
    for (int e = 1; e <= 9; ++e) {
        if (e == centre || w[e] != 0) continue;
        Window with = w;
        with[e] = 1;
        if (!straight_four_with(with, e)) continue;
        const int extension = square + (e - centre) * step;
        if (depth >= max_renju_depth || !forbidden_at(cells, extension, depth + 1)) return true;
    }
    return false;
}

bool forbidden_at(Cells& cells, int square, int depth) {
    cells[square] = black;
    bool five = false, overline = false;
    for (const int step : line_steps) {
        const int length = line_through(cells, square, step, black);
        five = five || length == 5;
        overline = overline || length > 5;
    }
    bool forbidden = false;
    if (!five) {
        if (overline) {
            forbidden = true;
        } else {
            Window windows[4];
            bool has_four[4];
            int fours = 0;
            for (int d = 0; d < 4; ++d) {
                windows[d] = window_at(cells, square, line_steps[d]);
                const int count = fours_in(windows[d]);
                has_four[d] = count > 0;
                fours += count;
            }
            if (fours >= 2) {
                forbidden = true;
            } else {
                int threes = 0;
                for (int d = 0; d < 4 && threes < 2; ++d)
                    if (!has_four[d] && three_in(cells, square, line_steps[d], windows[d], depth)) ++threes;
                forbidden = threes >= 2;
            }
        }
    }
    cells[square] = empty;
    return forbidden;
}

// Whether `stone` has a winning line anywhere (for positions built by hand).
bool has_winning_line(const State& s, std::uint8_t stone) {
    for (int y = 0; y < s.height; ++y)
        for (int x = 0; x < s.width; ++x) {
            const int square = square_at(x, y);
            if (s.cells[square] != stone) continue;
            for (const int step : line_steps) {
                if (s.cells[square - step] == stone) continue;  // count each run from its start
                if (completes_line(1 + run_from(s.cells, square, step, stone), s.k, s.rule, stone)) return true;
            }
        }
    return false;
}

}  // namespace

Expected<Variant> check_variant(const Variant& v) {
    if (v.width < min_side || v.width > max_side || v.height < min_side || v.height > max_side)
        return make_error(
            fmt::format("board {}x{}: each side must be from {} to {}", v.width, v.height, min_side, max_side));
    if (v.k < 3 || v.k > std::max(v.width, v.height))
        return make_error(fmt::format("{} in a row cannot be played on {}x{} (k must be from 3 to {})", v.k, v.width,
                                      v.height, std::max(v.width, v.height)));
    if (v.rule == Rule::renju && v.k != 5) return make_error("renju is played with five in a row (k = 5)");
    if (v.move_limit < 0 || v.move_limit > max_board_cells)
        return make_error(fmt::format("move limit {} must be from 0 (none) to {}", v.move_limit, max_board_cells));
    return v;
}

State start_state(const Variant& variant) {
    State s{};
    s.cells.fill(wall);
    s.width = static_cast<std::uint8_t>(std::clamp(variant.width, min_side, max_side));
    s.height = static_cast<std::uint8_t>(std::clamp(variant.height, min_side, max_side));
    s.k = static_cast<std::uint8_t>(std::clamp(variant.k, 3, max_side));
    s.rule = variant.rule;
    s.move_limit = static_cast<std::uint16_t>(std::clamp(variant.move_limit, 0, max_board_cells));
    for (int y = 0; y < s.height; ++y)
        for (int x = 0; x < s.width; ++x) s.cells[square_at(x, y)] = empty;
    s.playable = static_cast<std::uint16_t>(s.width * s.height);
    s.stones = 0;
    s.turn_offset = 0;
    s.last = 0;
    s.hash = 0;
    s.result = Result::ongoing;
    return s;
}

Variant variant_of(const State& s) { return Variant{s.width, s.height, s.k, s.rule, s.move_limit}; }

void generate_moves(const State& s, FixedVector<Move, max_legal_moves>& moves) {
    moves.clear();
    for (int y = 0; y < s.height; ++y) {
        const int row = square_at(0, y);
        for (int x = 0; x < s.width; ++x)
            if (s.cells[row + x] == empty) moves.push_back(Move{static_cast<std::uint16_t>(row + x)});
    }
}

std::uint64_t count_moves(const State& s) { return static_cast<std::uint64_t>(s.playable - s.stones); }

bool is_legal(const State& s, Move move) {
    return move.square < cell_count && s.cells[move.square] == empty && s.result == Result::ongoing;
}

Undo play(State& s, Move move) {
    const Undo record{s.last, s.result};
    const int square = move.square;
    const Side mover = s.side_to_move();
    const std::uint8_t stone = stone_of(mover);
    const bool wins = wins_with(s.cells, square, stone, s.k, s.rule);
    const bool forbidden = !wins && s.rule == Rule::renju && stone == black && forbidden_at(s.cells, square, 0);
    s.cells[square] = stone;
    s.hash ^= keys().stone[square][index_of(mover)] ^ keys().second_to_move;
    ++s.stones;
    s.last = static_cast<std::uint16_t>(square);
    if (wins)
        s.result = mover == Side::first ? Result::first_five : Result::second_five;
    else if (forbidden)
        s.result = Result::first_forbidden;
    else if (s.stones >= s.playable)
        s.result = Result::board_full;
    else if (s.move_limit > 0 && s.stones >= s.move_limit)
        s.result = Result::move_limit;
    return record;
}

void undo(State& s, Move move, const Undo& record) {
    --s.stones;
    s.cells[move.square] = empty;
    s.hash ^= keys().stone[move.square][index_of(s.side_to_move())] ^ keys().second_to_move;
    s.last = record.last;
    s.result = record.result;
}

Outcome outcome(const State& s) {
    const std::string_view line = s.k == 5 ? "five" : "line";
    switch (s.result) {
        case Result::ongoing:
            return Outcome::ongoing();
        case Result::first_five:
            return Outcome::win(Side::first, line);
        case Result::second_five:
            return Outcome::win(Side::second, line);
        case Result::first_forbidden:
            return Outcome::win(Side::second, "forbidden");
        case Result::board_full:
            return Outcome::draw("board full");
        case Result::move_limit:
            return Outcome::draw("move limit");
    }
    return Outcome::ongoing();
}

int line_length(const State& s, int square, int step, std::uint8_t stone) {
    return line_through(s.cells, square, step, stone);
}

bool wins_at(const State& s, int square, std::uint8_t stone) { return wins_with(s.cells, square, stone, s.k, s.rule); }

bool is_forbidden(const State& s, int square) {
    if (s.rule != Rule::renju || s.cells[square] != empty) return false;
    Cells cells = s.cells;
    if (wins_with(cells, square, black, s.k, s.rule)) return false;
    return forbidden_at(cells, square, 0);
}

std::uint64_t compute_hash(const State& s) {
    std::uint64_t hash = 0;
    for (int square = 0; square < cell_count; ++square) {
        if (s.cells[square] == black) hash ^= keys().stone[square][0];
        if (s.cells[square] == white) hash ^= keys().stone[square][1];
    }
    if (s.side_to_move() == Side::second) hash ^= keys().second_to_move;
    return hash;
}

void pass_turn(State& s) {
    s.turn_offset ^= 1;
    s.hash ^= keys().second_to_move;
}

Status rebuild_derived(State& s, std::optional<Side> to_move) {
    int blacks = 0, whites = 0, blocked = 0;
    for (int y = 0; y < s.height; ++y)
        for (int x = 0; x < s.width; ++x) {
            const std::uint8_t cell = s.cells[square_at(x, y)];
            blacks += cell == black;
            whites += cell == white;
            blocked += cell == wall;
        }
    s.turn_offset = 0;
    if (to_move)
        s.turn_offset = static_cast<std::uint8_t>((index_of(*to_move) + blacks + whites) & 1);
    else if (blacks != whites && blacks != whites + 1)
        return make_error(
            fmt::format("{} black and {} white stones: Black moves first, so Black has as many "
                        "stones as White or one more",
                        blacks, whites));
    s.stones = static_cast<std::uint16_t>(blacks + whites);
    s.playable = static_cast<std::uint16_t>(s.width * s.height - blocked);
    s.last = 0;
    s.hash = compute_hash(s);
    const bool black_line = has_winning_line(s, black);
    const bool white_line = has_winning_line(s, white);
    if (black_line && white_line) return make_error("both sides have a winning line");
    const Side mover = s.side_to_move();
    if ((mover == Side::first && black_line) || (mover == Side::second && white_line))
        return make_error("the side to move already has a winning line");
    s.result = black_line                                     ? Result::first_five
               : white_line                                   ? Result::second_five
               : s.stones >= s.playable                       ? Result::board_full
               : s.move_limit > 0 && s.stones >= s.move_limit ? Result::move_limit
                                                              : Result::ongoing;
    return success();
}

}  // namespace bge::gomoku
