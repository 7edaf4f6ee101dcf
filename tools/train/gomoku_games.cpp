#include "tools/train/gomoku_games.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <tuple>

namespace bge::train {

using namespace bge::gomoku;

namespace {
constexpr std::string_view header = "bge-gomoku-games-1";

Expected<int> parse_int(const std::string& text, std::string_view what) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size())
        return make_error(fmt::format("{} '{}' is not a number", what, text));
    return value;
}

Expected<GomokuGame> parse_game(const std::string& line) {
    std::istringstream words(line);
    std::string rule_text, width, height, k, result, opening;
    if (!(words >> rule_text >> width >> height >> k >> result >> opening))
        return make_error("expected RULE WIDTH HEIGHT K RESULT OPENING_PLIES and the moves");
    GomokuGame game;
    const auto rule = parse_rule(rule_text);
    if (!rule) return make_error(rule.error());
    game.variant.rule = *rule;
    for (auto [text, what, field] : {std::tuple{&width, "width", &game.variant.width},
                                     std::tuple{&height, "height", &game.variant.height},
                                     std::tuple{&k, "k", &game.variant.k}, std::tuple{&result, "result", &game.result},
                                     std::tuple{&opening, "opening plies", &game.opening_plies}}) {
        const auto value = parse_int(*text, what);
        if (!value) return make_error(value.error());
        *field = *value;
    }
    if (game.result < -1 || game.result > 1) return make_error("the result must be 1, -1 or 0");
    const auto variant = check_variant(game.variant);
    if (!variant) return make_error(variant.error());
    State state = start_state(game.variant);
    std::string word;
    while (words >> word) {
        const auto slash = word.find('/');
        const auto move = parse_move(state, word.substr(0, slash));
        if (!move) return make_error(fmt::format("move {}: {}", game.moves.size() + 1, move.error()));
        std::int16_t score = GomokuGame::no_score;
        if (slash != std::string::npos) {
            const auto value = parse_int(word.substr(slash + 1), "score");
            if (!value || *value <= GomokuGame::no_score || *value > INT16_MAX)
                return make_error(fmt::format("move {}: the score after '/' must be a 16-bit number",
                                              game.moves.size() + 1));
            score = static_cast<std::int16_t>(*value);
        }
        game.moves.push_back(*move);
        game.scores.push_back(score);
        play(state, *move);
    }
    if (game.opening_plies < 0 || game.opening_plies > static_cast<int>(game.moves.size()))
        return make_error("more opening plies than moves");
    return game;
}
}  // namespace

std::string format_game(const GomokuGame& game) {
    std::string line = fmt::format("{} {} {} {} {} {}", rule_name(game.variant.rule), game.variant.width,
                                   game.variant.height, game.variant.k, game.result, game.opening_plies);
    State state = start_state(game.variant);
    for (std::size_t ply = 0; ply < game.moves.size(); ++ply) {
        line += " " + format_move(state, game.moves[ply]);
        if (game.scores[ply] != GomokuGame::no_score) line += fmt::format("/{}", game.scores[ply]);
        play(state, game.moves[ply]);
    }
    return line;
}

Status write_games(const std::string& path, const std::vector<GomokuGame>& games) {
    std::ofstream file(path, std::ios::trunc);
    file << header << "\n";
    for (const GomokuGame& game : games) file << format_game(game) << "\n";
    file.close();
    if (!file) return make_error(fmt::format("cannot write {}", path));
    return success();
}

Expected<std::vector<GomokuGame>> read_games(const std::string& path) {
    std::ifstream file(path);
    if (!file) return make_error(fmt::format("cannot read {}", path));
    std::string line;
    if (!std::getline(file, line) || line != header)
        return make_error(fmt::format("{}: not a Gomoku games file (its first line is not {})", path, header));
    std::vector<GomokuGame> games;
    int number = 1;
    while (std::getline(file, line)) {
        ++number;
        if (line.empty()) continue;
        auto game = parse_game(line);
        if (!game) return make_error(fmt::format("{} line {}: {}", path, number, game.error()));
        games.push_back(std::move(*game));
    }
    return games;
}

Expected<long> for_each_game(const std::vector<std::string>& paths, Rule rule, int validation_every,
                             const std::function<void(const GomokuGame&, bool held_out)>& take) {
    long taken = 0;
    for (const std::string& path : paths) {
        auto games = read_games(path);
        if (!games) return make_error(games.error());
        for (const GomokuGame& game : *games) {
            if (game.variant.rule != rule) continue;
            take(game, validation_every > 0 && taken % validation_every == 0);
            ++taken;
        }
    }
    return taken;
}

namespace {

// "15x15, freestyle, 5 in a row", as the arbiter words a Gomoku variant.
Expected<Variant> parse_variant_text(const std::string& text) {
    Variant variant;
    char rule_name[32] = {};
    if (std::sscanf(text.c_str(), "%dx%d, %31[a-z], %d in a row", &variant.width, &variant.height, rule_name, &variant.k) != 4)
        return make_error(fmt::format("its variant '{}' is not 'WxH, RULE, K in a row'", text));
    auto rule = parse_rule(rule_name);
    if (!rule) return make_error(fmt::format("its variant '{}': {}", text, rule.error()));
    variant.rule = *rule;
    return variant;
}

}  // namespace

LabelledGomokuGames gomoku_games_from_labels(const std::vector<LabelledGame>& labelled, const TeacherScale& teacher) {
    constexpr double centi_units_per_logit = 200;  // the network fit's sigmoid(score / 200)
    LabelledGomokuGames out;
    for (const LabelledGame& game : labelled) {
        auto skip = [&](const std::string& why) { out.skipped.push_back(fmt::format("{} game {}: {}", game.file, game.game, why)); };
        if (game.positions.empty() || game.positions.front().ply != 0) {
            skip("its first position was not analysed");
            continue;
        }
        auto variant = parse_variant_text(game.variant);
        if (!variant) {
            skip(variant.error());
            continue;
        }
        State state = start_state(*variant);
        if (format_position(state) != game.positions.front().position) {
            skip("it does not start from the empty board");
            continue;
        }
        GomokuGame converted;
        converted.variant = *variant;
        converted.result = game.outcome == "p1win" ? 1 : game.outcome == "p2win" ? -1 : 0;
        std::string problem;
        for (const LabelledPosition& position : game.positions) {
            if (format_position(state) != position.position) {
                problem = fmt::format("ply {}: the position is not the one its moves reach", position.ply);
                break;
            }
            if (position.played.empty()) break;  // the record's last position
            auto move = parse_move(state, position.played);
            if (!move) {
                problem = fmt::format("ply {}: {}", position.ply, move.error());
                break;
            }
            converted.moves.push_back(*move);
            std::optional<Move> best;
            if (!position.best.empty())
                if (auto parsed = parse_move(state, position.best)) best = *parsed;
            converted.teacher_best.push_back(best);
            converted.scores.push_back(position.score_cp ? teacher.training_score(*position.score_cp, position.mate,
                                                                                  centi_units_per_logit)
                                                         : GomokuGame::no_score);
            play(state, *move);
        }
        if (!problem.empty()) skip(problem + " (the moves before it are used)");
        if (!converted.moves.empty()) out.games.push_back(std::move(converted));
    }
    return out;
}

}  // namespace bge::train
