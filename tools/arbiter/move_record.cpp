#include "tools/arbiter/move_record.hpp"

#include <cctype>

namespace bge::arbiter {

std::string RecordGame::tag(std::string_view name) const {
    for (const auto& [key, value] : tags)
        if (key == name) return value;
    return {};
}

Expected<std::vector<RecordGame>> parse_move_records(std::string_view text) {
    std::vector<RecordGame> games;
    RecordGame current;
    bool in_game = false;
    auto finish = [&] {
        if (in_game) games.push_back(std::move(current));
        current = RecordGame{};
        in_game = false;
    };
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (c == '[') {
            if (in_game && !current.moves.empty()) finish();
            const std::size_t end = text.find(']', i);
            if (end == std::string_view::npos) return make_error("a tag has no closing ]");
            const std::string_view inside = text.substr(i + 1, end - i - 1);
            const std::size_t space = inside.find(' ');
            const std::size_t open = inside.find('"'), close = inside.rfind('"');
            if (space == std::string_view::npos || open == std::string_view::npos || close <= open)
                return make_error(fmt::format("bad tag [{}]", inside));
            current.tags.emplace_back(std::string(inside.substr(0, space)),
                                      std::string(inside.substr(open + 1, close - open - 1)));
            in_game = true;
            i = end + 1;
        } else if (c == '{') {
            const std::size_t end = text.find('}', i);
            if (end == std::string_view::npos) return make_error("a comment has no closing }");
            if (!current.moves.empty() && current.comments.back().empty())
                current.comments.back() = std::string(text.substr(i + 1, end - i - 1));
            i = end + 1;
        } else {
            // A word runs to the next space, comment or tag; it is never empty, as c is none of them.
            std::size_t end = i;
            while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) && text[end] != '{' &&
                   text[end] != '[')
                ++end;
            const std::string_view word = text.substr(i, end - i);
            i = end;
            in_game = true;
            if (word == "1-0" || word == "0-1" || word == "1/2-1/2" || word == "*") {
                current.result = std::string(word);
                finish();
            }
            else if (!(std::isdigit(static_cast<unsigned char>(word[0])) && word.back() == '.')) {
                std::string_view move = word;
                while (move.size() > 1 && (move.back() == '?' || move.back() == '!')) move.remove_suffix(1);
                current.moves.emplace_back(move);
                current.comments.emplace_back();
            }
        }
    }
    finish();
    return games;
}

}  // namespace bge::arbiter
