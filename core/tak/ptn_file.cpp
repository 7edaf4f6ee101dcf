#include "core/tak/ptn_file.hpp"

#include <fmt/format.h>

#include <cctype>

#include "core/tak/notation.hpp"

namespace bge::tak {

std::optional<std::string> PtnGame::tag(std::string_view name) const {
    for (const auto& [key, value] : tags)
        if (key == name) return value;
    return std::nullopt;
}

void PtnGame::set_tag(std::string_view name, std::string value) {
    for (auto& [key, existing] : tags)
        if (key == name) {
            existing = std::move(value);
            return;
        }
    tags.emplace_back(std::string(name), std::move(value));
}

std::string komi_text(int half_komi) {
    const int whole = half_komi / 2;
    if (half_komi % 2 == 0) return std::to_string(whole);
    return fmt::format("{}{}.5", half_komi < 0 ? "-" : "", std::abs(whole));
}

Expected<int> parse_komi(std::string_view text) {
    std::string_view rest = text;
    bool negative = false;
    if (!rest.empty() && (rest[0] == '-' || rest[0] == '+')) {
        negative = rest[0] == '-';
        rest.remove_prefix(1);
    }
    int whole = 0, digits = 0;
    while (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0]))) {
        whole = whole * 10 + (rest[0] - '0');
        rest.remove_prefix(1);
        if (++digits > 3) return make_error(fmt::format("komi '{}' is too large", text));
    }
    int half = 2 * whole;
    if (rest == ".5")
        half += 1;
    else if (rest == ".0" || rest == ".00") {
    } else if (!rest.empty() || digits == 0)
        return make_error(fmt::format("komi '{}' is not a number of flats in steps of 0.5", text));
    return negative ? -half : half;
}

namespace {

bool is_result_token(std::string_view token) {
    return token == "R-0" || token == "0-R" || token == "F-0" || token == "0-F" || token == "1/2-1/2" ||
           token == "1-0" || token == "0-1" || token == "0-0" || token == "*";
}

bool is_move_number(std::string_view token) {
    std::size_t digits = 0;
    while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits]))) ++digits;
    if (digits == 0 || digits == token.size()) return false;
    for (std::size_t i = digits; i < token.size(); ++i)
        if (token[i] != '.') return false;
    return true;
}

struct Parser {
    std::string_view text;
    std::size_t pos = 0;
    int line = 1;

    void skip_space() {
        while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) {
            if (text[pos] == '\n') ++line;
            ++pos;
        }
    }
    bool at_end() const { return pos >= text.size(); }
    char peek() const { return text[pos]; }

    Expected<std::pair<std::string, std::string>> read_tag() {
        ++pos;  // '['
        const std::size_t name_start = pos;
        while (pos < text.size() && (std::isalnum(static_cast<unsigned char>(text[pos])) || text[pos] == '_')) ++pos;
        std::string name(text.substr(name_start, pos - name_start));
        if (name.empty()) return make_error(fmt::format("line {}: a tag needs a name, as in [Size \"6\"]", line));
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
        if (pos >= text.size() || text[pos] != '"')
            return make_error(fmt::format("line {}: tag {} needs a quoted value", line, name));
        ++pos;
        std::string value;
        while (pos < text.size() && text[pos] != '"') {
            if (text[pos] == '\n') return make_error(fmt::format("line {}: tag {} value is not closed", line, name));
            if (text[pos] == '\\' && pos + 1 < text.size()) ++pos;
            value += text[pos++];
        }
        if (pos >= text.size()) return make_error(fmt::format("line {}: tag {} value is not closed", line, name));
        ++pos;  // closing quote
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
        if (pos >= text.size() || text[pos] != ']')
            return make_error(fmt::format("line {}: tag {} is not closed with ]", line, name));
        ++pos;
        return std::pair{std::move(name), std::move(value)};
    }

    Expected<std::string> read_comment() {
        const int start_line = line;
        ++pos;  // '{'
        const std::size_t start = pos;
        while (pos < text.size() && text[pos] != '}') {
            if (text[pos] == '\n') ++line;
            ++pos;
        }
        if (pos >= text.size()) return make_error(fmt::format("line {}: comment is not closed with }}", start_line));
        std::string comment(text.substr(start, pos - start));
        ++pos;
        return comment;
    }

    std::string_view read_token() {
        const std::size_t start = pos;
        while (pos < text.size() && !std::isspace(static_cast<unsigned char>(text[pos])) && text[pos] != '{' &&
               text[pos] != '[')
            ++pos;
        return text.substr(start, pos - start);
    }
};

