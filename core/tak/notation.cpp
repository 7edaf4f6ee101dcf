#include "core/tak/notation.hpp"

#include "core/cell_rows.hpp"
#include "core/digits.hpp"

#include <fmt/format.h>

#include <cctype>
#include <vector>

namespace bge::tak {

namespace {

constexpr char direction_char(Direction d) {
    constexpr char chars[4] = {'+', '-', '>', '<'};
    return chars[static_cast<int>(d)];
}

bool is_mark(char c) { return c == '*' || c == '\'' || c == '"' || c == '!' || c == '?'; }

std::string quoted(std::string_view text) { return fmt::format("'{}'", text); }

}  // namespace

std::string square_name(int square) {
    return std::string{static_cast<char>('a' + column_of(square)), static_cast<char>('1' + row_of(square))};
}

Expected<Move> parse_move_syntax(std::string_view text, int size) {
    const std::string_view original = text;
    while (!text.empty() && is_mark(text.back())) text.remove_suffix(1);
    if (text.empty()) return make_error(fmt::format("empty move {}", quoted(original)));

    std::size_t pos = 0;
    int count = 0;
    bool has_count = false;
    Stone stone = Stone::flat;
    bool has_stone = false;
    if (std::isdigit(static_cast<unsigned char>(text[pos]))) {
        count = text[pos] - '0';
        has_count = true;
        ++pos;
    } else if (text[pos] == 'F' || text[pos] == 'S' || text[pos] == 'C') {
        stone = text[pos] == 'F' ? Stone::flat : text[pos] == 'S' ? Stone::wall : Stone::cap;
        has_stone = true;
        ++pos;
    }
    if (pos + 2 > text.size())
        return make_error(fmt::format("move {} has no square (expected e.g. a1, Sa1, 3a1>12)", quoted(original)));
    const char file = text[pos];
    const char rank = text[pos + 1];
    if (file < 'a' || file >= 'a' + size || rank < '1' || rank >= '1' + size)
        return make_error(
            fmt::format("move {}: square {}{} is not on a {}x{} board", quoted(original), file, rank, size, size));
    const int square = square_at(file - 'a', rank - '1');
    pos += 2;

    if (pos == text.size()) {
        if (has_count) return make_error(fmt::format("move {}: a count needs a direction", quoted(original)));
        return Move::place(square, stone);
    }
    if (has_stone)
        return make_error(fmt::format("move {}: a placement has nothing after the square", quoted(original)));

    Direction direction;
    switch (text[pos]) {
        case '+':
            direction = Direction::up;
            break;
        case '-':
            direction = Direction::down;
            break;
        case '>':
            direction = Direction::right;
            break;
        case '<':
            direction = Direction::left;
            break;
        default:
            return make_error(fmt::format("move {}: expected a direction + - > < after the square, got '{}'",
                                          quoted(original), text[pos]));
    }
    ++pos;
    if (!has_count) count = 1;
    if (count < 1 || count > size)
        return make_error(fmt::format("move {}: carries {} pieces; the limit on {}x{} is 1 to {}", quoted(original),
                                      count, size, size, size));
    std::vector<int> drops;
    for (; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (c < '1' || c > '8')
            return make_error(fmt::format("move {}: drop counts must be digits 1-8, got '{}'", quoted(original), c));
        drops.push_back(c - '0');
    }
    if (drops.empty()) drops.push_back(count);
    int total = 0;
    for (int d : drops) total += d;
    if (total != count)
        return make_error(
            fmt::format("move {}: drops add up to {} but {} pieces are carried", quoted(original), total, count));
    // Bound the spread by the board edge here, so the Move value is always meaningful.
    const int column = column_of(square), row = row_of(square);
    const int squares = static_cast<int>(drops.size());
    const int room = direction == Direction::up      ? size - 1 - row
                     : direction == Direction::down  ? row
                     : direction == Direction::right ? size - 1 - column
                                                     : column;
    if (squares > room)
        return make_error(fmt::format("move {}: spreads over {} squares but only {} lie before the edge",
                                      quoted(original), squares, room));
    unsigned pattern = 0;
    int piece = 0;
    for (int d : drops) {
        piece += d;
        pattern |= 1u << (piece - 1);
    }
    return Move::spread(square, direction, static_cast<std::uint8_t>(pattern));
}

Expected<Move> parse_move(const State& state, std::string_view text) {
    auto parsed = parse_move_syntax(text, state.size);
    if (!parsed) return parsed;
    const Move move = *parsed;
    if (is_legal(state, move)) return move;

    // Say why, in the terms a user of PTN thinks in.
    const int square = move.square();
    const Side mover = state.side_to_move();
    if (move.is_placement()) {
        if (state.occupied() & bit(square))
            return make_error(fmt::format("illegal move '{}': {} is occupied", text, square_name(square)));
        if (state.in_opening() && move.stone() != Stone::flat)
            return make_error(fmt::format("illegal move '{}': the first move of each player places a flat", text));
        if (move.stone() == Stone::cap) return make_error(fmt::format("illegal move '{}': no capstones left", text));
        return make_error(fmt::format("illegal move '{}': no stones left", text));
    }
    if (state.in_opening())
        return make_error(fmt::format("illegal move '{}': the first move of each player is a placement", text));
    if (!(state.top_of(mover) & bit(square)))
        return make_error(fmt::format("illegal move '{}': {} does not control {}", text,
                                      mover == Side::first ? "White" : "Black", square_name(square)));
    if (move.carry() > state.height[square])
        return make_error(fmt::format("illegal move '{}': the stack on {} has only {} pieces", text,
                                      square_name(square), state.height[square]));
    return make_error(fmt::format("illegal move '{}': blocked by a wall or capstone", text));
}

std::string format_move(Move move) {
    const int square = move.square();
    if (move.is_placement()) {
        const char* prefix = move.stone() == Stone::wall ? "S" : move.stone() == Stone::cap ? "C" : "";
        return prefix + square_name(square);
    }
    std::string text;
    const int carry = move.carry();
    if (carry > 1) text += static_cast<char>('0' + carry);
    text += square_name(square);
    text += direction_char(move.direction());
    if (move.squares_crossed() > 1) {
        unsigned pattern = move.pattern();
        while (pattern) {
            const int group = std::countr_zero(pattern) + 1;
            text += static_cast<char>('0' + group);
            pattern >>= group;
        }
    }
    return text;
}

std::string format_move(const State& state, Move move, bool mark_flattening) {
    std::string text = format_move(move);
    if (mark_flattening && flattens_wall(state, move)) text += '*';
    return text;
}

// ---------------------------------------------------------------------------------------------
// TPS

namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos) return parts;
        start = end + 1;
    }
}

}  // namespace

