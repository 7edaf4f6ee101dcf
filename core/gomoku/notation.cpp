#include "core/gomoku/notation.hpp"

#include "core/digits.hpp"

#include <fmt/format.h>

#include <cctype>
#include <vector>

namespace bge::gomoku {

std::string square_name(int square, int height) {
    return fmt::format("{}{}", static_cast<char>('a' + x_of(square)), height - y_of(square));
}

std::string xy_text(Move move) { return fmt::format("{},{}", move.x(), move.y()); }

Expected<Move> parse_move_syntax(std::string_view text, int width, int height) {
    if (text.empty()) return make_error("empty move");
    int x = 0, y = 0;
    if (const std::size_t comma = text.find(','); comma != std::string_view::npos) {
        const auto column = parse_digits(text.substr(0, comma), 3), line = parse_digits(text.substr(comma + 1), 3);
        if (!column || !line)
            return make_error(fmt::format("move '{}': expected x,y with 0-based whole numbers, e.g. 7,7", text));
        x = *column;
        y = *line;
    } else {
        const char letter = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
        const int row = parse_digits(text.substr(1), 3).value_or(-1);
        if (letter < 'a' || letter > 'z' || row < 0)
            return make_error(fmt::format("move '{}': expected a cell such as h8 or 7,7", text));
        x = letter - 'a';
        y = height - row;
        if (row < 1 || row > height || x >= width)
            return make_error(fmt::format("move '{}': {} is not on a {}x{} board (columns a-{}, rows 1-{})", text, text,
                                          width, height, static_cast<char>('a' + width - 1), height));
    }
    if (x < 0 || y < 0 || x >= width || y >= height)
        return make_error(fmt::format("move '{}': {},{} is not on a {}x{} board (x 0-{}, y 0-{})", text, x, y, width,
                                      height, width - 1, height - 1));
    return Move::at(x, y);
}

Expected<Move> parse_move(const State& state, std::string_view text) {
    auto move = parse_move_syntax(text, state.width, state.height);
    if (!move) return move;
    if (state.result != Result::ongoing) return make_error(fmt::format("move '{}': the game is over", text));
    const std::uint8_t cell = state.cells[move->square];
    if (cell != empty)
        return make_error(fmt::format("illegal move '{}': {} is {}", text, square_name(move->square, state.height),
                                      cell == wall ? "blocked" : "occupied"));
    return move;
}

std::string format_move(const State& state, Move move) { return square_name(move.square, state.height); }

Expected<State> parse_position(std::string_view text, const Variant& variant) {
    std::vector<std::string_view> fields;
    for (std::size_t i = 0; i < text.size();) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        const std::size_t start = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i > start) fields.push_back(text.substr(start, i - start));
    }
    if (fields.size() != 2)
        return make_error(fmt::format("a position has 2 fields (rows, side to move), got {}", fields.size()));
    std::vector<std::string_view> rows;
    for (std::size_t start = 0;;) {
        const std::size_t slash = fields[0].find('/', start);
        rows.push_back(
            fields[0].substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    const int height = static_cast<int>(rows.size());
    if (height < min_side || height > max_side)
        return make_error(fmt::format("the position has {} rows; boards have {} to {}", height, min_side, max_side));
    Variant v = variant;
    v.height = height;
    v.width = 0;
    // The width is the first row's length; every row must match it.
    std::vector<std::vector<std::uint8_t>> cells(static_cast<std::size_t>(height));
    for (int y = 0; y < height; ++y) {
        const std::string_view row = rows[static_cast<std::size_t>(y)];
        auto& out = cells[static_cast<std::size_t>(y)];
        for (std::size_t i = 0; i < row.size();) {
            const char c = row[i];
            if (c >= '0' && c <= '9') {
                std::size_t end = i;
                while (end < row.size() && row[end] >= '0' && row[end] <= '9') ++end;
                const int run = parse_digits(row.substr(i, end - i), 3).value_or(0);
                if (run == 0 || run > max_side)
                    return make_error(
                        fmt::format("row {}: bad run of empty cells '{}'", y + 1, row.substr(i, end - i)));
                out.insert(out.end(), static_cast<std::size_t>(run), empty);
                i = end;
                continue;
            }
            if (c == 'x' || c == 'X')
                out.push_back(black);
            else if (c == 'o' || c == 'O')
                out.push_back(white);
            else if (c == '#')
                out.push_back(wall);
            else
                return make_error(
                    fmt::format("row {}: '{}' is not a cell (a number of empty cells, x, o or #)", y + 1, c));
            ++i;
            if (out.size() > static_cast<std::size_t>(max_side))
                return make_error(fmt::format("row {} is longer than {} cells", y + 1, max_side));
        }
        const int width = static_cast<int>(out.size());
        if (y == 0) v.width = width;
        if (width != v.width)
            return make_error(fmt::format("row {} has {} cells but row 1 has {}", y + 1, width, v.width));
    }
    if (auto checked = check_variant(v); !checked) return make_error(checked.error());
    State s = start_state(v);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < v.width; ++x)
            s.cells[square_at(x, y)] = cells[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)];
    if (auto status = rebuild_derived(s); !status) return make_error(status.error());
    const std::string_view side = fields[1];
    if (side != "x" && side != "o" && side != "X" && side != "O")
        return make_error(fmt::format("side to move '{}': expected x (Black) or o (White)", side));
    const Side stated = (side == "x" || side == "X") ? Side::first : Side::second;
    if (stated != s.side_to_move())
        return make_error(fmt::format("side to move '{}' does not match the stones: {} is to move", side,
                                      s.side_to_move() == Side::first ? "x" : "o"));
    return s;
}

