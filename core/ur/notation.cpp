#include "core/ur/notation.hpp"

#include <cctype>
#include <vector>

#include <fmt/format.h>

namespace bge::ur {

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return parts;
}

Expected<int> parse_count(std::string_view text, const char* what) {
    if (text.size() != 1 || text[0] < '0' || text[0] > '7')
        return make_error(fmt::format("{} '{}' is not a number from 0 to 7", what, text));
    return text[0] - '0';
}

}  // namespace

std::string tile_name(int tile) { return fmt::format("{}{}", static_cast<char>('A' + column_of(tile)), row_of(tile)); }

Expected<int> parse_tile(std::string_view text) {
    if (text.size() != 2) return make_error(fmt::format("'{}' is not a tile (A1-C8)", text));
    const int column = std::toupper(static_cast<unsigned char>(text[0])) - 'A';
    const int row = text[1] - '0';
    if (column < 0 || column > 2 || row < 1 || row > 8)
        return make_error(fmt::format("'{}' is not a tile (A1-C8)", text));
    const int tile = tile_at(column, row);
    if (!tile_exists(tile))
        return make_error(fmt::format("{} is not on the board (A5, A6, C5, C6 do not exist)", text));
    return tile;
}

Expected<Move> parse_move(const State& state, std::string_view text) {
    const std::string word = lower(text);
    Move move;
    if (word == "pass") {
        move = Move::make_pass();
    } else if ((word.size() == 2 && word[0] == 'r') || (word.size() == 5 && word.starts_with("roll"))) {
        const char digit = word.back();
        if (digit < '0' || digit > '4') return make_error(fmt::format("'{}': a roll is r0 to r4", text));
        move = Move::make_roll(digit - '0');
    } else {
        if (state.roll == roll_due) return make_error(fmt::format("'{}': a roll is due first (r0-r4)", text));
        const int side = index_of(state.to_move);
        const char* mover = side == 0 ? "light" : "dark";
        if (word.size() == 4 && word.starts_with("on")) {
            auto tile = parse_tile(word.substr(2));
            if (!tile) return make_error(tile.error());
            move = Move::make_entry();
            const int target = state.roll > 0 ? landing_tile(state, side, Move::from_pool, state.roll) : overshoot;
            if (target != *tile)
                return make_error(state.roll > 0 ? fmt::format("'{}': with a roll of {} {} enters on {}", text,
                                                               state.roll, mover, tile_name(target))
                                                 : fmt::format("'{}': a roll of 0 moves nothing; pass", text));
        } else {
            std::string_view rest = word;
            auto from = parse_tile(rest.substr(0, 2));
            if (!from)
                return make_error(
                    fmt::format("'{}' is not a move (A2B2, onA3, A7off, pass, r0-r4): {}", text, from.error()));
            rest.remove_prefix(2);
            if (!rest.empty() && rest[0] == '-') rest.remove_prefix(1);
            const int index = path_index_of(state.ruleset, side, *from);
            if (index < 0)
                return make_error(fmt::format("'{}': {} is not on {}'s path", text, tile_name(*from), mover));
            move = Move::make_advance(index);
            const int target = state.roll > 0 ? landing_tile(state, side, index, state.roll) : overshoot;
            if (rest == "off") {
                if (target != off_board)
                    return make_error(fmt::format("'{}': a piece on {} does not bear off with a roll of {}", text,
                                                  tile_name(*from), state.roll));
            } else {
                auto to = parse_tile(rest);
                if (!to)
                    return make_error(
                        fmt::format("'{}' is not a move (A2B2, onA3, A7off, pass, r0-r4): {}", text, to.error()));
                if (target != *to)
                    return make_error(state.roll > 0 ? fmt::format("'{}': a roll of {} takes {} to {}", text,
                                                                   state.roll, tile_name(*from),
                                                                   target == overshoot   ? std::string("beyond the end")
                                                                   : target == off_board ? std::string("off the board")
                                                                                         : tile_name(target))
                                                     : fmt::format("'{}': a roll of 0 moves nothing; pass", text));
            }
        }
    }
    if (auto status = check_move(state, move); !status)
        return make_error(fmt::format("'{}': {}", text, status.error()));
    return move;
}

std::string format_move(const State& state, Move move) {
    if (move.kind == Move::roll) return fmt::format("r{}", move.value);
    if (move.kind == Move::pass) return "pass";
    const int side = index_of(state.to_move);
    const int target = landing_tile(state, side, move.from, state.roll);
    if (move.from == Move::from_pool) return "on" + tile_name(target);
    const std::string from = tile_name(path_tile(state.ruleset, side, move.from));
    return from + (target == off_board ? std::string("off") : target >= 0 ? tile_name(target) : std::string("??"));
}