Expected<State> parse_tps(std::string_view text, const Variant& variant) {
    // Fields are separated by any run of spaces; a leading "tps" is not part of TPS.
    std::vector<std::string_view> fields;
    for (std::size_t i = 0; i < text.size();) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        const std::size_t start = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i > start) fields.push_back(text.substr(start, i - start));
    }
    if (fields.size() != 3)
        return make_error(fmt::format("TPS needs 3 fields (board, player, move number), got {}", fields.size()));

    const auto rows = split(fields[0], '/');
    const int size = static_cast<int>(rows.size());
    if (size < min_size || size > max_size)
        return make_error(fmt::format("TPS board has {} rows; sizes {} to {} are supported", size, min_size, max_size));

    Variant v = variant;
    v.size = size;
    State s = start_state(v);
    for (int r = 0; r < size; ++r) {
        const int row = size - 1 - r;  // TPS lists the top rank first
        int column = 0;
        for (std::string_view cell : split(rows[r], ',')) {
            if (cell.empty()) return make_error(fmt::format("TPS row {} has an empty cell", r + 1));
            if (cell[0] == 'x') {
                const int run = cell.size() > 1 ? parse_digits(cell.substr(1), 6).value_or(0) : 1;
                if (run <= 0)
                    return make_error(fmt::format("TPS cell '{}' is not x or x<count>", cell));
                column += run;
                if (column > size) return make_error(fmt::format("TPS row {} has more than {} squares", r + 1, size));
                continue;
            }
            if (column >= size) return make_error(fmt::format("TPS row {} has more than {} squares", r + 1, size));
            const int square = square_at(column, row);
            std::string_view colors = cell;
            if (cell.back() == 'S' || cell.back() == 'C') colors.remove_suffix(1);
            if (colors.empty()) return make_error(fmt::format("TPS cell '{}' has a top but no pieces", cell));
            if (colors.size() > max_stack_height)
                return make_error(fmt::format("TPS cell at {} is taller than any possible stack", square_name(square)));
            StackBits bits = 0;
            for (std::size_t i = 0; i < colors.size(); ++i) {
                if (colors[i] == '2')
                    bits |= StackBits{1} << i;
                else if (colors[i] != '1')
                    return make_error(
                        fmt::format("TPS cell '{}': pieces are 1 (white) or 2 (black), with an "
                                    "optional S or C at the end",
                                    cell));
            }
            s.stack_colors[square] = bits;
            s.height[square] = static_cast<std::uint8_t>(colors.size());
            if (cell.back() == 'S') s.walls |= bit(square);
            if (cell.back() == 'C') s.caps |= bit(square);
            ++column;
        }
        if (column != size)
            return make_error(
                fmt::format("TPS row {} has {} squares; a {}x{} board needs {}", r + 1, column, size, size, size));
    }

    int player = 0, move_number = 0;
    if (fields[1] != "1" && fields[1] != "2")
        return make_error(fmt::format("TPS player must be 1 or 2, got '{}'", fields[1]));
    player = fields[1][0] - '0';
    move_number = parse_digits(fields[2], 6).value_or(0);
    if (move_number <= 0 || move_number > 10000)
        return make_error(fmt::format("TPS move number must be a positive number, got '{}'", fields[2]));

    // Check the pieces against the reserves before deriving what is left.
    const Reserves reserves = reserves_for(size);
    int stones[2] = {0, 0}, capstones[2] = {0, 0};
    for (int square = 0; square < square_count; ++square)
        for (int level = 0; level < s.height[square]; ++level) {
            const int color = static_cast<int>((s.stack_colors[square] >> level) & 1);
            const bool is_cap = level == s.height[square] - 1 && (s.caps & bit(square));
            ++(is_cap ? capstones : stones)[color];
        }
    for (int color = 0; color < 2; ++color) {
        const char* name = color == 0 ? "White" : "Black";
        if (stones[color] > reserves.stones)
            return make_error(fmt::format("TPS has {} {} stones; a {}x{} game has only {}", stones[color], name, size,
                                          size, reserves.stones));
        if (capstones[color] > reserves.caps)
            return make_error(fmt::format("TPS has {} {} capstones; a {}x{} game has only {}", capstones[color], name,
                                          size, size, reserves.caps));
    }
    s.ply = static_cast<std::uint16_t>(2 * (move_number - 1) + (player - 1));
    rebuild_derived(s);
    return s;
}