std::string format_position(const State& s) {
    std::string text;
    for (int y = 0; y < s.height; ++y) {
        if (y > 0) text += '/';
        int run = 0;
        for (int x = 0; x < s.width; ++x) {
            const std::uint8_t cell = s.cells[square_at(x, y)];
            if (cell == empty) {
                ++run;
                continue;
            }
            if (run > 0) text += std::to_string(run);
            run = 0;
            text += cell == black ? 'x' : cell == white ? 'o' : '#';
        }
        if (run > 0) text += std::to_string(run);
    }
    text += s.side_to_move() == Side::first ? " x" : " o";
    return text;
}

std::string draw_board(const State& s, const Outcome& given) {
    std::string text = "    ";
    for (int x = 0; x < s.width; ++x) text += fmt::format(" {}", static_cast<char>('a' + x));
    text += '\n';
    for (int y = 0; y < s.height; ++y) {
        text += fmt::format("{:>3} ", s.height - y);
        for (int x = 0; x < s.width; ++x) {
            const int square = square_at(x, y);
            const std::uint8_t cell = s.cells[square];
            const char mark = square == s.last ? '(' : ' ';
            text += mark;
            text += cell == black ? 'X' : cell == white ? 'O' : cell == wall ? '#' : '.';
        }
        text += fmt::format("  {}\n", y);
    }
    text += "Fen: " + format_position(s) + "\n";
    const Outcome& o = given;
    text += fmt::format("Rule: {}, {} in a row{}; ", rule_name(s.rule), static_cast<int>(s.k),
                        s.move_limit ? fmt::format(", drawn at {} stones", static_cast<int>(s.move_limit)) : "");
    if (o.is_over())
        text += fmt::format("game over: {} ({})", result_text(o), o.reason);
    else
        text += fmt::format("{} to move", s.side_to_move() == Side::first ? "Black (x)" : "White (o)");
    return text;
}

std::string draw_board(const State& s) { return draw_board(s, outcome(s)); }

std::string result_text(const Outcome& outcome) {
    if (outcome.kind == OutcomeKind::draw) return "1/2-1/2";
    if (outcome.kind == OutcomeKind::win) return outcome.winner == Side::first ? "1-0" : "0-1";
    return "*";
}

std::string_view rule_name(Rule rule) {
    switch (rule) {
        case Rule::freestyle:
            return "freestyle";
        case Rule::standard:
            return "standard";
        case Rule::renju:
            return "renju";
    }
    return "freestyle";
}

Expected<Rule> parse_rule(std::string_view text) {
    if (text == "freestyle") return Rule::freestyle;
    if (text == "standard") return Rule::standard;
    if (text == "renju") return Rule::renju;
    return make_error(fmt::format("rule '{}': expected freestyle, standard or renju", text));
}

}  // namespace bge::gomoku