Expected<State> parse_position(const Variant& requested, std::string_view text) {
    auto variant = resolve_variant(requested);
    if (!variant) return make_error(variant.error());
    std::vector<std::string_view> words;
    for (auto word : split(text, ' '))
        if (!word.empty()) words.push_back(word);
    if (words.size() != 5)
        return make_error(
            "expected 5 fields: <A>/<B>/<C> <light waiting>,<light scored> <dark waiting>,<dark scored> <l|d> "
            "<roll|->");
    State state = start_state(*variant);
    state.waiting[0] = state.waiting[1] = 0;
    const auto columns = split(words[0], '/');
    if (columns.size() != 3) return make_error("the board is three columns A/B/C separated by '/'");
    for (int column = 0; column < 3; ++column) {
        if (columns[column].size() != 8)
            return make_error(
                fmt::format("column {} has {} tiles, not 8", static_cast<char>('A' + column), columns[column].size()));
        for (int row = 1; row <= 8; ++row) {
            const int tile = tile_at(column, row);
            const char c = columns[column][row - 1];
            if (!tile_exists(tile)) {
                if (c != '_')
                    return make_error(fmt::format("{} does not exist: write '_' there, not '{}'", tile_name(tile), c));
                continue;
            }
            if (c == 'L' || c == 'l')
                state.tiles[0] |= tile_bit(tile);
            else if (c == 'D' || c == 'd')
                state.tiles[1] |= tile_bit(tile);
            else if (c != '.')
                return make_error(fmt::format("tile {}: '{}' is not '.', 'L' or 'D'", tile_name(tile), c));
        }
    }
    for (int side = 0; side < 2; ++side) {
        const auto counts = split(words[1 + side], ',');
        const char* name = side == 0 ? "light" : "dark";
        if (counts.size() != 2)
            return make_error(fmt::format("{} pieces: expected <waiting>,<scored>, got '{}'", name, words[1 + side]));
        auto waiting = parse_count(counts[0], "waiting");
        if (!waiting) return make_error(waiting.error());
        auto scored = parse_count(counts[1], "scored");
        if (!scored) return make_error(scored.error());
        state.waiting[side] = static_cast<std::uint8_t>(*waiting);
        state.scored[side] = static_cast<std::uint8_t>(*scored);
    }
    const std::string side = lower(words[3]);
    if (side == "l" || side == "light")
        state.to_move = Side::first;
    else if (side == "d" || side == "dark")
        state.to_move = Side::second;
    else
        return make_error(fmt::format("side to move '{}' is not l or d", words[3]));
    if (words[4] == "-")
        state.roll = roll_due;
    else if (words[4].size() == 1 && words[4][0] >= '0' && words[4][0] <= '9')
        state.roll = static_cast<std::int8_t>(words[4][0] - '0');
    else
        return make_error(fmt::format("roll '{}' is not 0-4 or -", words[4]));
    if (auto status = validate(state); !status) return make_error(status.error());
    return state;
}

std::string format_position(const State& state) {
    std::string board;
    for (int column = 0; column < 3; ++column) {
        if (column > 0) board += '/';
        for (int row = 1; row <= 8; ++row) {
            const int tile = tile_at(column, row);
            board += !tile_exists(tile)                  ? '_'
                     : (state.tiles[0] & tile_bit(tile)) ? 'L'
                     : (state.tiles[1] & tile_bit(tile)) ? 'D'
                                                         : '.';
        }
    }
    return fmt::format("{} {},{} {},{} {} {}", board, state.waiting[0], state.scored[0], state.waiting[1],
                       state.scored[1], state.to_move == Side::first ? 'l' : 'd',
                       state.roll == roll_due ? std::string("-") : std::to_string(state.roll));
}

std::string draw_board(const State& state, const Outcome& given) {
    std::string out = "     1 2 3 4 5 6 7 8\n";
    for (int column = 0; column < 3; ++column) {
        out += fmt::format("  {} ", static_cast<char>('A' + column));
        for (int row = 1; row <= 8; ++row) {
            const int tile = tile_at(column, row);
            const char c = !tile_exists(tile)                  ? ' '
                           : (state.tiles[0] & tile_bit(tile)) ? 'L'
                           : (state.tiles[1] & tile_bit(tile)) ? 'D'
                           : is_rosette(tile)                  ? '*'
                                                               : '.';
            out += ' ';
            out += c;
        }
        out += '\n';
    }
    out += fmt::format("light: {} waiting, {} scored; dark: {} waiting, {} scored\n", state.waiting[0], state.scored[0],
                       state.waiting[1], state.scored[1]);
    out += fmt::format("ruleset {}, {} pieces; {} to move, roll {}\n", ruleset_name(state.ruleset), state.pieces,
                       state.to_move == Side::first ? "light" : "dark",
                       state.roll == roll_due ? std::string("due") : std::to_string(state.roll));
    out += fmt::format("position: {}\n", format_position(state));
    const Outcome& o = given;
    out += fmt::format("hash: {:016x}; result: {}", hash(state), result_text(o));
    return out;
}

std::string draw_board(const State& state) { return draw_board(state, outcome(state)); }

std::string result_text(const Outcome& outcome) {
    if (!outcome.is_over()) return "*";
    return outcome.winner == Side::first ? "1-0" : "0-1";
}

}  // namespace bge::ur
