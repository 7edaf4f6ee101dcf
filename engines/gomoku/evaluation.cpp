#include "engines/gomoku/evaluation.hpp"

#include "engines/gomoku/nets/embedded.hpp"
#include "engines/gomoku/network.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

namespace bge::gomoku {

namespace {

struct ThreatCount {
    int fives = 0;
    bool open_four = false;
    bool four = false;
};

// From the incremental counts: a cell that makes five or a four lies next to a stone, so these
// equal a scan of the cells near stones.
ThreatCount count_threats(const SearchBoard& b, Side side) {
    const auto& counts = b.threat_count[static_cast<std::size_t>(index_of(side))];
    ThreatCount count;
    count.fives = counts[threat_five];
    count.open_four = counts[threat_flex4] > 0;
    count.four = count.fives > 0 || count.open_four || counts[threat_four] > 0 || counts[threat_four_three] > 0 ||
                 counts[threat_double_four] > 0;
    return count;
}

}  // namespace

std::optional<int> GomokuEvaluator::threat_score(const SearchBoard& b) const {
    const Side me = b.side_to_move();
    const ThreatCount mine = count_threats(b, me);
    if (mine.fives) return weights_.win_in_one;
    const ThreatCount theirs = count_threats(b, opponent(me));
    if (theirs.fives >= 2) return weights_.facing_two_fives;
    if (theirs.fives == 1) {
        // Under renju Black cannot block on a forbidden cell: White's four there is won.
        int block = 0;
        if (b.rules.rule == Rule::renju && me == Side::first && five_cells(b, opponent(me), &block, 1) == 1 &&
            is_forbidden(b.rules, block))
            return weights_.facing_two_fives;
        return weights_.facing_five;
    }
    // Black's open four may be a forbidden double four under renju; the search will see.
    if (mine.open_four && !(b.rules.rule == Rule::renju && me == Side::first)) return weights_.open_four;
    return std::nullopt;
}

int GomokuEvaluator::evaluate(const SearchBoard& b) const {
    if (const auto decided = threat_score(b)) return *decided;
    const Side me = b.side_to_move();
    const Side them = opponent(me);
    if (b.network) {
        const long score = std::lround(b.network_logit() * network::centi_units_per_logit);
        return static_cast<int>(std::clamp(score, -9000L, 9000L));  // below the decisive threat scores
    }
    if (const FittedWeights* fitted = fitted_[static_cast<std::size_t>(b.rules.rule)]) {
        int score = 0;
        for (int view = 0; view < 2; ++view) {
            const auto side = static_cast<std::size_t>(index_of(view == 0 ? me : them));
            const int* w = fitted->weight.data() + view * 15;
            for (int p = 1; p <= 8; ++p) score += w[p - 1] * b.pattern_count[side][static_cast<std::size_t>(p)];
            for (int t = 1; t <= 7; ++t) score += w[7 + t] * b.threat_count[side][static_cast<std::size_t>(t)];
            score += fitted->weight[static_cast<std::size_t>(30 + view)] * (b.value_sum[side] / 8);
            const int* shapes = fitted->weight.data() + eval_classic_feature_count + view * eval_shape_classes;
            for (int c = 1; c < cell_class_count; ++c) score += shapes[c - 1] * b.class_count[side][static_cast<std::size_t>(c)];
        }
        return std::clamp(score / eval_weight_scale, -9000, 9000);  // below the decisive threat scores above
    }
    const int own = b.value_sum[index_of(me)];
    const int other = b.value_sum[index_of(them)];
    return own + own * weights_.tempo / 100 - other;
}

void eval_features(const SearchBoard& b, EvalFeatures& features) {
    const Side me = b.side_to_move();
    for (int view = 0; view < 2; ++view) {
        const auto side = static_cast<std::size_t>(index_of(view == 0 ? me : opponent(me)));
        int* x = features.data() + view * 15;
        for (int p = 1; p <= 8; ++p) x[p - 1] = b.pattern_count[side][static_cast<std::size_t>(p)];
        for (int t = 1; t <= 7; ++t) x[7 + t] = b.threat_count[side][static_cast<std::size_t>(t)];
        features[static_cast<std::size_t>(30 + view)] = b.value_sum[side] / 8;
        int* shapes = features.data() + eval_classic_feature_count + view * eval_shape_classes;
        for (int c = 1; c < cell_class_count; ++c) shapes[c - 1] = b.class_count[side][static_cast<std::size_t>(c)];
    }
}

std::string eval_feature_name(int index) {
    static constexpr const char* patterns[] = {"one", "two", "flex2", "three", "flex3", "four", "flex4", "five"};
    static constexpr const char* threats[] = {"threat_flex3",        "threat_four",       "threat_double_three",
                                              "threat_four_three",   "threat_double_four", "threat_flex4",
                                              "threat_five"};
    if (index == 30) return "mover_value_sum";
    if (index == 31) return "opponent_value_sum";
    if (index >= eval_classic_feature_count) {
        // mover_cell_flex3_two: the mover's empty cells whose two strongest patterns are those.
        static constexpr const char* all_patterns[] = {"dead",  "one",  "two",   "flex2", "three",
                                                       "flex3", "four", "flex4", "five"};
        const int shape = index - eval_classic_feature_count;
        const int cell_class = shape % eval_shape_classes + 1;
        for (int strongest = 2; strongest <= 8; ++strongest)
            for (int second = 0; second <= strongest; ++second)
                if (cell_class_of(strongest, second) == cell_class)
                    return std::string(shape < eval_shape_classes ? "mover" : "opponent") + "_cell_" +
                           all_patterns[strongest] + "_" + all_patterns[second];
    }
    const std::string view = index < 15 ? "mover_" : "opponent_";
    const int i = index % 15;
    return view + (i < 8 ? patterns[i] : threats[i - 8]);
}

Expected<FittedWeights> parse_fitted_weights(std::string_view text, std::string_view origin) {
    std::istringstream lines{std::string(text)};
    FittedWeights weights;
    std::array<bool, eval_feature_count> seen{};
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) {
        ++number;
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream words(line);
        std::string name;
        if (!(words >> name)) continue;
        long long value = 0;
        std::string rest;
        if (!(words >> value) || (words >> rest) || value < -100'000'000 || value > 100'000'000)
            return make_error(fmt::format("{} line {}: expected 'name value' with an integer value", origin, number));
        int index = -1;
        for (int i = 0; i < eval_feature_count; ++i)
            if (eval_feature_name(i) == name) index = i;
        if (index < 0) return make_error(fmt::format("{} line {}: unknown feature '{}'", origin, number, name));
        weights.weight[static_cast<std::size_t>(index)] = static_cast<int>(value);
        seen[static_cast<std::size_t>(index)] = true;
    }
    for (int i = 0; i < eval_feature_count; ++i)
        if (!seen[static_cast<std::size_t>(i)])
            return make_error(fmt::format("{}: no weight for '{}'", origin, eval_feature_name(i)));
    return weights;
}