Expected<State> start_from_tags(const PtnGame& game) {
    Variant variant;
    if (auto komi = game.tag("Komi")) {
        auto half = parse_komi(*komi);
        if (!half) return make_error(half.error());
        variant.half_komi = *half;
    }
    if (auto tps = game.tag("TPS")) {
        auto state = parse_tps(*tps, variant);
        if (!state) return make_error("TPS tag: " + state.error());
        if (auto size = game.tag("Size"); size && *size != std::to_string(state->size))
            return make_error(
                fmt::format("Size tag says {} but the TPS tag is {}x{}", *size, state->size, state->size));
        return state;
    }
    const auto size = game.tag("Size");
    if (!size) return make_error("the game has neither a Size nor a TPS tag");
    if (size->size() != 1 || (*size)[0] < '0' + min_size || (*size)[0] > '0' + max_size)
        return make_error(fmt::format("Size tag '{}' is not a size from {} to {}", *size, min_size, max_size));
    variant.size = (*size)[0] - '0';
    return tak::start_state(variant);
}

}  // namespace

Expected<std::vector<PtnGame>> parse_ptn_games(std::string_view text, IllegalMoves illegal_moves) {
    std::vector<PtnGame> games;
    Parser p{text};
    p.skip_space();
    while (!p.at_end()) {
        PtnGame game;
        const int game_number = static_cast<int>(games.size()) + 1;
        auto fail = [&](const std::string& message) {
            return make_error(fmt::format("game {}: {}", game_number, message));
        };
        while (!p.at_end() && p.peek() == '[') {
            auto tag = p.read_tag();
            if (!tag) return fail(tag.error());
            game.tags.push_back(std::move(*tag));
            p.skip_space();
        }
        auto start = start_from_tags(game);
        if (!start) return fail(start.error());
        game.start = *start;
        State current = game.start;
        while (!p.at_end() && p.peek() != '[') {
            if (p.peek() == '{') {
                auto comment = p.read_comment();
                if (!comment) return fail(comment.error());
                if (!game.comments.empty() && game.problem.empty()) {
                    auto& last = game.comments.back();
                    if (!last.empty()) last += ' ';
                    last += *comment;
                }
            } else {
                const int line = p.line;
                const std::string_view token = p.read_token();
                if (is_move_number(token) || token == "--") {
                } else if (is_result_token(token)) {
                    game.result = std::string(token);
                } else if (game.problem.empty()) {
                    std::string problem;
                    auto move = parse_move(current, token);
                    if (!game.result.empty())
                        problem = fmt::format("line {}: move '{}' after the result {}", line, token, game.result);
                    else if (const Outcome o = outcome(current); o.is_over())
                        problem = fmt::format("line {}: move '{}' after the game ended ({})", line, token, result_text(o));
                    else if (!move)
                        problem = fmt::format("line {}, move {}: {}", line, game.moves.size() + 1, move.error());
                    if (problem.empty()) {
                        play(current, *move);
                        game.moves.push_back(*move);
                        game.comments.emplace_back();
                    } else if (illegal_moves == IllegalMoves::refuse_text) {
                        return fail(problem);
                    } else {
                        game.problem = std::move(problem);
                    }
                }
            }
            p.skip_space();
        }
        if (game.result.empty())
            if (auto tag = game.tag("Result")) game.result = *tag;
        games.push_back(std::move(game));
    }
    if (games.empty()) return make_error("no game found in the PTN text");
    return games;
}

Expected<PtnGame> parse_ptn(std::string_view text) {
    auto games = parse_ptn_games(text);
    if (!games) return make_error(games.error());
    if (games->size() != 1) return make_error(fmt::format("expected one game, found {}", games->size()));
    return std::move(games->front());
}

std::string write_ptn(const PtnGame& game) {
    PtnGame out = game;
    out.set_tag("Size", std::to_string(game.start.size));
    if (game.start.half_komi != 0 || game.tag("Komi")) out.set_tag("Komi", komi_text(game.start.half_komi));
    const State standard = tak::start_state(variant_of(game.start));
    if (game.start.ply != 0 || format_tps(game.start) != format_tps(standard))
        out.set_tag("TPS", format_tps(game.start));
    if (!game.result.empty()) out.set_tag("Result", game.result);

    std::string text;
    for (const auto& [name, value] : out.tags) {
        std::string escaped;
        for (char c : value) {
            if (c == '"' || c == '\\') escaped += '\\';
            escaped += c;
        }
        text += fmt::format("[{} \"{}\"]\n", name, escaped);
    }
    text += '\n';
    State current = game.start;
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        const bool white = current.side_to_move() == Side::first;
        if (white || i == 0) {
            if (i > 0) text += '\n';
            text += fmt::format("{}.", current.ply / 2 + 1);
            if (!white) text += " --";
        }
        text += ' ';
        text += format_move(current, game.moves[i], true);
        if (i < game.marks.size()) text += game.marks[i];
        if (i < game.comments.size() && !game.comments[i].empty()) text += fmt::format(" {{{}}}", game.comments[i]);
        play(current, game.moves[i]);
    }
    if (!game.moves.empty()) text += '\n';
    if (!game.result.empty()) text += game.result + '\n';
    return text;
}

}  // namespace bge::tak
