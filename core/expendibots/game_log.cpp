#include "core/expendibots/game_log.hpp"

#include <fmt/format.h>

#include <sstream>

#include "core/expendibots/notation.hpp"

namespace bge::expendibots {

void GameLog::set_tag(const std::string& name, const std::string& value) {
    for (auto& [key, existing] : tags)
        if (key == name) {
            existing = value;
            return;
        }
    tags.emplace_back(name, value);
}

const std::string* GameLog::tag(std::string_view name) const {
    for (const auto& [key, value] : tags)
        if (key == name) return &value;
    return nullptr;
}

std::string write_game_log(const GameLog& log) {
    std::string text;
    for (const auto& [name, value] : log.tags) {
        std::string escaped;
        for (char c : value) {
            if (c == '"' || c == '\\') escaped += '\\';
            escaped += c;
        }
        text += fmt::format("[{} \"{}\"]\n", name, escaped);
    }
    State state = log.start;
    for (std::size_t i = 0; i < log.moves.size(); ++i) {
        const Move move = log.moves[i];
        text += fmt::format("[{}] - {}", state.to_move == Side::first ? "white" : "black", format_log_line(move));
        if (i < log.comments.size() && !log.comments[i].empty()) text += fmt::format("  {{{}}}", log.comments[i]);
        text += '\n';
        play(state, move);
    }
    if (!log.closing.empty()) text += fmt::format("[over ] - {}\n", log.closing);
    return text;
}

namespace {

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
    return text;
}

// [Name "value"], with \" and \\ escapes.
bool parse_tag(std::string_view line, std::string& name, std::string& value) {
    if (line.size() < 5 || line.front() != '[' || line.back() != ']') return false;
    line = line.substr(1, line.size() - 2);
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos || space == 0) return false;
    name = std::string(line.substr(0, space));
    std::string_view rest = trim(line.substr(space + 1));
    if (rest.size() < 2 || rest.front() != '"' || rest.back() != '"') return false;
    rest = rest.substr(1, rest.size() - 2);
    value.clear();
    for (std::size_t i = 0; i < rest.size(); ++i) {
        if (rest[i] == '\\' && i + 1 < rest.size()) ++i;
        value += rest[i];
    }
    return true;
}

}  // namespace

Expected<std::vector<GameLog>> parse_game_logs(std::string_view text, IllegalMoves illegal_moves) {
    std::vector<GameLog> games;
    GameLog current;
    State state = start_state();
    bool has_content = false, has_moves = false;
    auto finish = [&] {
        if (has_content) games.push_back(std::move(current));
        current = GameLog{};
        state = start_state();
        current.start = state;
        has_content = has_moves = false;
    };
    current.start = state;

    std::istringstream lines{std::string(text)};
    std::string raw;
    for (int number = 1; std::getline(lines, raw); ++number) {
        const std::string_view line = trim(raw);
        auto refuse = [&](const std::string& why) {
            return make_error(fmt::format("line {}: {}", number, why));
        };
        if (line.empty()) {
            finish();
            continue;
        }
        if (line.starts_with("[white]") || line.starts_with("[black]")) {
            const Side side = line.starts_with("[white]") ? Side::first : Side::second;
            std::string_view action = line.substr(7);
            std::string comment;
            if (const std::size_t brace = action.find('{'); brace != std::string_view::npos) {
                const std::size_t close = action.find('}', brace);
                if (close == std::string_view::npos) return refuse("a comment '{' without its '}'");
                comment = std::string(action.substr(brace + 1, close - brace - 1));
                action = action.substr(0, brace);
            }
            action = trim(action);
            if (!action.starts_with('-')) return refuse("expected '- ' after the side, as the referee writes it");
            has_content = has_moves = true;
            if (!current.problem.empty()) continue;  // the record already stopped at a refused move
            auto move = parse_log_line(trim(action.substr(1)));
            Expected<Move> legal = make_error("");
            std::string problem;
            if (!move)
                problem = move.error();
            else if (current.closing.size())
                problem = "a move after the game's [over ] line";
            else if (outcome(state).is_over())
                problem = "a move after the end of the game";
            else if (side != state.to_move)
                problem = fmt::format("{} moves, but it is {}'s turn", side == Side::first ? "white" : "black",
                                      state.to_move == Side::first ? "white" : "black");
            else if (legal = parse_move(state, format_move(*move)); !legal)
                problem = legal.error();
            if (!problem.empty()) {
                if (illegal_moves == IllegalMoves::refuse_text) return refuse(problem);
                current.problem = fmt::format("line {}, action {}: {}", number, current.moves.size() + 1, problem);
                continue;
            }
            play(state, *legal);
            current.moves.push_back(*legal);
            current.comments.push_back(comment);
            continue;
        }
        if (line.starts_with("[over")) {
            const std::size_t dash = line.find("] - ");
            current.closing = dash == std::string_view::npos ? "" : std::string(line.substr(dash + 4));
            has_content = true;
            continue;
        }
        if (line.starts_with("[game") || line.starts_with("[error")) continue;  // referee log headers
        std::string name, value;
        if (!parse_tag(line, name, value))
            return refuse(fmt::format("expected a tag [Name \"value\"] or an action '[white] - ...', got '{}'",
                                      std::string(line.substr(0, 60))));
        if (has_moves || !current.closing.empty()) finish();
        if (name == "FEN") {
            auto start = parse_fen(value);
            if (!start) return refuse(start.error());
            state = current.start = *start;
        }
        current.set_tag(name, value);
        has_content = true;
    }
    finish();
    return games;
}

}  // namespace bge::expendibots
