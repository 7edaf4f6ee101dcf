#include "core/expendibots/notation.hpp"

#include "core/cell_rows.hpp"
#include "core/digits.hpp"

#include <fmt/format.h>

#include <bit>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <vector>

namespace bge::expendibots {

namespace {

std::string quoted(std::string_view text) {
    constexpr std::size_t limit = 60;
    if (text.size() <= limit) return fmt::format("'{}'", text);
    return fmt::format("'{}...' ({} bytes)", text.substr(0, limit), text.size());
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    return text;
}

std::string coordinates(int square) { return fmt::format("({}, {})", x_of(square), y_of(square)); }

const char* colour_name(Side side) { return side == Side::first ? "White" : "Black"; }

// A small tokenizer for the referee's texts: words, whole numbers, quoted strings, punctuation.
struct Token {
    enum Kind { word, number, string, punctuation, end } kind = end;
    std::string_view text;
    int value = 0;
};

class Tokens {
public:
    explicit Tokens(std::string_view text) : text_(text) {}

    Token next() {
        while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) ++position_;
        Token token;
        if (position_ >= text_.size()) return token;
        const std::size_t start = position_;
        const char c = text_[position_];
        if (std::isalpha(static_cast<unsigned char>(c))) {
            while (position_ < text_.size() && std::isalpha(static_cast<unsigned char>(text_[position_]))) ++position_;
            token.kind = Token::word;
        } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '-' && position_ + 1 < text_.size() &&
                    std::isdigit(static_cast<unsigned char>(text_[position_ + 1])))) {
            ++position_;
            while (position_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[position_]))) ++position_;
            token.kind = Token::number;
            const std::string_view digits = text_.substr(start, position_ - start);
            token.value = digits.size() > 6 ? 1'000'000 : std::atoi(std::string(digits).c_str());
        } else if (c == '"' || c == '\'') {
            ++position_;
            while (position_ < text_.size() && text_[position_] != c) ++position_;
            if (position_ >= text_.size()) {
                token.kind = Token::punctuation;  // an unclosed quote: let the grammar refuse it
                token.text = text_.substr(start, 1);
                position_ = start + 1;
                return token;
            }
            token.kind = Token::string;
            token.text = text_.substr(start + 1, position_ - start - 1);
            ++position_;
            return token;
        } else {
            ++position_;
            token.kind = Token::punctuation;
        }
        token.text = text_.substr(start, position_ - start);
        return token;
    }

private:
    std::string_view text_;
    std::size_t position_ = 0;
};

// Reads a fixed grammar from Tokens, remembering the first mismatch.
class Reader {
public:
    explicit Reader(std::string_view text) : tokens_(text) { current_ = tokens_.next(); }

    bool punctuation(char c) {
        if (current_.kind != Token::punctuation || current_.text[0] != c) return fail(fmt::format("'{}'", c));
        advance();
        return true;
    }
    bool optional_punctuation(char c) {
        if (current_.kind != Token::punctuation || current_.text[0] != c) return false;
        advance();
        return true;
    }
    bool word(std::string_view expected) {
        if (current_.kind != Token::word || current_.text != expected) return fail(fmt::format("'{}'", expected));
        advance();
        return true;
    }
    std::optional<int> number() {
        if (current_.kind != Token::number) {
            fail("a number");
            return std::nullopt;
        }
        const int value = current_.value;
        advance();
        return value;
    }
    std::optional<std::string_view> string_or_word() {
        if (current_.kind != Token::string && current_.kind != Token::word) {
            fail("\"MOVE\" or \"BOOM\"");
            return std::nullopt;
        }
        const std::string_view text = current_.text;
        advance();
        return text;
    }
    // (x, y), checked to be on the board.
    std::optional<int> square() {
        if (!punctuation('(')) return std::nullopt;
        const auto x = number();
        if (!x || !punctuation(',')) return std::nullopt;
        const auto y = number();
        if (!y || !punctuation(')')) return std::nullopt;
        if (*x < 0 || *x > 7 || *y < 0 || *y > 7) {
            error_ = fmt::format("({}, {}) is off the board (x and y run from 0 to 7)", *x, *y);
            return std::nullopt;
        }
        return square_at(*x, *y);
    }
    bool at_end() {
        if (current_.kind != Token::end) return fail("the end of the text");
        return true;
    }
    bool peek_punctuation(char c) const { return current_.kind == Token::punctuation && current_.text[0] == c; }
    const std::string& error() const { return error_; }

private:
    void advance() { current_ = tokens_.next(); }
    bool fail(const std::string& expected) {
        if (error_.empty()) {
            const std::string found = current_.kind == Token::end ? "the end" : fmt::format("'{}'", current_.text);
            error_ = fmt::format("expected {}, found {}", expected, found);
        }
        return false;
    }
    Tokens tokens_;
    Token current_;
    std::string error_;
};