Expected<FittedWeights> load_fitted_weights(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return make_error("cannot open the weights file '" + path + "'");
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    return parse_fitted_weights(text, path);
}

const FittedWeights* builtin_fitted_weights(Rule rule) {
    static const std::array<std::optional<FittedWeights>, 3> shipped = [] {
        std::array<std::optional<FittedWeights>, 3> loaded;
        for (const auto& file : nets::embedded_files()) {
            if (!file.name.ends_with(".eval")) continue;
            // A shipped file that does not load is a build defect; tests check every one.
            const auto for_rule = parse_rule(file.name.substr(0, file.name.size() - 5));
            auto parsed = parse_fitted_weights(file.bytes, file.name);
            if (for_rule && parsed) loaded[static_cast<std::size_t>(*for_rule)] = *parsed;
        }
        return loaded;
    }();
    const auto& weights = shipped[static_cast<std::size_t>(rule)];
    return weights ? &*weights : nullptr;
}

std::optional<search::ForcedWin<Move>> GomokuEvaluator::forced_win(SearchBoard& b) {
    if (threat_nodes_ == 0 || b.rules.result != Result::ongoing) return std::nullopt;
    // A threat search needs a three to extend or a four to make; most nodes have neither.
    const auto& mine = b.threat_count[static_cast<std::size_t>(index_of(b.side_to_move()))];
    bool any = false;
    for (int t = threat_flex3; t <= threat_five; ++t) any = any || mine[static_cast<std::size_t>(t)] > 0;
    if (!any) return std::nullopt;
    ThreatLimits limits;
    limits.nodes = threat_nodes_;
    const VcfResult found = vct_.search_remembering(b, threat_threes_, limits);
    if (!found.first) return std::nullopt;
    return search::ForcedWin<Move>{*found.first, static_cast<int>(found.line.size())};
}

