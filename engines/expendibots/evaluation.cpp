#include "engines/expendibots/evaluation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "engines/expendibots/nets/embedded.hpp"
#include "search/player.hpp"

namespace bge::expendibots {

namespace {

constexpr Bitboard centre_squares = 0x00003C3C3C3C0000ULL;  // x and y in 2..5
constexpr Bitboard corner_squares = bit(square_at(0, 0)) | bit(square_at(7, 0)) | bit(square_at(0, 7)) |
                                    bit(square_at(7, 7));
constexpr Bitboard not_column_0 = ~0x0101010101010101ULL;
constexpr Bitboard not_column_7 = ~0x8080808080808080ULL;

Bitboard orthogonal_grow(Bitboard b) {
    return b | (b << 8) | (b >> 8) | ((b << 1) & not_column_0) | ((b >> 1) & not_column_7);
}

Bitboard cluster_of(Bitboard seed, Bitboard occupied) {
    Bitboard area = seed;
    while (true) {
        const Bitboard grown = (area | king_neighbours(area)) & occupied;
        if (grown == area) return area;
        area = grown;
    }
}

double clamp01(double x) { return std::clamp(x, 0.0, 1.0); }

}  // namespace

int closest_distance(Bitboard from, Bitboard to) {
    if (!from || !to) return 0;
    int distance = 0;
    while (!(from & to)) {
        from = orthogonal_grow(from);
        ++distance;
    }
    return distance;
}

void EvalFeatures::compute(const State& s, Side perspective, Vector& phi) {
    const Bitboard own = s.stacks_of(perspective);
    const Bitboard enemy = s.stacks_of(opponent(perspective));
    const int own_tokens = s.tokens[index_of(perspective)];
    const int enemy_tokens = s.tokens[index_of(opponent(perspective))];
    constexpr double per_token = 1.0 / tokens_per_side;

    phi[0] = own_tokens * per_token;
    phi[1] = enemy_tokens * per_token;
    phi[2] = tokens_on(s, own & centre_squares) * per_token;
    phi[3] = tokens_on(s, enemy & centre_squares) * per_token;
    phi[4] = tokens_on(s, own & corner_squares) * per_token;
    phi[5] = tokens_on(s, enemy & corner_squares) * per_token;
    const double closeness = own && enemy ? (14 - closest_distance(own, enemy)) / 14.0 : 0.0;
    phi[6] = closeness;
    phi[7] = closeness * (own_tokens - enemy_tokens) * per_token;

    // Clusters: the 8-connected groups of stacks an explosion would take together.
    int own_exposed = 0, enemy_exposed = 0, own_cluster = 0, enemy_cluster = 0;
    const Bitboard occupied = own | enemy;
    for (Bitboard rest = occupied; rest;) {
        const Bitboard cluster = cluster_of(rest & (~rest + 1), occupied);
        rest &= ~cluster;
        const int own_here = tokens_on(s, cluster & own);
        const int enemy_here = tokens_on(s, cluster & enemy);
        own_cluster = std::max(own_cluster, own_here);
        enemy_cluster = std::max(enemy_cluster, enemy_here);
        if (own_here && enemy_here) {
            own_exposed = std::max(own_exposed, own_here);
            enemy_exposed = std::max(enemy_exposed, enemy_here);
        }
    }
    phi[8] = own_exposed * per_token;
    phi[9] = enemy_exposed * per_token;
    phi[10] = own_cluster * per_token;
    phi[11] = enemy_cluster * per_token;
    phi[12] = s.to_move == perspective ? 1.0 : 0.0;
}

PhaseBlend phase_blend(const State& s) {
    const int tokens = s.tokens[0] + s.tokens[1];
    const double opening = clamp01((24.0 - s.actions) / 24.0) * clamp01((tokens - 16) / 8.0);
    const double endgame = clamp01((14.0 - tokens) / 8.0);
    return {opening, std::max(0.0, 1.0 - opening - endgame), endgame};
}

Phase dominant_phase(const State& s) {
    const PhaseBlend blend = phase_blend(s);
    return static_cast<Phase>(std::max_element(blend.begin(), blend.end()) - blend.begin());
}

double linear_value(const EvalWeights& weights, const State& s, Side perspective, EvalFeatures::Vector* phi_out,
                    PhaseBlend* blend_out) {
    EvalFeatures::Vector phi;
    EvalFeatures::compute(s, perspective, phi);
    const PhaseBlend blend = phase_blend(s);
    double value = 0;
    for (std::size_t p = 0; p < phase_count; ++p) {
        if (blend[p] == 0) continue;
        double sum = 0;
        for (std::size_t i = 0; i < EvalFeatures::count; ++i) sum += weights.by_phase[p][i] * phi[i];
        value += blend[p] * sum;
    }
    if (phi_out) *phi_out = phi;
    if (blend_out) *blend_out = blend;
    return value;
}

EvalWeights initial_weights() {
    // own, enemy, own/enemy centre, own/enemy corners, closeness, hunt, own/enemy exposed,
    // own/enemy cluster, to move. An enemy token weighs more than an own one: trades are welcome.
    const EvalFeatures::Vector opening = {1.0, -1.3, 0.15, -0.15, -0.1, 0.1, 0.1, 0.3, -0.6, 0.4, -0.1, 0.1, 0.05};
    const EvalFeatures::Vector middlegame = {1.0, -1.3, 0.1, -0.1, -0.1, 0.1, 0.05, 0.5, -0.6, 0.4, -0.1, 0.1, 0.05};
    const EvalFeatures::Vector endgame = {1.0, -1.3, 0.05, -0.05, -0.1, 0.1, 0.0, 1.0, -0.6, 0.4, -0.1, 0.1, 0.05};
    EvalWeights weights;
    weights.by_phase = {opening, middlegame, endgame};
    return weights;
}

BlastCount blast_count(const State& s, int square) {
    const Bitboard area = blast_area(s, square);
    BlastCount count;
    count.own = tokens_on(s, area & s.stacks_of(s.to_move));
    count.enemy = tokens_on(s, area & s.stacks_of(opponent(s.to_move)));
    return count;
}

// ---------------------------------------------------------------------------------------------
// The evaluator.

int Evaluator::evaluate(const State& s) const {
    const double value = linear_value(*weights_, s, perspective_);
    const double limit = search::win_threshold - 1;
    const int score = static_cast<int>(std::lround(std::clamp(value * centi_per_unit, -limit, limit)));
    return s.to_move == perspective_ ? score : -score;
}

int Evaluator::order_hint(const State& s, const Move& move) const {
    if (move.is_boom()) {
        const BlastCount blast = blast_count(s, move.from());
        if (blast.enemy == 0) return -1000 - blast.own;
        return 500 + 20 * blast.enemy - 10 * blast.own;
    }
    // Whole stacks before splits: fewer, more decisive moves first.
    return move.count() == s.height[move.from()] ? 1 : 0;
}

void Evaluator::noisy_moves(const State& s, MoveList<Expendibots>& moves) const {
    moves.clear();
    if (!quiescence_ || s.last_destroyed > 0) return;
    const Bitboard enemy = s.stacks_of(opponent(s.to_move));
    for (Bitboard b = s.stacks_of(s.to_move); b; b &= b - 1) {
        const int square = std::countr_zero(b);
        // A blast reaches the enemy only through a cluster that touches it.
        if (!(king_neighbours(bit(square)) & s.occupied())) continue;
        if (blast_area(s, square) & enemy) moves.push_back(Move::boom(square));
    }
}

bool Evaluator::null_move_allowed(const State& s) const { return s.tokens[0] > 4 && s.tokens[1] > 4; }

// ---------------------------------------------------------------------------------------------
// Weights files.

namespace {
constexpr std::string_view weights_header = "bge-expendibots-weights 1";
}

std::string format_weights(const EvalWeights& weights, std::string_view comment) {
    std::string text = std::string(weights_header) + "\n";
    std::istringstream lines{std::string(comment)};
    for (std::string line; std::getline(lines, line);) text += "# " + line + "\n";
    for (std::size_t p = 0; p < phase_count; ++p)
        for (std::size_t i = 0; i < EvalFeatures::count; ++i)
            text += fmt::format("{} {} {:.17g}\n", phase_names[p], EvalFeatures::names[i], weights.by_phase[p][i]);
    return text;
}

Expected<EvalWeights> parse_weights(std::string_view text) {
    std::istringstream lines{std::string(text)};
    std::string line;
    int number = 0;
    bool header_seen = false;
    EvalWeights weights;
    std::array<std::array<bool, EvalFeatures::count>, phase_count> seen{};
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
        std::string phase, feature, value_text, extra;
        words >> phase >> feature >> value_text;
        if (value_text.empty() || (words >> extra))
            return make_error(fmt::format("line {}: expected '<phase> <feature> <value>'", number));
        const auto p = std::find(phase_names.begin(), phase_names.end(), phase) - phase_names.begin();
        if (p == static_cast<long>(phase_count))
            return make_error(fmt::format("line {}: unknown phase '{}' (opening, middlegame, endgame)", number, phase));
        const auto i =
            std::find(EvalFeatures::names.begin(), EvalFeatures::names.end(), feature) - EvalFeatures::names.begin();
        if (i == static_cast<long>(EvalFeatures::count))
            return make_error(fmt::format("line {}: unknown feature '{}'", number, feature));
        char* end = nullptr;
        const double value = std::strtod(value_text.c_str(), &end);
        if (end != value_text.c_str() + value_text.size() || !std::isfinite(value))
            return make_error(fmt::format("line {}: '{}' is not a number", number, value_text));
        weights.by_phase[p][i] = value;
        seen[p][i] = true;
    }
    if (!header_seen) return make_error(fmt::format("not a weights file: no '{}' line", weights_header));
    for (std::size_t p = 0; p < phase_count; ++p)
        for (std::size_t i = 0; i < EvalFeatures::count; ++i)
            if (!seen[p][i])
                return make_error(
                    fmt::format("no weight for {} {}", phase_names[p], EvalFeatures::names[i]));
    return weights;
}

Expected<EvalWeights> load_weights(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return make_error(fmt::format("cannot open {}", path));
    std::stringstream buffer;
    buffer << file.rdbuf();
    auto weights = parse_weights(buffer.str());
    if (!weights) return make_error(fmt::format("{}: {}", path, weights.error()));
    return weights;
}

const EvalWeights& builtin_weights() {
    // tests/expendibots_search_test.cpp parses the shipped file.
    static const EvalWeights weights =
        parse_builtin_file("expendibots", nets::embedded_files(), builtin_weights_file, parse_weights);
    return weights;
}

}  // namespace bge::expendibots