Expected<Move> make_step(int count, int from, int to, std::string_view original) {
    if (count < 1 || count > max_stack_height)
        return make_error(fmt::format("move {}: moves {} tokens; a stack holds 1 to {}", quoted(original), count,
                                      max_stack_height));
    return Move::step(from, to, count);
}

// Why `move` (well formed) is not legal in `state`.
std::string why_illegal(const State& state, Move move, std::string_view text) {
    const Outcome o = outcome(state);
    if (o.is_over()) return fmt::format("illegal move {}: the game is over", quoted(text));
    const Side mover = state.to_move;
    const int from = move.from();
    if (!(state.stacks_of(mover) & bit(from)))
        return fmt::format("illegal move {}: {} has no stack on {} {}", quoted(text), colour_name(mover),
                           square_name(from), coordinates(from));
    const int height = state.height[from];
    if (move.count() > height)
        return fmt::format("illegal move {}: the stack on {} has only {} token{}", quoted(text), square_name(from),
                           height, height == 1 ? "" : "s");
    const int to = move.to();
    const int dx = std::abs(x_of(to) - x_of(from)), dy = std::abs(y_of(to) - y_of(from));
    if (dx != 0 && dy != 0) return fmt::format("illegal move {}: a stack moves along a row or a column", quoted(text));
    if (dx + dy == 0) return fmt::format("illegal move {}: a stack must move at least one square", quoted(text));
    if (dx + dy > height)
        return fmt::format("illegal move {}: {} squares, but a stack of {} moves at most {}", quoted(text), dx + dy,
                           height, height);
    return fmt::format("illegal move {}: {} holds a {} stack", quoted(text), square_name(to),
                       colour_name(opponent(mover)));
}

}  // namespace

std::string square_name(int square) {
    return fmt::format("{}{}", static_cast<char>('a' + x_of(square)), y_of(square) + 1);
}

Expected<int> parse_square(std::string_view text) {
    if (text.size() != 2) return make_error(fmt::format("square {}: expected a file a-h and a rank 1-8", quoted(text)));
    const char file = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    const char rank = text[1];
    if (file < 'a' || file > 'h' || rank < '1' || rank > '8')
        return make_error(fmt::format("square {}: expected a file a-h and a rank 1-8", quoted(text)));
    return square_at(file - 'a', rank - '1');
}

Expected<Move> parse_move_syntax(std::string_view text) {
    const std::string_view original = text;
    if (text.empty()) return make_error("empty move");
    if (text[0] == 'x' || text[0] == 'X') {
        auto square = parse_square(text.substr(1));
        if (!square) return make_error(fmt::format("boom {}: {}", quoted(original), square.error()));
        return Move::boom(*square);
    }
    int count = 1;
    std::size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
    if (digits > 2)
        return make_error(fmt::format("move {}: moves 1 to {} tokens", quoted(original), max_stack_height));
    if (digits > 0) count = std::atoi(std::string(text.substr(0, digits)).c_str());
    text.remove_prefix(digits);
    if (text.size() != 4)
        return make_error(fmt::format(
            "move {}: expected [count]<from><to> such as c2c4 or 3c2c5, or x<square> for a boom such as xc2",
            quoted(original)));
    auto from = parse_square(text.substr(0, 2));
    if (!from) return make_error(fmt::format("move {}: {}", quoted(original), from.error()));
    auto to = parse_square(text.substr(2, 2));
    if (!to) return make_error(fmt::format("move {}: {}", quoted(original), to.error()));
    return make_step(count, *from, *to, original);
}

Expected<Move> parse_action_tuple(std::string_view text) {
    Reader reader(text);
    auto refuse = [&] { return make_error(fmt::format("action {}: {}", quoted(trim(text)), reader.error())); };
    if (!reader.punctuation('(')) return refuse();
    const auto kind = reader.string_or_word();
    if (!kind || !reader.punctuation(',')) return refuse();
    if (*kind == "BOOM") {
        const auto square = reader.square();
        if (!square) return refuse();
        reader.optional_punctuation(',');  // Python allows a trailing comma
        if (!reader.punctuation(')') || !reader.at_end()) return refuse();
        return Move::boom(*square);
    }
    if (*kind != "MOVE")
        return make_error(fmt::format("action {}: the kind is \"MOVE\" or \"BOOM\", got \"{}\"", quoted(trim(text)),
                                      *kind));
    const auto count = reader.number();
    if (!count || !reader.punctuation(',')) return refuse();
    const auto from = reader.square();
    if (!from || !reader.punctuation(',')) return refuse();
    const auto to = reader.square();
    if (!to) return refuse();
    reader.optional_punctuation(',');
    if (!reader.punctuation(')') || !reader.at_end()) return refuse();
    return make_step(*count, *from, *to, trim(text));
}