bool GomokuEvaluator::null_move_allowed(const SearchBoard& b) const {
    for (const auto& counts : b.threat_count)
        for (int t = threat_flex3; t <= threat_five; ++t)
            if (counts[static_cast<std::size_t>(t)] > 0) return false;
    return true;
}

bool GomokuEvaluator::is_quiet(const SearchBoard& b, const Move& move) const {
    const Side me = b.side_to_move();
    const std::size_t square = move.square;
    return b.threat[static_cast<std::size_t>(index_of(me))][square] == no_threat &&
           b.threat[static_cast<std::size_t>(index_of(opponent(me)))][square] == no_threat;
}

int GomokuEvaluator::order_hint(const SearchBoard& b, const Move& move) const {
    if (policy_) return static_cast<int>(std::lround(policy_->logit(b, move.square) * 100));
    const Side me = b.side_to_move();
    const std::size_t square = move.square;
    return b.value[static_cast<std::size_t>(index_of(me))][square] * 2 +
           b.value[static_cast<std::size_t>(index_of(opponent(me)))][square];
}

void GomokuEvaluator::noisy_moves(const SearchBoard& b, MoveList<GomokuSearch>& moves) const {
    moves.clear();
    const Side me = b.side_to_move();
    const auto& mine = b.threat[static_cast<std::size_t>(index_of(me))];
    const auto& theirs = b.threat[static_cast<std::size_t>(index_of(opponent(me)))];
    if (b.rules.result != Result::ongoing) return;
    // Nothing to try unless someone has a five to make or the mover a four (counts, no scan).
    const ThreatCount own = count_threats(b, me);
    if (!own.four && count_threats(b, opponent(me)).fives == 0) return;
    MoveList<GomokuSearch> fours;
    bool their_five = false;
    for (int y = 0; y < b.rules.height; ++y) {
        const int row = square_at(0, y);
        for (int x = 0; x < b.rules.width; ++x) {
            const int square = row + x;
            if (!b.near[static_cast<std::size_t>(square)] || b.rules.cells[static_cast<std::size_t>(square)] != empty)
                continue;
            const Move move{static_cast<std::uint16_t>(square)};
            if (mine[static_cast<std::size_t>(square)] == threat_five) {
                moves.clear();
                moves.push_back(move);
                return;
            }
            if (theirs[static_cast<std::size_t>(square)] == threat_five) {
                if (!their_five) moves.clear();
                their_five = true;
                moves.push_back(move);
            }
            const Threat t = static_cast<Threat>(mine[static_cast<std::size_t>(square)]);
            if (!their_five && t >= threat_four && t != threat_double_three) fours.push_back(move);
        }
    }
    if (their_five) return;
    std::sort(fours.begin(), fours.end(),
              [&](const Move& a, const Move& c) { return order_hint(b, a) > order_hint(b, c); });
    for (const Move& move : fours) {
        if (static_cast<int>(moves.size()) >= weights_.max_quiescence_fours) break;
        moves.push_back(move);
    }
}

}  // namespace bge::gomoku
