#include "core/twixt/notation.hpp"

#include "core/digits.hpp"

#include <fmt/format.h>

#include <cctype>
#include <vector>

namespace bge::twixt {

namespace {

// A cell such as `c5` on a board of `size`, or an error naming the text.
Expected<int> parse_cell(std::string_view text, int size) {
    if (text.empty()) return make_error("empty cell");
    const char letter = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    const int row = parse_digits(text.substr(1), 2).value_or(-1);
    if (letter < 'a' || letter > 'z' || row < 0)
        return make_error(fmt::format("'{}': expected a cell such as c5, or swap", text));
    const int column = letter - 'a';
    if (column >= size || row < 1 || row > size)
        return make_error(fmt::format("'{}' is not on a {}x{} board (columns a-{}, rows 1-{})", text, size, size,
                                      static_cast<char>('a' + size - 1), size));
    if ((column == 0 || column == size - 1) && (row == 1 || row == size))
        return make_error(fmt::format("'{}' is a corner, and TwixT boards have no corner holes", text));
    return square_at(column, row - 1);
}

int direction_between(int from, int to) {
    for (int d = 0; d < 8; ++d)
        if (from + knight_step(d) == to) return d;
    return -1;
}

}  // namespace

std::string square_name(int square) {
    return fmt::format("{}{}", static_cast<char>('a' + column_of(square)), row_of(square) + 1);
}

Expected<Move> parse_move_syntax(std::string_view text, int size) {
    if (text.empty()) return make_error("empty move");
    if (text == "swap" || text == "SWAP") return Move::swap();
    if (text.size() >= 3 && (text[0] == 'x' || text[0] == 'o') && std::isalpha(static_cast<unsigned char>(text[1])))
        text.remove_prefix(1);
    auto cell = parse_cell(text, size);
    if (!cell) return make_error(fmt::format("move {}", cell.error()));
    return Move{static_cast<std::uint16_t>(*cell)};
}

Expected<Move> parse_move(const State& state, std::string_view text) {
    if (text.empty()) return make_error("empty move");
    if (state.result != Result::ongoing) return make_error(fmt::format("move '{}': the game is over", text));
    const Side mover = state.side_to_move();
    if (text.size() >= 3 && (text[0] == 'x' || text[0] == 'o') && std::isalpha(static_cast<unsigned char>(text[1]))) {
        const Side named = text[0] == 'x' ? Side::first : Side::second;
        if (named != mover)
            return make_error(fmt::format("move '{}': it is {}'s turn", text, mover == Side::first ? "x" : "o"));
    }
    auto move = parse_move_syntax(text, state.size);
    if (!move) return move;
    if (move->is_swap()) {
        if (state.swap_available()) return move;
        if (state.plies == 1)
            return make_error(
                fmt::format("move '{}': no swap, since x's first peg stands on x's own border row", text));
        return make_error(fmt::format("move '{}': only o's first move may be a swap", text));
    }
    if (state.swap_available() && move->square == state.first_move) return Move::swap();  // OpenSpiel's spelling
    const int square = move->square;
    if (state.cells[square] != empty) return make_error(fmt::format("move '{}': the hole is taken", text));
    if (!playable_for(state, mover, square))
        return make_error(fmt::format("move '{}': {} may not place on {}'s border line", text,
                                      mover == Side::first ? "x" : "o", mover == Side::first ? "o" : "x"));
    return move;
}

std::string format_move(const State&, Move move) {
    if (move.is_swap()) return "swap";
    return square_name(move.square);
}

std::string openspiel_action_string(const State& state, Move move) {
    const char player = state.side_to_move() == Side::first ? 'x' : 'o';
    return fmt::format("{}{}", player, square_name(move.is_swap() ? state.first_move : move.square));
}

Expected<State> parse_position(std::string_view text, const Variant&) {
    std::vector<std::string_view> fields;
    for (std::size_t i = 0; i < text.size();) {
        while (i < text.size() && text[i] == ' ') ++i;
        std::size_t end = i;
        while (end < text.size() && text[end] != ' ') ++end;
        if (end > i) fields.push_back(text.substr(i, end - i));
        i = end;
    }
    if (fields.size() != 3)
        return make_error(
            "expected three fields: rows, side to move (x or o), bridges (or -), e.g. 8/8/8/8/8/8/8/8 x -");
    std::vector<std::string_view> rows;
    for (std::size_t start = 0;;) {
        const std::size_t slash = fields[0].find('/', start);
        rows.push_back(
            fields[0].substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    const int size = static_cast<int>(rows.size());
    if (size < min_size || size > max_size)
        return make_error(fmt::format("{} rows: the board size must be from {} to {}", size, min_size, max_size));
    State state = start_state(Variant{size});
    for (int row = 0; row < size; ++row) {
        int column = 0;
        const std::string_view line = rows[static_cast<std::size_t>(row)];
        for (std::size_t i = 0; i < line.size();) {
            const char c = line[i];
            if (c >= '0' && c <= '9') {
                int run = 0;
                while (i < line.size() && line[i] >= '0' && line[i] <= '9' && run <= max_size)
                    run = run * 10 + (line[i++] - '0');
                if (run == 0) return make_error(fmt::format("row {}: a run of 0 empty holes", row + 1));
                column += run;
                continue;
            }
            if (c != 'x' && c != 'o')
                return make_error(fmt::format("row {}: '{}' is not x, o or a number", row + 1, c));
            if (column >= size) return make_error(fmt::format("row {} has more than {} holes", row + 1, size));
            const int square = square_at(column, row);
            if (state.cells[square] == off) return make_error(fmt::format("a peg on corner {}", square_name(square)));
            state.cells[square] = c == 'x' ? first_peg : second_peg;
            ++column;
            ++i;
        }
        if (column != size) return make_error(fmt::format("row {} has {} holes, expected {}", row + 1, column, size));
    }
    if (fields[1] != "x" && fields[1] != "o") return make_error("the side to move must be x or o");
    std::vector<Bridge> bridges;
    if (fields[2] != "-") {
        for (std::size_t start = 0; start <= fields[2].size();) {
            std::size_t comma = fields[2].find(',', start);
            if (comma == std::string_view::npos) comma = fields[2].size();
            const std::string_view pair = fields[2].substr(start, comma - start);
            start = comma + 1;
            // Two cells back to back: the second starts at the second letter.
            std::size_t split = 1;
            while (split < pair.size() && !std::isalpha(static_cast<unsigned char>(pair[split]))) ++split;
            auto from = parse_cell(pair.substr(0, split), size);
            auto to = parse_cell(pair.substr(std::min(split, pair.size())), size);
            if (!from || !to) return make_error(fmt::format("bridge '{}': expected two cells such as c3d5", pair));
            const int direction = direction_between(*from, *to);
            if (direction < 0)
                return make_error(fmt::format("bridge '{}': the cells are not a knight's move apart", pair));
            bridges.push_back({*from, direction});
        }
    }
    if (auto status = rebuild(state, fields[1] == "x" ? Side::first : Side::second, bridges); !status)
        return make_error(status.error());
    return state;
}

std::string format_position(const State& s) {
    std::string text;
    for (int row = 0; row < s.size; ++row) {
        if (row > 0) text += '/';
        int run = 0;
        for (int column = 0; column < s.size; ++column) {
            const std::uint8_t cell = s.cells[square_at(column, row)];
            if (cell == first_peg || cell == second_peg) {
                if (run > 0) text += std::to_string(run);
                run = 0;
                text += cell == first_peg ? 'x' : 'o';
            } else {
                ++run;
            }
        }
        if (run > 0) text += std::to_string(run);
    }
    text += s.side_to_move() == Side::first ? " x " : " o ";
    std::string bridges;
    for (int row = 0; row < s.size; ++row)
        for (int column = 0; column < s.size; ++column) {
            const int square = square_at(column, row);
            for (int d = 0; d < 4; ++d)
                if (s.links[square] & (1u << d)) {
                    if (!bridges.empty()) bridges += ',';
                    bridges += square_name(square) + square_name(square + knight_step(d));
                }
        }
    text += bridges.empty() ? "-" : bridges;
    return text;
}

std::string draw_board(const State& s, const Outcome& given) {
    const int width = 4 * (s.size - 1) + 1;
    const int height = 2 * (s.size - 1) + 1;
    std::vector<std::string> canvas(static_cast<std::size_t>(height),
                                    std::string(static_cast<std::size_t>(width), ' '));
    std::vector<std::string> bridge_names;
    for (int row = 0; row < s.size; ++row)
        for (int column = 0; column < s.size; ++column) {
            const int square = square_at(column, row);
            const std::uint8_t cell = s.cells[square];
            const char mark = cell == first_peg ? 'x' : cell == second_peg ? 'o' : cell == empty ? '.' : ' ';
            canvas[static_cast<std::size_t>(2 * row)][static_cast<std::size_t>(4 * column)] = mark;
            for (int d = 0; d < 4; ++d) {
                if (!(s.links[square] & (1u << d))) continue;
                const auto [dc, dr] = knight_offsets[d];
                // Bridges cross nowhere, so no two share a midpoint, and none lies on a hole.
                canvas[static_cast<std::size_t>(2 * row + dr)][static_cast<std::size_t>(4 * column + 2 * dc)] =
                    dc * dr > 0 ? '\\' : '/';
                bridge_names.push_back(fmt::format("{}{}-{}", cell == first_peg ? 'x' : 'o', square_name(square),
                                                   square_name(square + knight_step(d))));
            }
        }
    std::string text = "    ";
    for (int column = 0; column < s.size; ++column) {
        text += static_cast<char>('a' + column);
        if (column + 1 < s.size) text += "   ";
    }
    text += '\n';
    for (int line = 0; line < height; ++line) {
        std::string content = canvas[static_cast<std::size_t>(line)];
        while (!content.empty() && content.back() == ' ') content.pop_back();
        if (line % 2 == 0)
            text += fmt::format("{:>2}  ", line / 2 + 1);
        else if (!content.empty())
            text += "    ";
        text += content + '\n';
    }
    text +=
        fmt::format("x joins rows 1 and {}; o joins columns a and {}.\n", s.size, static_cast<char>('a' + s.size - 1));
    if (s.swapped) text += "o swapped.\n";
    text += "FEN: " + format_position(s) + '\n';
    text += "Bridges:";
    if (bridge_names.empty()) text += " none";
    for (const auto& name : bridge_names) text += ' ' + name;
    text += '\n';
    const Outcome& end = given;
    if (end.kind == OutcomeKind::win)
        text += fmt::format("{} has won.\n", end.winner == Side::first ? "x" : "o");
    else if (end.kind == OutcomeKind::draw)
        text += end.reason == "no placement" ? std::string("Draw: no placement left.\n")
                                             : fmt::format("Draw by {}.\n", end.reason);
    else
        text += fmt::format("{} to move{}.\n", s.side_to_move() == Side::first ? "x" : "o",
                            s.swap_available() ? " (may swap)" : "");
    return text;
}

std::string draw_board(const State& s) { return draw_board(s, outcome(s)); }

std::string result_text(const Outcome& outcome) {
    switch (outcome.kind) {
        case OutcomeKind::ongoing:
            return "*";
        case OutcomeKind::win:
            return outcome.winner == Side::first ? "1-0" : "0-1";
        case OutcomeKind::draw:
            return "1/2-1/2";
    }
    return "*";
}

}  // namespace bge::twixt