Expected<Move> parse_log_line(std::string_view text) {
    Reader reader(text);
    auto refuse = [&] { return make_error(fmt::format("log line {}: {}", quoted(trim(text)), reader.error())); };
    // An optional "[white] - " header, as the referee's log file has it.
    if (reader.optional_punctuation('[')) {
        if (!reader.string_or_word() || !reader.punctuation(']') || !reader.punctuation('-')) return refuse();
    }
    std::optional<Move> move;
    if (reader.peek_punctuation('(')) return refuse();
    Reader probe = reader;
    if (probe.word("BOOM")) {
        reader = probe;
        if (!reader.word("at")) return refuse();
        const auto square = reader.square();
        if (!square) return refuse();
        move = Move::boom(*square);
    } else {
        if (!reader.word("MOVE")) return refuse();
        const auto count = reader.number();
        if (!count || !reader.word("from")) return refuse();
        const auto from = reader.square();
        if (!from || !reader.word("to")) return refuse();
        const auto to = reader.square();
        if (!to) return refuse();
        auto step = make_step(*count, *from, *to, trim(text));
        if (!step) return step;
        move = *step;
    }
    reader.optional_punctuation('.');
    if (!reader.at_end()) return refuse();
    return *move;
}

Expected<Move> parse_move(const State& state, std::string_view text) {
    const std::string_view trimmed = trim(text);
    Expected<Move> parsed = Move{};
    if (trimmed.starts_with('('))
        parsed = parse_action_tuple(trimmed);
    else if (trimmed.starts_with('[') || trimmed.starts_with("MOVE") || trimmed.starts_with("BOOM"))
        parsed = parse_log_line(trimmed);
    else
        parsed = parse_move_syntax(trimmed);
    if (!parsed) return parsed;
    if (!is_legal(state, *parsed)) return make_error(why_illegal(state, *parsed, trimmed));
    return parsed;
}

std::string format_move(Move move) {
    if (move.is_boom()) return "x" + square_name(move.from());
    const std::string squares = square_name(move.from()) + square_name(move.to());
    return move.count() == 1 ? squares : fmt::format("{}{}", move.count(), squares);
}

std::string format_action_tuple(Move move) {
    if (move.is_boom()) return fmt::format("(\"BOOM\", ({}, {}))", x_of(move.from()), y_of(move.from()));
    return fmt::format("(\"MOVE\", {}, ({}, {}), ({}, {}))", move.count(), x_of(move.from()), y_of(move.from()),
                       x_of(move.to()), y_of(move.to()));
}

std::string format_log_line(Move move) {
    if (move.is_boom()) return fmt::format("BOOM at {}.", coordinates(move.from()));
    return fmt::format("MOVE {} from {} to {}.", move.count(), coordinates(move.from()), coordinates(move.to()));
}

// ---------------------------------------------------------------------------------------------
// FEN

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