std::string format_tps(const State& s) {
    // TPS lists the top rank (row size - 1) first.
    std::string text = format_cell_rows(s.size, s.size, [&](int top_row, int column) {
        const int square = square_at(column, s.size - 1 - top_row);
        std::string cell;
        for (int level = 0; level < s.height[square]; ++level)
            cell += ((s.stack_colors[square] >> level) & 1) ? '2' : '1';
        if (s.height[square] > 0 && (s.walls & bit(square))) cell += 'S';
        if (s.height[square] > 0 && (s.caps & bit(square))) cell += 'C';
        return cell;
    });
    text += fmt::format(" {} {}", (s.ply & 1) + 1, s.ply / 2 + 1);
    return text;
}

std::string draw_board(const State& s, const Outcome& given) {
    // Each square shows its stack bottom to top: w/b for flats, W/B for a wall, C/D for a
    // White/Black capstone on top.
    int width = 1;
    for (int square = 0; square < square_count; ++square) width = std::max<int>(width, s.height[square]);
    std::string out;
    for (int row = s.size - 1; row >= 0; --row) {
        out += fmt::format(" {} ", row + 1);
        for (int column = 0; column < s.size; ++column) {
            const int square = square_at(column, row);
            std::string cell;
            for (int level = 0; level < s.height[square]; ++level) {
                const bool black = (s.stack_colors[square] >> level) & 1;
                const bool top = level == s.height[square] - 1;
                char c = black ? 'b' : 'w';
                if (top && (s.walls & bit(square))) c = black ? 'B' : 'W';
                if (top && (s.caps & bit(square))) c = black ? 'D' : 'C';
                cell += c;
            }
            if (cell.empty()) cell = ".";
            out += fmt::format(" {:<{}}", cell, width);
        }
        while (out.back() == ' ') out.pop_back();
        out += '\n';
    }
    out += "   ";
    for (int column = 0; column < s.size; ++column)
        out += fmt::format(" {:<{}}", static_cast<char>('a' + column), width);
    while (out.back() == ' ') out.pop_back();
    out += '\n';
    const Outcome& o = given;
    out += fmt::format("TPS: {}\n", format_tps(s));
    out += fmt::format("To move: {}   White left: {}+{}C   Black left: {}+{}C   Komi: {}\n",
                       s.side_to_move() == Side::first ? "White" : "Black", s.stones_left[0], s.caps_left[0],
                       s.stones_left[1], s.caps_left[1], s.half_komi / 2.0);
    out += fmt::format("Flats: White {} Black {}   Hash: {:016x}   Result: {}", flat_count(s, Side::first),
                       flat_count(s, Side::second), s.hash, o.is_over() ? result_text(o) : "ongoing");
    return out;
}

std::string draw_board(const State& s) { return draw_board(s, outcome(s)); }

std::string result_text(const Outcome& outcome) {
    switch (outcome.kind) {
        case OutcomeKind::ongoing:
            return "*";
        case OutcomeKind::draw:
            return "1/2-1/2";
        case OutcomeKind::win: {
            const bool road = outcome.reason == "road";
            const bool flats = outcome.reason == "flats";
            const char letter = road ? 'R' : flats ? 'F' : '1';
            return outcome.winner == Side::first ? fmt::format("{}-0", letter) : fmt::format("0-{}", letter);
        }
    }
    return "*";
}

}  // namespace bge::tak
