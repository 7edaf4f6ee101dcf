#include "engines/gomoku/board.hpp"

#include "engines/gomoku/network.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
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

// Both colours' patterns for every 20-bit window of 2-bit cell codes around an empty centre (the
// five cells left of it in the low 10 bits, nearest last, then the five right of it): one lookup
// per cell and direction instead of a base-3 conversion per colour. 2 MiB per rule, built once
// from the two colours' PatternTables.
class LineTable {
public:
    static constexpr int keys = 1 << 20;

    LineTable(const PatternTable& black_table, const PatternTable& white_table) : entries_(keys) {
        // Base-3 digits of five 2-bit codes, per colour (0 empty, 1 own, 2 opponent or wall).
        std::array<std::array<int, 1024>, 2> digits{};
        for (int side = 0; side < 2; ++side)
            for (int bits = 0; bits < 1024; ++bits) {
                int value = 0, power = 1;
                for (int i = 0; i < 5; ++i) {
                    const int code = (bits >> (2 * i)) & 3;
                    value += (code == 0 ? 0 : code == side + 1 ? 1 : 2) * power;
                    power *= 3;
                }
                digits[static_cast<std::size_t>(side)][static_cast<std::size_t>(bits)] = value;
            }
        for (int key = 0; key < keys; ++key) {
            const auto left = static_cast<std::size_t>(key & 0x3FF);
            const auto right = static_cast<std::size_t>(key >> 10);
            const Pattern black_pattern = black_table.at(digits[0][left] + digits[0][right] * 243);
            const Pattern white_pattern = white_table.at(digits[1][left] + digits[1][right] * 243);
            entries_[static_cast<std::size_t>(key)] = static_cast<std::uint16_t>(black_pattern | (white_pattern << 8));
        }
    }

    std::uint16_t at(std::uint32_t key) const { return entries_[key]; }

    static const LineTable& get(int k, bool exact_black, bool exact_white) {
        static std::mutex mutex;
        static std::map<std::tuple<int, bool, bool>, std::unique_ptr<LineTable>> tables;
        std::lock_guard lock(mutex);
        auto& slot = tables[{k, exact_black, exact_white}];
        if (!slot) slot = std::make_unique<LineTable>(PatternTable::get(k, exact_black), PatternTable::get(k, exact_white));
        return *slot;
    }

private:
    std::vector<std::uint16_t> entries_;
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

// How a line word's shift moves per step along direction d (d = 3 runs towards lower x).
constexpr int shift_step[4] = {2, 2, 2, -2};

// The 20-bit LineTable key of the cell at `shift` in a line word.
inline std::uint32_t window_key(std::uint64_t word, int shift) {
    const auto left_bits = static_cast<std::uint32_t>((word >> (shift - 10)) & 0x3FF);
    const auto right_bits = static_cast<std::uint32_t>((word >> (shift + 2)) & 0x3FF);
    return left_bits | (right_bits << 10);
}

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

// A cell's threat class and value from its four line patterns packed in 16 bits (4 bits each):
// one lookup instead of combining the four every time a line changes. The value comes with the
// threat bonus, or without it (Black under renju, whose double threats are forbidden).
struct CellSummary {
    std::int16_t value[2];  // [0] with the threat bonus, [1] without
    Threat threat;
    std::uint8_t cell_class;  // cell_class_of its two strongest patterns
};
struct CellTable {
    std::vector<CellSummary> entries;
    CellTable() : entries(1 << 16) {
        for (int packed = 0; packed < (1 << 16); ++packed) {
            Pattern p[4];
            int total = 0;
            bool valid = true;
            for (int d = 0; d < 4; ++d) {
                const int nibble = (packed >> (4 * d)) & 15;
                valid = valid && nibble <= five;
                p[d] = static_cast<Pattern>(std::min(nibble, static_cast<int>(five)));
                total += pattern_value[p[d]];
            }
            if (!valid) continue;
            const Threat t = combine(p);
            std::sort(p, p + 4, [](Pattern a, Pattern b) { return a > b; });
            entries[static_cast<std::size_t>(packed)] = {
                {static_cast<std::int16_t>(total + threat_bonus[t]), static_cast<std::int16_t>(total)},
                t,
                static_cast<std::uint8_t>(cell_class_of(p[0], p[1]))};
        }
    }
    const CellSummary& at(std::uint16_t packed) const { return entries[packed]; }
};
const CellTable cell_table;

}  // namespace

