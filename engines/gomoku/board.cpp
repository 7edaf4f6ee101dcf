#include "engines/gomoku/board.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace bge::gomoku {

// Patterns of one colour for every window of 10 cells around an empty centre, indexed by the
// cells in base 3 (0 empty, 1 own, 2 opponent or off the board), nearest-left cell... as built
// below. Tables depend on k and on whether exactly k is needed, and are built once per pair.
class PatternTable {
public:
    static constexpr int window = 11;
    static constexpr int centre = 5;
    static constexpr int keys = 59049;  // 3^10

    PatternTable(int k, bool exact) : k_(k), exact_(exact), patterns_(keys) {
        for (int key = 0; key < keys; ++key) {
            std::array<std::uint8_t, window> w{};
            int rest = key;
            for (int i = 0; i < window; ++i) {
                if (i == centre) continue;
                w[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(rest % 3);
                rest /= 3;
            }
            w[centre] = 1;
            patterns_[static_cast<std::size_t>(key)] = classify(w);
        }
    }

    Pattern at(int key) const { return patterns_[static_cast<std::size_t>(key)]; }

    static const PatternTable& get(int k, bool exact) {
        static std::mutex mutex;
        static std::map<std::pair<int, bool>, std::unique_ptr<PatternTable>> tables;
        std::lock_guard lock(mutex);
        auto& slot = tables[{k, exact}];
        if (!slot) slot = std::make_unique<PatternTable>(k, exact);
        return *slot;
    }

private:
    using Window = std::array<std::uint8_t, window>;

    bool meets(int length) const { return exact_ ? length == k_ : length >= k_; }

    // The run of own stones through cell e.
    static std::pair<int, int> run_of(const Window& w, int e) {
        int low = e, high = e;
        while (low > 0 && w[static_cast<std::size_t>(low - 1)] == 1) --low;
        while (high < window - 1 && w[static_cast<std::size_t>(high + 1)] == 1) ++high;
        return {low, high};
    }

    // Empty cells that would make k through the centre.
    int five_points(Window& w) const {
        int count = 0;
        for (int e = 0; e < window; ++e) {
            auto& cell = w[static_cast<std::size_t>(e)];
            if (cell != 0) continue;
            cell = 1;
            const auto [low, high] = run_of(w, e);
            if (low <= centre && centre <= high && meets(high - low + 1)) ++count;
            cell = 0;
        }
        return count;
    }

    Pattern classify(Window w) const {
        const auto [low, high] = run_of(w, centre);
        if (meets(high - low + 1)) return five;
        const int fives = five_points(w);
        if (fives >= 2) return flex4;
        if (fives == 1) return four;
        bool closed_three = false;
        for (int e = 0; e < window; ++e) {
            auto& cell = w[static_cast<std::size_t>(e)];
            if (cell != 0) continue;
            cell = 1;
            const int next = five_points(w);
            cell = 0;
            if (next >= 2) return flex3;
            if (next == 1) closed_three = true;
        }
        if (closed_three) return three;
        // Weaker shapes: the k-windows through the centre with no opponent stone in them.
        int best = 0, best_windows = 0, live = 0;
        for (int start = std::max(0, centre - k_ + 1); start <= centre && start + k_ <= window; ++start) {
            int own = 0;
            bool blocked = false;
            for (int i = start; i < start + k_; ++i) {
                blocked = blocked || w[static_cast<std::size_t>(i)] == 2;
                own += w[static_cast<std::size_t>(i)] == 1;
            }
            if (blocked) continue;
            ++live;
            if (own > best) {
                best = own;
                best_windows = 0;
            }
            if (own == best) ++best_windows;
        }
        if (live == 0) return dead;
        if (best >= 2) return best_windows >= 3 ? flex2 : two;
        return one;
    }

    int k_;
    bool exact_;
    std::vector<Pattern> patterns_;
};

namespace {

constexpr int dx[4] = {1, 0, 1, -1};
constexpr int dy[4] = {0, 1, 1, 1};

// 2-bit cell codes in the line words: 00 empty, 01 black, 10 white, 11 wall.
constexpr std::uint64_t code_of(std::uint8_t cell) { return cell; }

struct LinePlace {
    int line;
    int shift;
};

LinePlace place_of(int x, int y, int d) {
    switch (d) {
        case 0:
            return {y, 2 * (x + 5)};
        case 1:
            return {x, 2 * (y + 5)};
        case 2:
            return {x - y + max_side - 1, 2 * (x + 5)};
        default:
            return {x + y, 2 * (x + 5)};
    }
}

// Base-3 digits of 5 cells of 2-bit codes, for each colour: the first table maps the five cells
// left of the centre (nearest last), the second the five right of it.
struct DigitTables {
    std::array<std::array<std::uint16_t, 1024>, 2> left;
    std::array<std::array<std::uint16_t, 1024>, 2> right;
    DigitTables() {
        for (int side = 0; side < 2; ++side)
            for (int bits = 0; bits < 1024; ++bits) {
                int value = 0, power = 1;
                for (int i = 0; i < 5; ++i) {
                    const int code = (bits >> (2 * i)) & 3;
                    const int own = side == 0 ? 1 : 2;
                    const int digit = code == 0 ? 0 : code == own ? 1 : 2;
                    value += digit * power;
                    power *= 3;
                }
                left[static_cast<std::size_t>(side)][static_cast<std::size_t>(bits)] =
                    static_cast<std::uint16_t>(value);
                right[static_cast<std::size_t>(side)][static_cast<std::size_t>(bits)] =
                    static_cast<std::uint16_t>(value * 243);
            }
    }
};
const DigitTables digit_tables;

constexpr int pattern_value[9] = {0, 1, 4, 12, 10, 40, 45, 400, 2000};
constexpr int threat_bonus[8] = {0, 0, 0, 300, 800, 800, 0, 0};

Threat combine(const Pattern (&p)[4]) {
    int fives = 0, flex4s = 0, fours = 0, flex3s = 0;
    for (const Pattern pattern : p) {
        fives += pattern == five;
        flex4s += pattern == flex4;
        fours += pattern == four;
        flex3s += pattern == flex3;
    }
    if (fives) return threat_five;
    if (flex4s) return threat_flex4;
    if (fours >= 2) return threat_double_four;
    if (fours && flex3s) return threat_four_three;
    if (flex3s >= 2) return threat_double_three;
    if (fours) return threat_four;
    if (flex3s) return threat_flex3;
    return no_threat;
}

}  // namespace

SearchBoard::SearchBoard(const State& state) : rules(state) { rebuild(); }

Pattern SearchBoard::pattern(int square, int d, Side side) const {
    const LinePlace place = place_of(x_of(square), y_of(square), d);
    const std::uint64_t word = lines[static_cast<std::size_t>(d)][static_cast<std::size_t>(place.line)];
    const int s = index_of(side);
    const auto left_bits = static_cast<std::size_t>((word >> (place.shift - 10)) & 0x3FF);
    const auto right_bits = static_cast<std::size_t>((word >> (place.shift + 2)) & 0x3FF);
    const int key = digit_tables.left[static_cast<std::size_t>(s)][left_bits] +
                    digit_tables.right[static_cast<std::size_t>(s)][right_bits];
    return table[s]->at(key);
}

void SearchBoard::refresh_cell(int square) {
    const auto cell = static_cast<std::size_t>(square);
    for (int s = 0; s < 2; ++s) {
        const auto side = static_cast<std::size_t>(s);
        value_sum[s] -= value[side][cell];
        // Take the cell's old features out (dead lines and no threat are not counted).
        const std::uint16_t old_patterns = line_patterns[side][cell];
        for (int d = 0; d < 4; ++d) --pattern_count[side][(old_patterns >> (4 * d)) & 15];
        --threat_count[side][threat[side][cell]];
        if (rules.cells[cell] != empty) {
            threat[side][cell] = no_threat;
            value[side][cell] = 0;
            line_patterns[side][cell] = 0;
            pattern_count[side][dead] = 0;  // dead lines and no threat are not features
            threat_count[side][no_threat] = 0;
            continue;
        }
        Pattern p[4];
        int total = 0;
        std::uint16_t packed = 0;
        for (int d = 0; d < 4; ++d) {
            p[d] = pattern(square, d, static_cast<Side>(s));
            total += pattern_value[p[d]];
            packed = static_cast<std::uint16_t>(packed | (p[d] << (4 * d)));
            ++pattern_count[side][p[d]];
        }
        line_patterns[side][cell] = packed;
        const Threat t = combine(p);
        ++threat_count[side][t];
        pattern_count[side][dead] = 0;
        threat_count[side][no_threat] = 0;
        // Under renju Black's double threes and double fours are forbidden, so no bonus.
        if (!(rules.rule == Rule::renju && s == 0)) total += threat_bonus[t];
        threat[static_cast<std::size_t>(s)][static_cast<std::size_t>(square)] = t;
        value[static_cast<std::size_t>(s)][static_cast<std::size_t>(square)] = static_cast<std::int16_t>(total);
        value_sum[s] += total;
    }
}

void SearchBoard::refresh_line(int square, int d) {
    const auto cell = static_cast<std::size_t>(square);
    if (rules.cells[cell] != empty) return;  // occupied cells hold no features, before and after
    const int shift = 4 * d;
    for (int s = 0; s < 2; ++s) {
        const auto side = static_cast<std::size_t>(s);
        const std::uint16_t packed = line_patterns[side][cell];
        const auto before = static_cast<Pattern>((packed >> shift) & 15);
        const Pattern after = pattern(square, d, static_cast<Side>(s));
        if (after == before) continue;  // the usual case far from the stone: nothing changes
        --pattern_count[side][before];
        ++pattern_count[side][after];
        pattern_count[side][dead] = 0;
        const auto updated = static_cast<std::uint16_t>((packed & ~(15u << shift)) | (after << shift));
        line_patterns[side][cell] = updated;
        Pattern p[4];
        int total = 0;
        for (int e = 0; e < 4; ++e) {
            p[e] = static_cast<Pattern>((updated >> (4 * e)) & 15);
            total += pattern_value[p[e]];
        }
        const Threat t = combine(p);
        --threat_count[side][threat[side][cell]];
        ++threat_count[side][t];
        threat_count[side][no_threat] = 0;
        if (!(rules.rule == Rule::renju && s == 0)) total += threat_bonus[t];
        threat[side][cell] = t;
        value_sum[s] += total - value[side][cell];
        value[side][cell] = static_cast<std::int16_t>(total);
    }
}

void SearchBoard::rebuild() {
    const bool exact_black = rules.rule != Rule::freestyle;
    const bool exact_white = rules.rule == Rule::standard;
    table[0] = &PatternTable::get(rules.k, exact_black);
    table[1] = &PatternTable::get(rules.k, exact_white);
    for (auto& direction : lines) direction.fill(~std::uint64_t{0});
    near.fill(0);
    for (auto& side : threat) side.fill(no_threat);
    for (auto& side : value) side.fill(0);
    value_sum[0] = value_sum[1] = 0;
    for (auto& side : line_patterns) side.fill(0);
    for (auto& side : pattern_count) side.fill(0);
    for (auto& side : threat_count) side.fill(0);
    for (int y = 0; y < rules.height; ++y)
        for (int x = 0; x < rules.width; ++x) {
            const std::uint8_t cell = rules.cells[static_cast<std::size_t>(square_at(x, y))];
            for (int d = 0; d < 4; ++d) {
                const LinePlace place = place_of(x, y, d);
                auto& word = lines[static_cast<std::size_t>(d)][static_cast<std::size_t>(place.line)];
                word &= ~(std::uint64_t{3} << place.shift);
                word |= code_of(cell) << place.shift;
            }
            if (cell == black || cell == white)
                for (int ny = std::max(0, y - 2); ny <= std::min(rules.height - 1, y + 2); ++ny)
                    for (int nx = std::max(0, x - 2); nx <= std::min(rules.width - 1, x + 2); ++nx)
                        ++near[static_cast<std::size_t>(square_at(nx, ny))];
        }
    for (int y = 0; y < rules.height; ++y)
        for (int x = 0; x < rules.width; ++x) refresh_cell(square_at(x, y));
}

namespace {

void set_cell(SearchBoard& b, int square, std::uint8_t cell, int near_change) {
    const int x = x_of(square), y = y_of(square);
    for (int d = 0; d < 4; ++d) {
        const LinePlace place = place_of(x, y, d);
        auto& word = b.lines[static_cast<std::size_t>(d)][static_cast<std::size_t>(place.line)];
        word = (word & ~(std::uint64_t{3} << place.shift)) | (code_of(cell) << place.shift);
    }
    for (int ny = std::max(0, y - 2); ny <= std::min<int>(b.rules.height - 1, y + 2); ++ny)
        for (int nx = std::max(0, x - 2); nx <= std::min<int>(b.rules.width - 1, x + 2); ++nx)
            b.near[static_cast<std::size_t>(square_at(nx, ny))] =
                static_cast<std::uint8_t>(b.near[static_cast<std::size_t>(square_at(nx, ny))] + near_change);
    b.refresh_cell(square);
    // Along direction d only the cells' direction-d patterns can change.
    for (int d = 0; d < 4; ++d)
        for (int sign = -1; sign <= 1; sign += 2)
            for (int j = 1; j <= 5; ++j) {
                const int nx = x + sign * j * dx[d], ny = y + sign * j * dy[d];
                if (nx < 0 || ny < 0 || nx >= b.rules.width || ny >= b.rules.height) break;
                b.refresh_line(square_at(nx, ny), d);
            }
}

}  // namespace

Undo GomokuSearch::play(State& b, const Move& move) {
    const Undo record = gomoku::play(b.rules, move);
    set_cell(b, move.square, b.rules.cells[move.square], 1);
    return record;
}

void GomokuSearch::undo(State& b, const Move& move, const Undo& record) {
    gomoku::undo(b.rules, move, record);
    set_cell(b, move.square, empty, -1);
}

void cells_with_threat(const SearchBoard& b, Side side, Threat at_least, MoveList<GomokuSearch>& out) {
    out.clear();
    const auto& threats = b.threat[static_cast<std::size_t>(index_of(side))];
    for (int y = 0; y < b.rules.height; ++y) {
        const int row = square_at(0, y);
        for (int x = 0; x < b.rules.width; ++x)
            if (threats[static_cast<std::size_t>(row + x)] >= at_least &&
                b.rules.cells[static_cast<std::size_t>(row + x)] == empty)
                out.push_back(Move{static_cast<std::uint16_t>(row + x)});
    }
}

void candidate_moves(const SearchBoard& b, MoveList<GomokuSearch>& moves) {
    moves.clear();
    const State& s = b.rules;
    if (s.result != Result::ongoing) return;
    const Side me = s.side_to_move();
    const auto& mine = b.threat[static_cast<std::size_t>(index_of(me))];
    const auto& theirs = b.threat[static_cast<std::size_t>(index_of(opponent(me)))];
    int my_five = 0;
    bool their_five = false, their_open_four = false;
    for (int y = 0; y < s.height; ++y) {
        const int row = square_at(0, y);
        for (int x = 0; x < s.width; ++x) {
            const int square = row + x;
            if (s.cells[static_cast<std::size_t>(square)] != empty || !b.near[static_cast<std::size_t>(square)])
                continue;
            if (mine[static_cast<std::size_t>(square)] == threat_five && !my_five) my_five = square;
            their_five = their_five || theirs[static_cast<std::size_t>(square)] == threat_five;
            their_open_four = their_open_four || theirs[static_cast<std::size_t>(square)] >= threat_flex4;
            moves.push_back(Move{static_cast<std::uint16_t>(square)});
        }
    }
    if (moves.empty()) {  // no stone yet: the centre, or the first free cell
        const int centre = square_at(s.width / 2, s.height / 2);
        if (s.cells[static_cast<std::size_t>(centre)] == empty) {
            moves.push_back(Move{static_cast<std::uint16_t>(centre)});
            return;
        }
        generate_moves(s, moves);
        if (moves.size() > 1) moves.resize(1);
        return;
    }
    if (my_five) {
        moves.clear();
        moves.push_back(Move{static_cast<std::uint16_t>(my_five)});
        return;
    }
    auto keep = [&](auto&& wanted) {
        std::size_t kept = 0;
        for (std::size_t i = 0; i < moves.size(); ++i)
            if (wanted(static_cast<std::size_t>(moves[i].square))) moves[kept++] = moves[i];
        moves.resize(kept);
    };
    if (their_five) {
        keep([&](std::size_t square) { return theirs[square] == threat_five; });
    } else if (their_open_four) {
        keep([&](std::size_t square) { return mine[square] >= threat_four || theirs[square] >= threat_four; });
    }
    if (s.rule == Rule::renju && me == Side::first) {
        const std::size_t before = moves.size();
        MoveList<GomokuSearch> all = moves;
        keep([&](std::size_t square) {
            return mine[square] < threat_double_three || !is_forbidden(s, static_cast<int>(square));
        });
        if (moves.empty() && before > 0) moves = all;  // only losing moves left: play one
    }
}

void GomokuSearch::generate_moves(const State& state, MoveList<GomokuSearch>& moves) { candidate_moves(state, moves); }

}  // namespace bge::gomoku
