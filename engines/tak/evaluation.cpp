#include "engines/tak/evaluation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/tak/bitboard.hpp"
#include "engines/tak/nets/embedded.hpp"
#include "engines/tak/roads.hpp"

namespace bge::tak {

namespace {

constexpr std::string_view weights_header = "bge-tak-eval 1";

// Adds up the weights of the features as extract() produces them.
struct WeightSum {
    const EvalWeights& weights;
    std::int64_t opening = 0;
    std::int64_t endgame = 0;
    void add(int index, int value) {
        opening += static_cast<std::int64_t>(weights.opening[index]) * value;
        endgame += static_cast<std::int64_t>(weights.endgame[index]) * value;
    }
};

// Closeness to the centre, 0 on the far corners up to 2*(size-1) in the middle, for move ordering.
struct CentralityTable {
    std::uint8_t value[max_size + 1][square_count] = {};
    CentralityTable() {
        for (int size = min_size; size <= max_size; ++size)
            for (int row = 0; row < size; ++row)
                for (int column = 0; column < size; ++column) {
                    const int twice_distance = std::abs(2 * column - (size - 1)) + std::abs(2 * row - (size - 1));
                    value[size][square_at(column, row)] = static_cast<std::uint8_t>(2 * (size - 1) - twice_distance);
                }
    }
};
const CentralityTable centrality;

}  // namespace

const EvalWeights& EvalWeightSet::for_size(int size) const {
    for (int distance = 0; distance <= max_size; ++distance) {
        if (size + distance <= max_size && present[size + distance]) return by_size[size + distance];
        if (size - distance >= 0 && present[size - distance]) return by_size[size - distance];
    }
    return by_size[size];
}

Expected<EvalWeightSet> parse_eval_weights(std::string_view text) {
    std::istringstream lines{std::string(text)};
    std::string line;
    int number = 0;
    bool header_seen = false;
    EvalWeightSet set;
    while (std::getline(lines, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto start = line.find_first_not_of(" \t");
        if (start == std::string::npos || line[start] == '#') continue;
        if (!header_seen) {
            if (line.substr(start) != weights_header)
                return make_error(fmt::format("line {}: expected the header '{}'", number, weights_header));
            header_seen = true;
            continue;
        }
        std::istringstream words(line);
        std::string size_text, feature, opening_text, endgame_text, extra;
        words >> size_text >> feature >> opening_text >> endgame_text;
        if (endgame_text.empty() || (words >> extra))
            return make_error(fmt::format("line {}: expected '<size> <feature> <opening> <endgame>'", number));
        char* end = nullptr;
        const long size = std::strtol(size_text.c_str(), &end, 10);
        if (end != size_text.c_str() + size_text.size() || size < min_size || size > max_size)
            return make_error(
                fmt::format("line {}: '{}' is not a board size ({} to {})", number, size_text, min_size, max_size));
        const int index = features::find(feature);
        if (index < 0) return make_error(fmt::format("line {}: unknown feature '{}'", number, feature));
        std::int32_t values[2];
        const std::string* texts[2] = {&opening_text, &endgame_text};
        for (int i = 0; i < 2; ++i) {
            const long value = std::strtol(texts[i]->c_str(), &end, 10);
            if (end != texts[i]->c_str() + texts[i]->size() || std::labs(value) > 100'000'000)
                return make_error(fmt::format("line {}: '{}' is not a whole number within +-1e8", number, *texts[i]));
            values[i] = static_cast<std::int32_t>(value);
        }
        set.by_size[size].opening[index] = values[0];
        set.by_size[size].endgame[index] = values[1];
        set.present[size] = true;
    }
    if (!header_seen) return make_error(fmt::format("not a Tak evaluation file: no '{}' line", weights_header));
    if (std::none_of(set.present.begin(), set.present.end(), [](bool p) { return p; }))
        return make_error("the file gives weights for no board size");
    return set;
}

Expected<EvalWeightSet> load_eval_weights(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return make_error(fmt::format("cannot open the evaluation file '{}'", path));
    std::ostringstream text;
    text << file.rdbuf();
    auto parsed = parse_eval_weights(text.str());
    if (!parsed) return make_error(fmt::format("{}: {}", path, parsed.error()));
    return parsed;
}

std::string format_eval_weights(const EvalWeightSet& set, std::string_view comment) {
    std::string text = fmt::format("{}\n", weights_header);
    std::istringstream comment_lines{std::string(comment)};
    for (std::string line; std::getline(comment_lines, line);) text += fmt::format("# {}\n", line);
    text += fmt::format("# <size> <feature> <opening> <endgame>, in 1/{} centi-flat per unit\n", weight_unit);
    for (int size = min_size; size <= max_size; ++size) {
        if (!set.present[size]) continue;
        const EvalWeights& w = set.by_size[size];
        for (int i = 0; i < features::count; ++i)
            if (w.opening[i] != 0 || w.endgame[i] != 0)
                text += fmt::format("{} {} {} {}\n", size, features::name_of(i), w.opening[i], w.endgame[i]);
    }
    return text;
}

const EvalWeightSet& builtin_eval_weights() {
    // tests/tak_eval_test.cpp parses the shipped file.
    static const EvalWeightSet weights =
        parse_builtin_file("tak", nets::embedded_files(), builtin_eval_file, parse_eval_weights);
    return weights;
}

int linear_eval(const EvalWeights& weights, const State& s) {
    WeightSum sum{weights};
    features::extract(s, sum);
    const std::int64_t phase = features::phase(s);
    const std::int64_t blended = (256 - phase) * sum.opening + phase * sum.endgame;
    return static_cast<int>(blended / (256 * weight_unit));
}

Bitboard TakEvaluator::road_in_one_squares(const State& state, Side side) {
    return tak::road_in_one_squares(state, side);
}

int TakEvaluator::evaluate(const State& s) const {
    if (road_in_one_squares(s, s.side_to_move())) return road_in_one_score;
    return evaluate_quiet(s);
}

int TakEvaluator::evaluate_quiet(const State& s) const {
    // The hash leaves out the board size and komi, which the evaluation depends on.
    const std::uint64_t key = s.hash ^ (static_cast<std::uint64_t>(s.size) * 0x9E3779B97F4A7C15ULL) ^
                              (static_cast<std::uint64_t>(s.half_komi + 64) * 0xC2B2AE3D27D4EB4FULL);
    int score;
    if (cache_.probe(key, score)) return score;
    int raw;
    if (!network_.covers(s.size) || network_percent_ <= 0)
        raw = linear_eval(weights_->for_size(s.size), s);
    else if (network_percent_ >= 100)
        raw = network_.evaluate(s);
    else
        raw = (network_percent_ * network_.evaluate(s) +
               (100 - network_percent_) * linear_eval(weights_->for_size(s.size), s)) /
              100;
    score = std::clamp(raw, -road_in_one_score + 1, road_in_one_score - 1);
    cache_.store(key, score);
    return score;
}

std::optional<Move> TakEvaluator::winning_move(State& s) const {
    const Move move = tak::winning_move(s, s.side_to_move());
    if (move == Move::none()) return std::nullopt;
    return move;
}

bool TakEvaluator::threatened(State& s) const {
    return !(tak::winning_move(s, opponent(s.side_to_move())) == Move::none());
}

bool TakEvaluator::threat_extends(State& s) const {
    return extend_flat_threats_ || has_road_in_one(s, opponent(s.side_to_move()));
}

bool TakEvaluator::null_move_allowed(const State& s) const {
    if (s.ply < 4 || pieces_left(s, s.side_to_move()) == 0) return false;
    return road_in_one_squares(s, opponent(s.side_to_move())) == 0;
}

int TakEvaluator::order_hint(const State& s, const Move& move) const {
    if (s.hash != threats_hash_) {
        threats_hash_ = s.hash;
        their_threats_ = road_in_one_squares(s, opponent(s.side_to_move()));
    }
    int hint = policy_ ? static_cast<int>(std::lround(
                             policy_->logit(s, policy::Context{s.side_to_move(), their_threats_}, move) * 100))
                       : static_hint(s, move);
    if (their_threats_) {
        if (move.is_placement()) {
            if (their_threats_ & bit(move.square())) hint += 300;
        } else {
            const int last = move.square() + step_of(move.direction()) * move.squares_crossed();
            const Bitboard path = bit(last) | bit(move.square() + step_of(move.direction()));
            if (their_threats_ & path) hint += 150;
        }
    }
    return hint;
}

bool TakEvaluator::is_quiet(const State& s, const Move& move) const {
    if (move.is_placement()) return true;
    const int step = step_of(move.direction());
    Bitboard crossed = 0;
    for (int i = 1, square = move.square(); i <= move.squares_crossed(); ++i) crossed |= bit(square += step);
    return (crossed & (s.top_of(opponent(s.side_to_move())) | s.walls)) == 0;
}

int TakEvaluator::static_hint(const State& s, const Move& move) const {
    const Side us = s.side_to_move();
    const int square = move.square();
    const Bitboard here = bit(square);
    const Bitboard around = neighbours(here);
    const int own_around = popcount(around & s.road_squares(us));
    const int their_around = popcount(around & s.top_of(opponent(us)));
    if (move.is_placement()) {
        const int central = centrality.value[s.size][square];
        switch (move.stone()) {
            case Stone::flat:
                return 30 + 10 * own_around + central;
            case Stone::cap:
                return 10 + 12 * their_around + central;
            case Stone::wall:
                return -20 + 15 * their_around;
        }
    }
    // Spreads: prefer covering opponent tops and carrying a capstone.
    int hint = -10 + ((s.caps & here) ? 10 : 0);
    const int step = step_of(move.direction());
    int target = square;
    for (int i = 0; i < move.squares_crossed(); ++i) {
        target += step;
        if (s.top_of(opponent(us)) & bit(target)) hint += 15;
    }
    return hint;
}

}  // namespace bge::tak
