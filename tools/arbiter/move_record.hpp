#pragma once
// The PGN-like game record of the games without a record format of their own (Gomoku, TwixT):
// [Tag "value"] lines, a blank line, then the moves numbered in pairs with their {comments},
// wrapped at 79 columns, and the result.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/game.hpp"
#include "tools/arbiter/game_adapter.hpp"

namespace bge::arbiter {

using RecordTags = std::vector<std::pair<std::string, std::string>>;

// A tag value with `"` and `\` escaped, as PGN does.
inline std::string escape_tag_value(std::string_view value) {
    std::string escaped;
    for (const char c : value) {
        if (c == '"' || c == '\\') escaped += '\\';
        escaped += c;
    }
    return escaped;
}

template <Game G>
std::string move_record_text(const RecordTags& tags, const PlayedGame<G>& played, std::string_view result) {
    std::string text;
    for (const auto& [name, value] : tags) text += fmt::format("[{} \"{}\"]\n", name, escape_tag_value(value));
    text += '\n';
    auto position = played.start;
    std::string line;
    auto append = [&](const std::string& word) {
        if (line.size() + word.size() + 1 > 79) {
            text += line + '\n';
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += word;
    };
    for (std::size_t i = 0; i < played.moves.size(); ++i) {
        std::string word;
        if (i % 2 == 0) word = fmt::format("{}. ", i / 2 + 1);
        word += G::format_move(position, played.moves[i]);
        if (i < played.comments.size() && !played.comments[i].empty())
            word += fmt::format(" {{{}}}", played.comments[i]);
        G::play(position, played.moves[i]);
        append(word);
    }
    append(std::string(result));
    return text + line + '\n';
}

}  // namespace bge::arbiter