SearchBoard::SearchBoard(const State& state) : rules(state) { rebuild(); }

std::uint16_t SearchBoard::patterns(int square, int d) const {
    const LinePlace place = place_of(x_of(square), y_of(square), d);
    const std::uint64_t word = lines[static_cast<std::size_t>(d)][static_cast<std::size_t>(place.line)];
    return line_table->at(window_key(word, place.shift));
}

Pattern SearchBoard::pattern(int square, int d, Side side) const {
    return static_cast<Pattern>(patterns(square, d) >> (8 * index_of(side)) & 0xFF);
}

Pattern SearchBoard::pattern_with(int square, int d, Side side, int other, Side blocker) const {
    const LinePlace place = place_of(x_of(square), y_of(square), d);
    const LinePlace at = place_of(x_of(other), y_of(other), d);
    std::uint64_t word = lines[static_cast<std::size_t>(d)][static_cast<std::size_t>(place.line)];
    word = (word & ~(std::uint64_t{3} << at.shift)) | (static_cast<std::uint64_t>(index_of(blocker) + 1) << at.shift);
    return static_cast<Pattern>(line_table->at(window_key(word, place.shift)) >> (8 * index_of(side)) & 0xFF);
}

void SearchBoard::refresh_cell(int square) {
    const auto cell = static_cast<std::size_t>(square);
    const int old_black = shape_class(square, 0), old_white = shape_class(square, 1);
    for (int s = 0; s < 2; ++s) {
        const auto side = static_cast<std::size_t>(s);
        value_sum[s] -= value[side][cell];
        // Take the cell's old features out (dead lines and no threat are not counted).
        const std::uint16_t old_patterns = line_patterns[side][cell];
        for (int d = 0; d < 4; ++d) --pattern_count[side][(old_patterns >> (4 * d)) & 15];
        --threat_count[side][threat[side][cell]];
        --class_count[side][cell_table.at(old_patterns).cell_class];
        if (rules.cells[cell] != empty) {
            threat[side][cell] = no_threat;
            value[side][cell] = 0;
            line_patterns[side][cell] = 0;
            pattern_count[side][dead] = 0;  // dead lines, no threat and class 0 are not features
            threat_count[side][no_threat] = 0;
            class_count[side][0] = 0;
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
        ++class_count[side][cell_table.at(packed).cell_class];
        pattern_count[side][dead] = 0;
        threat_count[side][no_threat] = 0;
        class_count[side][0] = 0;
        // Under renju Black's double threes and double fours are forbidden, so no bonus.
        if (!(rules.rule == Rule::renju && s == 0)) total += threat_bonus[t];
        threat[static_cast<std::size_t>(s)][static_cast<std::size_t>(square)] = t;
        value[static_cast<std::size_t>(s)][static_cast<std::size_t>(square)] = static_cast<std::int16_t>(total);
        value_sum[s] += total;
    }
    shapes_changed(square, old_black, old_white);
}

int SearchBoard::shape_class(int square, int side) const {
    return cell_table.at(line_patterns[static_cast<std::size_t>(side)][static_cast<std::size_t>(square)]).cell_class;
}

void SearchBoard::shapes_changed(int square, int old_black, int old_white) {
    if (!network) return;
    const int black_class = shape_class(square, 0), white_class = shape_class(square, 1);
    if (black_class == old_black && white_class == old_white) return;
    shape_rows(old_black, old_white, -1);
    shape_rows(black_class, white_class, +1);
}

void SearchBoard::shape_rows(int black_class, int white_class, int sign) {
    if (!(black_class | white_class)) return;  // nothing above a one for either colour: no input
    const int black_view = network::input_of(black_class, white_class);
    const int white_view = network::input_of(white_class, black_class);
    if (sign > 0) {
        network->add(accumulators[0], black_view);
        network->add(accumulators[1], white_view);
    } else {
        network->remove(accumulators[0], black_view);
        network->remove(accumulators[1], white_view);
    }
}

void SearchBoard::reset_accumulators() {
    if (!network) return;
    for (auto& accumulator : accumulators) network->reset(accumulator);
    for (int y = 0; y < rules.height; ++y)
        for (int x = 0; x < rules.width; ++x)
            shape_rows(shape_class(square_at(x, y), 0), shape_class(square_at(x, y), 1), +1);
}

void SearchBoard::use_network(const Network* net) {
    network = rules.width * rules.height <= network::max_cells ? net : nullptr;
    saved_sums.clear();
    reset_accumulators();
}

void SearchBoard::save_cell(int square) {
    const auto cell = static_cast<std::size_t>(square);
    saved_cells.push_back({static_cast<std::uint16_t>(square),
                           {line_patterns[0][cell], line_patterns[1][cell]},
                           {value[0][cell], value[1][cell]},
                           {threat[0][cell], threat[1][cell]}});
}

void SearchBoard::refresh_line(int square, int d) {
    if (rules.cells[static_cast<std::size_t>(square)] != empty) return;  // occupied cells hold no features
    update_line(square, d, patterns(square, d));
}

void SearchBoard::update_line(int square, int d, std::uint16_t both) {
    const auto cell = static_cast<std::size_t>(square);
    const int shift = 4 * d;
    const int old_black = shape_class(square, 0), old_white = shape_class(square, 1);
    bool saved = false;
    for (int s = 0; s < 2; ++s) {
        const auto side = static_cast<std::size_t>(s);
        const std::uint16_t packed = line_patterns[side][cell];
        const auto before = static_cast<Pattern>((packed >> shift) & 15);
        const auto after = static_cast<Pattern>((both >> (8 * s)) & 0xFF);
        if (after == before) continue;  // the usual case far from the stone: nothing changes
        if (!saved) save_cell(square);  // once, with both colours' features as they were
        saved = true;
        --pattern_count[side][before];
        ++pattern_count[side][after];
        pattern_count[side][dead] = 0;
        const auto updated = static_cast<std::uint16_t>((packed & ~(15u << shift)) | (after << shift));
        line_patterns[side][cell] = updated;
        const CellSummary& summary = cell_table.at(updated);
        --class_count[side][cell_table.at(packed).cell_class];
        ++class_count[side][summary.cell_class];
        class_count[side][0] = 0;
        const Threat t = summary.threat;
        // Under renju Black's double threes and double fours are forbidden, so no bonus.
        const int total = summary.value[rules.rule == Rule::renju && s == 0 ? 1 : 0];
        --threat_count[side][threat[side][cell]];
        ++threat_count[side][t];
        threat_count[side][no_threat] = 0;
        threat[side][cell] = t;
        value_sum[s] += total - value[side][cell];
        value[side][cell] = static_cast<std::int16_t>(total);
    }
    if (saved) shapes_changed(square, old_black, old_white);
}

void prepare_tables(int k, Rule rule) {
    LineTable::get(k, rule != Rule::freestyle, rule == Rule::standard);
}

void SearchBoard::rebuild() {
    saved_cells.clear();
    saved_counts.clear();
    saved_cells.reserve(64 * 41);  // a search line of 64 stones without growing
    saved_counts.reserve(64);
    const bool exact_black = rules.rule != Rule::freestyle;
    const bool exact_white = rules.rule == Rule::standard;
    line_table = &LineTable::get(rules.k, exact_black, exact_white);
    for (auto& direction : lines) direction.fill(~std::uint64_t{0});
    near.fill(0);
    for (auto& side : threat) side.fill(no_threat);
    for (auto& side : value) side.fill(0);
    value_sum[0] = value_sum[1] = 0;
    for (auto& side : line_patterns) side.fill(0);
    for (auto& side : pattern_count) side.fill(0);
    for (auto& side : threat_count) side.fill(0);
    for (auto& side : class_count) side.fill(0);
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
    const Network* net = network;
    network = nullptr;  // refresh_cell below starts from nothing; the sums are summed at the end
    for (int y = 0; y < rules.height; ++y)
        for (int x = 0; x < rules.width; ++x) refresh_cell(square_at(x, y));
    use_network(net);
}

void SearchBoard::set_line_cell(int square, std::uint8_t cell, int near_change) {
    const int x = x_of(square), y = y_of(square);
    for (int d = 0; d < 4; ++d) {
        const LinePlace place = place_of(x, y, d);
        auto& word = lines[static_cast<std::size_t>(d)][static_cast<std::size_t>(place.line)];
        word = (word & ~(std::uint64_t{3} << place.shift)) | (code_of(cell) << place.shift);
    }
    for (int ny = std::max(0, y - 2); ny <= std::min<int>(rules.height - 1, y + 2); ++ny)
        for (int nx = std::max(0, x - 2); nx <= std::min<int>(rules.width - 1, x + 2); ++nx)
            near[static_cast<std::size_t>(square_at(nx, ny))] =
                static_cast<std::uint8_t>(near[static_cast<std::size_t>(square_at(nx, ny))] + near_change);
}

void SearchBoard::place_stone(int square) {
    saved_counts.push_back({pattern_count, threat_count, class_count, {value_sum[0], value_sum[1]},
                            static_cast<std::uint32_t>(saved_cells.size())});
    if (network)
        for (const auto& accumulator : accumulators)
            saved_sums.insert(saved_sums.end(), accumulator.sums.begin(), accumulator.sums.begin() + network->hidden());
    save_cell(square);
    set_line_cell(square, rules.cells[static_cast<std::size_t>(square)], 1);
    refresh_cell(square);
    // Along direction d only the cells' direction-d patterns can change, and they all lie on
    // the stone's own line word.
    const int x = x_of(square), y = y_of(square);
    for (int d = 0; d < 4; ++d) {
        const LinePlace place = place_of(x, y, d);
        const std::uint64_t word = lines[static_cast<std::size_t>(d)][static_cast<std::size_t>(place.line)];
        const int step = line_steps[static_cast<std::size_t>(d)];
        for (int sign = -1; sign <= 1; sign += 2)
            for (int j = 1; j <= 5; ++j) {
                const int nx = x + sign * j * dx[d], ny = y + sign * j * dy[d];
                if (nx < 0 || ny < 0 || nx >= rules.width || ny >= rules.height) break;
                const int cell = square + sign * j * step;
                if (rules.cells[static_cast<std::size_t>(cell)] != empty) continue;
                update_line(cell, d, line_table->at(window_key(word, place.shift + sign * j * shift_step[d])));
            }
    }
}

void SearchBoard::remove_stone(int square) {
    set_line_cell(square, empty, -1);
    const SavedCounts& counts = saved_counts.back();
    for (std::size_t i = saved_cells.size(); i-- > counts.first_cell;) {
        const SavedCell& saved = saved_cells[i];
        for (std::size_t side = 0; side < 2; ++side) {
            line_patterns[side][saved.square] = saved.line_patterns[side];
            value[side][saved.square] = saved.value[side];
            threat[side][saved.square] = saved.threat[side];
        }
    }
    saved_cells.resize(counts.first_cell);
    pattern_count = counts.pattern_count;
    threat_count = counts.threat_count;
    class_count = counts.class_count;
    value_sum[0] = counts.value_sum[0];
    value_sum[1] = counts.value_sum[1];
    saved_counts.pop_back();
    if (network) {
        const auto hidden = static_cast<std::ptrdiff_t>(network->hidden());
        for (int colour = 1; colour >= 0; --colour) {
            std::copy(saved_sums.end() - hidden, saved_sums.end(), accumulators[static_cast<std::size_t>(colour)].sums.begin());
            saved_sums.resize(saved_sums.size() - static_cast<std::size_t>(hidden));
        }
    }
}

Undo GomokuSearch::play(State& b, const Move& move) {
    const Undo record = gomoku::play(b.rules, move);
    b.place_stone(move.square);
    return record;
}

void GomokuSearch::undo(State& b, const Move& move, const Undo& record) {
    gomoku::undo(b.rules, move, record);
    b.remove_stone(move.square);
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

namespace {

// Calls visit(cell) for the empty cells within four steps of `square` along direction d, both
// ways, up to the first wall.
template <class Visit>
void along_line(const State& s, int square, int d, Visit&& visit) {
    const int step = dy[d] * stride + dx[d];
    for (const int sign : {-1, 1})
        for (int i = 1, cell = square + sign * step; i <= 4; ++i, cell += sign * step) {
            const auto held = s.cells[static_cast<std::size_t>(cell)];
            if (held == wall) break;
            if (held == empty) visit(cell);
        }
}

// The cells whose stone breaks the attacker's `line` pattern through `threat_cell` along d (our
// stone there lowers it), marked in `out`.
template <class Mark>
void line_breakers(const SearchBoard& b, int threat_cell, int d, Side attacker, Mark&& mark) {
    const Pattern line = b.pattern(threat_cell, d, attacker);
    along_line(b.rules, threat_cell, d, [&](int cell) {
        if (b.pattern_with(threat_cell, d, attacker, cell, opponent(attacker)) < line) mark(cell);
    });
}

using CellFlags = std::array<bool, cell_count>;

// The opponent (`attacker`) has open-four cells (`cells`, an open three or more): marks in
// `stops` the cells that take away every one of them, each cell itself or a stone that breaks
// all of its open-four lines. Our own fours are the only other answers.
void open_three_defence(const SearchBoard& b, const int* cells, int count, Side attacker, CellFlags& stops) {
    std::array<std::uint8_t, cell_count> stopped{};  // how many of the open-four cells each cell stops
    for (int i = 0; i < count; ++i) {
        const int threat_cell = cells[i];
        // The cells that break its first open-four line, kept while they break every other one.
        FixedVector<int, 8> breakers;
        bool first = true;
        for (int d = 0; d < 4; ++d) {
            if (b.pattern(threat_cell, d, attacker) < flex4) continue;
            FixedVector<int, 8> on_line;
            line_breakers(b, threat_cell, d, attacker, [&](int cell) { on_line.push_back(cell); });
            if (first) {
                breakers = on_line;
            } else {
                std::size_t kept = 0;
                for (const int cell : breakers)
                    if (std::find(on_line.begin(), on_line.end(), cell) != on_line.end()) breakers[kept++] = cell;
                breakers.resize(kept);
            }
            first = false;
        }
        ++stopped[static_cast<std::size_t>(threat_cell)];
        for (const int cell : breakers) ++stopped[static_cast<std::size_t>(cell)];
    }
    for (std::size_t cell = 0; cell < stopped.size(); ++cell) stops[cell] = stopped[cell] == count;
}

}  // namespace

bool four_three_answers(const SearchBoard& b, int threat_cell, Side attacker, std::array<bool, cell_count>& stops) {
    const Side defender = opponent(attacker);
    const auto& mine = b.threat[static_cast<std::size_t>(index_of(defender))];
    stops[static_cast<std::size_t>(threat_cell)] = true;
    bool counter = false;
    for (int d = 0; d < 4; ++d) {
        const Pattern line = b.pattern(threat_cell, d, attacker);
        if (line < flex3) continue;
        line_breakers(b, threat_cell, d, attacker, [&](int cell) {
            stops[static_cast<std::size_t>(cell)] = true;
            if (line < four) return;
            // `cell` blocks the four: a block there that makes our four needs no other answer.
            counter = counter || mine[static_cast<std::size_t>(cell)] >= threat_four;
            for (int e = 0; e < 4; ++e)
                along_line(b.rules, cell, e, [&](int near_block) {
                    if (b.pattern(near_block, e, defender) >= three) stops[static_cast<std::size_t>(near_block)] = true;
                });
        });
    }
    return !counter;
}

int four_three_cell(const SearchBoard& b, Side side) {
    const auto& counts = b.threat_count[static_cast<std::size_t>(index_of(side))];
    if (counts[threat_four_three] + counts[threat_double_four] == 0) return 0;
    const auto& threats = b.threat[static_cast<std::size_t>(index_of(side))];
    for (int y = 0; y < b.rules.height; ++y)
        for (int x = 0; x < b.rules.width; ++x) {
            const auto square = static_cast<std::size_t>(square_at(x, y));
            if (b.rules.cells[square] == empty && is_four_three(static_cast<Threat>(threats[square])))
                return static_cast<int>(square);
        }
    return 0;
}

void candidate_moves(const SearchBoard& b, MoveList<GomokuSearch>& moves) {
    moves.clear();
    const State& s = b.rules;
    if (s.result != Result::ongoing) return;
    const Side me = s.side_to_move();
    const auto& mine = b.threat[static_cast<std::size_t>(index_of(me))];
    const auto& theirs = b.threat[static_cast<std::size_t>(index_of(opponent(me)))];
    int my_five = 0, their_four_three = 0;
    bool their_five = false, their_open_four = false;
    constexpr int max_open_four_cells = 16;
    int open_four_cells[max_open_four_cells];
    int open_four_count = 0;
    for (int y = 0; y < s.height; ++y) {
        const int row = square_at(0, y);
        for (int x = 0; x < s.width; ++x) {
            const int square = row + x;
            if (s.cells[static_cast<std::size_t>(square)] != empty || !b.near[static_cast<std::size_t>(square)])
                continue;
            if (mine[static_cast<std::size_t>(square)] == threat_five && !my_five) my_five = square;
            their_five = their_five || theirs[static_cast<std::size_t>(square)] == threat_five;
            if (theirs[static_cast<std::size_t>(square)] >= threat_flex4) {
                their_open_four = true;
                if (open_four_count < max_open_four_cells) open_four_cells[open_four_count] = square;
                ++open_four_count;
            }
            if (!their_four_three && is_four_three(static_cast<Threat>(theirs[static_cast<std::size_t>(square)])))
                their_four_three = square;
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
    // Under renju Black's threats need the fouls checked: facing them, the broader sets below.
    const bool exact = b.exact_defence && !(s.rule == Rule::renju && me == Side::second);
    if (their_five) {
        keep([&](std::size_t square) { return theirs[square] == threat_five; });
    } else if (their_open_four && exact && open_four_count <= max_open_four_cells) {
        CellFlags stops{};
        open_three_defence(b, open_four_cells, open_four_count, opponent(me), stops);
        keep([&](std::size_t square) { return mine[square] >= threat_four || stops[square]; });
    } else if (their_open_four) {
        keep([&](std::size_t square) { return mine[square] >= threat_four || theirs[square] >= threat_four; });
    } else if (their_four_three && exact) {
        CellFlags stops{};
        if (four_three_answers(b, their_four_three, opponent(me), stops))
            keep([&](std::size_t square) { return mine[square] >= threat_four || stops[square]; });
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
