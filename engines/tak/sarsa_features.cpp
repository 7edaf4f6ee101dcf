#include "engines/tak/sarsa_features.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/tak/bitboard.hpp"
#include "engines/tak/evaluation.hpp"
#include "engines/tak/nets/embedded.hpp"

namespace bge::tak {

namespace {

// Rows or columns a group covers, whichever is more.
int span_of(Bitboard group) {
    int min_row = max_size, max_row = -1, min_column = max_size, max_column = -1;
    for (Bitboard b = group; b; b &= b - 1) {
        const int square = lowest_square(b);
        min_row = std::min(min_row, row_of(square));
        max_row = std::max(max_row, row_of(square));
        min_column = std::min(min_column, column_of(square));
        max_column = std::max(max_column, column_of(square));
    }
    return std::max(max_row - min_row, max_column - min_column) + 1;
}

int widest_group(const State& state, Side side) {
    int widest = 0;
    for (Bitboard left = state.road_squares(side); left;) {
        const Bitboard group = flood(left & (~left + 1), left);
        left &= ~group;
        widest = std::max(widest, span_of(group));
    }
    return widest;
}

int pieces_under(const State& state, Bitboard tops) {
    int pieces = 0;
    for (Bitboard b = tops; b; b &= b - 1) pieces += state.height[lowest_square(b)] - 1;
    return pieces;
}

}  // namespace

void TakSarsaFeatures::compute(const State& s, const Move& move, Side mover, Vector& phi) {
    const Side them = opponent(mover);
    const double n = s.size;
    const Outcome outcome = tak::outcome(s);
    const Geometry& g = geometry(s.size);

    const double komi = (mover == Side::second ? 0.5 : -0.5) * s.half_komi;
    const double flat_lead = (flat_count(s, mover) - flat_count(s, them) + komi) / n;
    const Reserves start = reserves_for(s.size);
    const double start_pieces = start.stones + start.caps;
    const double filled = popcount(s.occupied() & g.board) / (n * n);
    const double spent = 1.0 - std::min(pieces_left(s, Side::first), pieces_left(s, Side::second)) / start_pieces;
    const double endgame = std::max(filled, spent);
    const int own_threats = popcount(TakEvaluator::road_in_one_squares(s, mover));
    const int their_threats = popcount(TakEvaluator::road_in_one_squares(s, them));

    phi[0] = 1.0;
    phi[1] = outcome.is_win_for(mover) ? 1.0 : 0.0;
    phi[2] = outcome.is_win_for(them) ? 1.0 : 0.0;
    phi[3] = flat_lead;
    phi[4] = flat_lead * endgame * endgame;
    phi[5] = widest_group(s, mover) / n;
    phi[6] = widest_group(s, them) / n;
    phi[7] = own_threats >= 1 ? 1.0 : 0.0;
    phi[8] = own_threats >= 2 ? 1.0 : 0.0;
    phi[9] = their_threats >= 1 ? 1.0 : 0.0;
    phi[10] = (pieces_under(s, s.top_of(mover)) - pieces_under(s, s.top_of(them))) / n;
    phi[11] = (pieces_left(s, mover) - pieces_left(s, them)) / start_pieces;
    phi[12] = (popcount(s.top_of(mover) & s.caps) - popcount(s.top_of(them) & s.caps)) / 2.0;
    phi[13] = (popcount(s.top_of(mover) & s.walls) - popcount(s.top_of(them) & s.walls)) / n;
    const bool placement = move.is_placement();
    phi[14] = placement && move.stone() == Stone::flat ? 1.0 : 0.0;
    phi[15] = placement && move.stone() == Stone::wall ? 1.0 : 0.0;
    phi[16] = placement && move.stone() == Stone::cap ? 1.0 : 0.0;
    phi[17] = placement ? 0.0 : 1.0;
}

namespace {

constexpr std::string_view weights_header = "bge-tak-sarsa-weights 1";

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
    return text;
}

std::string comment_lines(std::string_view comment, std::string_view prefix) {
    std::string text;
    std::size_t start = 0;
    while (start < comment.size()) {
        std::size_t end = comment.find('\n', start);
        if (end == std::string_view::npos) end = comment.size();
        text += fmt::format("{}{}\n", prefix, comment.substr(start, end - start));
        start = end + 1;
    }
    return text;
}

}  // namespace

std::string format_sarsa_weights(const SarsaWeights& weights, std::string_view comment) {
    std::string text = std::string(weights_header) + "\n";
    text += comment_lines(comment, "# ");
    for (std::size_t i = 0; i < TakSarsaFeatures::count; ++i)
        text += fmt::format("{} {:.17g}\n", TakSarsaFeatures::names[i], weights.weights[i]);
    return text;
}

Expected<SarsaWeights> parse_sarsa_weights(std::string_view text) {
    SarsaWeights weights;
    std::size_t next_feature = 0;
    bool header_seen = false;
    int line_number = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = trim(text.substr(start, end - start));
        start = end + 1;
        ++line_number;
        if (line.empty() || line.front() == '#') {
            if (end == text.size()) break;
            continue;
        }
        if (!header_seen) {
            if (line != weights_header)
                return make_error(
                    fmt::format("line {}: expected '{}', got '{}'", line_number, weights_header, line.substr(0, 60)));
            header_seen = true;
        } else {
            if (next_feature == TakSarsaFeatures::count)
                return make_error(
                    fmt::format("line {}: more lines than the {} features", line_number, TakSarsaFeatures::count));
            const std::size_t space = line.find_first_of(" \t");
            const std::string_view name = line.substr(0, space);
            const std::string_view expected = TakSarsaFeatures::names[next_feature];
            if (name != expected)
                return make_error(
                    fmt::format("line {}: expected feature '{}', got '{}'", line_number, expected, name.substr(0, 60)));
            const std::string value(space == std::string_view::npos ? std::string_view{} : trim(line.substr(space)));
            char* stop = nullptr;
            errno = 0;
            const double number = value.empty() ? NAN : std::strtod(value.c_str(), &stop);
            if (value.empty() || errno != 0 || *stop != '\0' || !std::isfinite(number))
                return make_error(fmt::format("line {}: feature '{}' needs a finite number, got '{}'", line_number,
                                              expected, value.substr(0, 60)));
            weights.weights[next_feature++] = number;
        }
        if (end == text.size()) break;
    }
    if (!header_seen) return make_error(fmt::format("not a weights file: no '{}' line", weights_header));
    if (next_feature != TakSarsaFeatures::count)
        return make_error(fmt::format("only {} of the {} features (next: '{}')", next_feature, TakSarsaFeatures::count,
                                      TakSarsaFeatures::names[next_feature]));
    return weights;
}

Expected<SarsaWeights> load_sarsa_weights(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return make_error(fmt::format("cannot read '{}'", path));
    std::ostringstream content;
    content << file.rdbuf();
    auto weights = parse_sarsa_weights(content.str());
    if (!weights) return make_error(fmt::format("'{}': {}", path, weights.error()));
    return weights;
}

const SarsaWeights& builtin_sarsa_weights() {
    // tests/tak_study_players_test.cpp parses the shipped file.
    static const SarsaWeights weights =
        parse_builtin_file("tak", nets::embedded_files(), builtin_sarsa_file, parse_sarsa_weights);
    return weights;
}

}  // namespace bge::tak