Expected<State> parse_fen(std::string_view text) {
    std::vector<std::string_view> fields;
    for (std::size_t i = 0; i < text.size();) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        const std::size_t start = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i > start) fields.push_back(text.substr(start, i - start));
    }
    if (fields.size() != 3)
        return make_error(fmt::format("FEN needs 3 fields (board, side to move w|b, actions played), got {}",
                                      fields.size()));
    const auto rows = split(fields[0], '/');
    if (rows.size() != board_size) return make_error(fmt::format("FEN board has {} rows; it needs 8", rows.size()));

    State s{};
    for (int r = 0; r < board_size; ++r) {
        const int y = board_size - 1 - r;  // the top row (y = 7) comes first
        int x = 0;
        for (std::string_view cell : split(rows[r], ',')) {
            if (cell.empty()) return make_error(fmt::format("FEN row {} (y = {}) has an empty cell", r + 1, y));
            const char kind = cell[0];
            const std::string_view count_text = cell.substr(1);
            const int count = count_text.empty() ? 1 : parse_digits(count_text, 2).value_or(-1);
            if (kind == 'x') {
                if (count < 1 || count > 8)
                    return make_error(fmt::format("FEN cell '{}': x<n> needs n from 1 to 8", cell));
                x += count;
                if (x > board_size)
                    return make_error(fmt::format("FEN row {} (y = {}) has more than 8 squares", r + 1, y));
                continue;
            }
            if (kind != 'w' && kind != 'b')
                return make_error(fmt::format(
                    "FEN cell '{}': cells are x (empty), x<n> (n empty squares), w<h> or b<h> (a stack of h)", cell));
            if (count < 1 || count > max_stack_height)
                return make_error(
                    fmt::format("FEN cell '{}': a stack holds 1 to {} tokens", cell, max_stack_height));
            if (x >= board_size)
                return make_error(fmt::format("FEN row {} (y = {}) has more than 8 squares", r + 1, y));
            const int square = square_at(x, y);
            (kind == 'w' ? s.white : s.black) |= bit(square);
            s.height[square] = static_cast<std::uint8_t>(count);
            ++x;
        }
        if (x != board_size)
            return make_error(fmt::format("FEN row {} (y = {}) has {} squares; it needs 8", r + 1, y, x));
    }
    const int white_tokens = tokens_on(s, s.white), black_tokens = tokens_on(s, s.black);
    if (white_tokens > tokens_per_side || black_tokens > tokens_per_side)
        return make_error(fmt::format("FEN has {} white and {} black tokens; each side has only {}", white_tokens,
                                      black_tokens, tokens_per_side));

    if (fields[1] != "w" && fields[1] != "b")
        return make_error(fmt::format("FEN side to move must be w or b, got '{}'", fields[1]));
    s.to_move = fields[1] == "w" ? Side::first : Side::second;
    const int actions = parse_digits(fields[2], 3).value_or(-1);
    if (actions < 0 || actions > max_actions)
        return make_error(fmt::format("FEN actions played must be a number from 0 to {}, got '{}'", max_actions,
                                      fields[2]));
    // White always moves first, so the count says who moves (the referee's turn parity).
    if ((actions % 2 == 0) != (s.to_move == Side::first))
        return make_error(fmt::format("FEN says {} to move after {} actions; White moves after an even number, "
                                      "Black after an odd one",
                                      s.to_move == Side::first ? "White" : "Black", actions));
    s.actions = static_cast<std::uint16_t>(actions);
    rebuild_derived(s);
    return s;
}

std::string format_fen(const State& s) {
    // The top row (y = 7) first.
    std::string text = format_cell_rows(board_size, board_size, [&](int top_row, int x) -> std::string {
        const int square = square_at(x, board_size - 1 - top_row);
        if (!(s.occupied() & bit(square))) return {};
        const char colour = (s.white & bit(square)) ? 'w' : 'b';
        return s.height[square] == 1 ? std::string(1, colour) : fmt::format("{}{}", colour, s.height[square]);
    });
    text += fmt::format(" {} {}", s.to_move == Side::first ? 'w' : 'b', s.actions);
    return text;
}

// ---------------------------------------------------------------------------------------------

std::string draw_board(const State& s, const Outcome& given) {
    std::string out = fmt::format("tokens: white: {}, black: {}\n", s.tokens[0], s.tokens[1]);
    const std::string rule = "   +---+---+---+---+---+---+---+---+\n";
    out += rule;
    for (int y = board_size - 1; y >= 0; --y) {
        out += fmt::format(" {} |", y);
        for (int x = 0; x < board_size; ++x) {
            const int square = square_at(x, y);
            if (s.white & bit(square))
                out += fmt::format("({:X})|", s.height[square]);
            else if (s.black & bit(square))
                out += fmt::format("[{:X}]|", s.height[square]);
            else
                out += "   |";
        }
        out += '\n';
        out += rule;
    }
    out += "y/x  0   1   2   3   4   5   6   7\n";
    const Outcome& o = given;
    out += fmt::format("FEN: {}\n", format_fen(s));
    out += fmt::format("To move: {}   Actions: {} of {}   Hash: {:016x}   Result: {}",
                       s.to_move == Side::first ? "White" : "Black", s.actions, max_actions, s.hash,
                       o.is_over() ? referee_result_message(o) : "ongoing");
    return out;
}

std::string draw_board(const State& s) { return draw_board(s, outcome(s)); }

std::string result_text(const Outcome& outcome) {
    switch (outcome.kind) {
        case OutcomeKind::ongoing:
            return "*";
        case OutcomeKind::draw:
            return "1/2-1/2";
        case OutcomeKind::win:
            return outcome.winner == Side::first ? "1-0" : "0-1";
    }
    return "*";
}

std::string referee_result_message(const Outcome& outcome) {
    switch (outcome.kind) {
        case OutcomeKind::ongoing:
            return "ongoing";
        case OutcomeKind::win:
            return outcome.winner == Side::first ? "winner: white" : "winner: black";
        case OutcomeKind::draw:
            if (outcome.reason == "no tokens") return "draw detected: no tokens remaining";
            if (outcome.reason == "turn limit") return "draw detected: maximum number of turns reached.";
            if (outcome.reason == "repetition") return "draw detected: game state occurred 4 times.";
            return fmt::format("draw detected: {}", outcome.reason);
    }
    return "ongoing";
}

}  // namespace bge::expendibots
