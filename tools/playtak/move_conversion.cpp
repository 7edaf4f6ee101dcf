#include "tools/playtak/move_conversion.hpp"

#include <cctype>
#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "core/tak/notation.hpp"
#include "protocol/text.hpp"

namespace bge::playtak {

namespace {

struct Square {
    int column = 0;
    int row = 0;
};

Expected<Square> parse_square(std::string_view text, int size) {
    if (text.size() != 2) return make_error(fmt::format("'{}' is not a square", protocol::excerpt(text, 20)));
    const int column = std::toupper(static_cast<unsigned char>(text[0])) - 'A';
    const int row = text[1] - '1';
    if (column < 0 || column >= size || row < 0 || row >= size)
        return make_error(fmt::format("square '{}' is not on a {}x{} board", text, size, size));
    return Square{column, row};
}

std::string ptn_square(Square square) {
    return fmt::format("{}{}", static_cast<char>('a' + square.column), square.row + 1);
}

std::string server_square(int square) {
    return fmt::format("{}{}", static_cast<char>('A' + tak::column_of(square)), tak::row_of(square) + 1);
}

Expected<std::string> placement_to_ptn(const std::vector<std::string_view>& words, int size) {
    if (words.size() < 2 || words.size() > 3)
        return make_error("a placement is 'P <square>' with an optional C or W after it");
    auto square = parse_square(words[1], size);
    if (!square) return make_error(square.error());
    std::string prefix;
    if (words.size() == 3) {
        if (words[2] == "W" || words[2] == "w")
            prefix = "S";
        else if (words[2] == "C" || words[2] == "c")
            prefix = "C";
        else
            return make_error(fmt::format("placement kind '{}' is neither C nor W", protocol::excerpt(words[2], 20)));
    }
    return prefix + ptn_square(*square);
}

Expected<std::string> spread_to_ptn(const std::vector<std::string_view>& words, int size) {
    if (words.size() < 4) return make_error("a spread is 'M <from> <to> <drop> ...' with at least one drop");
    auto from = parse_square(words[1], size);
    if (!from) return make_error(from.error());
    auto to = parse_square(words[2], size);
    if (!to) return make_error(to.error());
    char direction = 0;
    int distance = 0;
    if (from->column == to->column && to->row != from->row) {
        direction = to->row > from->row ? '+' : '-';
        distance = std::abs(to->row - from->row);
    } else if (from->row == to->row && to->column != from->column) {
        direction = to->column > from->column ? '>' : '<';
        distance = std::abs(to->column - from->column);
    } else {
        return make_error(fmt::format("{} to {} is not a straight line", words[1], words[2]));
    }
    const std::size_t drops = words.size() - 3;
    if (static_cast<int>(drops) != distance)
        return make_error(
            fmt::format("{} to {} crosses {} squares but lists {} drops", words[1], words[2], distance, drops));
    std::string pattern;
    int carried = 0;
    for (std::size_t i = 3; i < words.size(); ++i) {
        auto drop = protocol::parse_integer(words[i], 1, size, "a drop count");
        if (!drop) return make_error(drop.error());
        carried += static_cast<int>(*drop);
        pattern += static_cast<char>('0' + *drop);
    }
    if (carried > size)
        return make_error(fmt::format("the spread carries {} pieces, above the carry limit {}", carried, size));
    return fmt::format("{}{}{}{}", carried, ptn_square(*from), direction, pattern);
}

}  // namespace

Expected<std::string> server_move_to_ptn(std::string_view server_move, int size) {
    const auto words = protocol::split_words(server_move);
    if (words.empty()) return make_error("empty move");
    if (words[0] == "P") return placement_to_ptn(words, size);
    if (words[0] == "M") return spread_to_ptn(words, size);
    return make_error(fmt::format("'{}' is neither a placement (P) nor a spread (M)", protocol::excerpt(words[0], 20)));
}

Expected<tak::Move> parse_server_move(const tak::State& state, std::string_view server_move) {
    auto ptn = server_move_to_ptn(server_move, state.size);
    if (!ptn) return make_error(ptn.error());
    auto move = tak::parse_move(state, *ptn);
    if (!move) return make_error(fmt::format("{} ({}): {}", protocol::excerpt(server_move), *ptn, move.error()));
    return *move;
}

std::string format_server_move(tak::Move move) {
    const int from = move.square();
    if (move.is_placement()) {
        switch (move.stone()) {
            case tak::Stone::wall:
                return fmt::format("P {} W", server_square(from));
            case tak::Stone::cap:
                return fmt::format("P {} C", server_square(from));
            default:
                return fmt::format("P {}", server_square(from));
        }
    }
    // A set bit in the pattern marks the last piece dropped on a square (core/tak/types.hpp).
    std::vector<int> drops;
    int count = 0;
    const std::uint8_t pattern = move.pattern();
    for (int i = 0; i < move.carry(); ++i) {
        ++count;
        if (pattern & (1u << i)) {
            drops.push_back(count);
            count = 0;
        }
    }
    const int to = from + tak::step_of(move.direction()) * static_cast<int>(drops.size());
    return fmt::format("M {} {} {}", server_square(from), server_square(to), fmt::join(drops, " "));
}

Expected<std::string> ptn_to_server_move(const tak::State& state, std::string_view ptn) {
    auto move = tak::parse_move(state, ptn);
    if (!move) return make_error(move.error());
    return format_server_move(*move);
}

}  // namespace bge::playtak
