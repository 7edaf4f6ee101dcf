#include "engines/tak/policy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "core/tak/bitboard.hpp"
#include "engines/tak/nets/embedded.hpp"
#include "engines/tak/roads.hpp"
#include "search/learning/named_weights.hpp"

namespace bge::tak::policy {

namespace {

struct Block {
    const char* name;
    int size;
};
// The feature blocks, in index order (policy.hpp describes them).
enum BlockId {
    p_kind, p_kind_ring, p_own_neighbours, p_their_neighbours, p_own_line, p_their_line, p_blocks_threat,
    p_opening_ring, s_carry, s_crossed, s_top_kind, s_flattens, s_capture, s_self_cover, s_give, s_onto_empty,
    s_uncover, s_net_tops, s_ring_from, s_ring_to, s_answers_threat, context_threat, block_count
};
constexpr Block blocks[block_count] = {
    {"p_kind", 3},           {"p_kind_ring", 12},    {"p_own_neighbours", 15}, {"p_their_neighbours", 15},
    {"p_own_line", 18},      {"p_their_line", 18},   {"p_blocks_threat", 3},   {"p_opening_ring", 4},
    {"s_carry", 8},          {"s_crossed", 8},       {"s_top_kind", 3},        {"s_flattens", 1},
    {"s_capture", 8},        {"s_self_cover", 8},    {"s_give", 8},            {"s_onto_empty", 8},
    {"s_uncover", 3},        {"s_net_tops", 9},      {"s_ring_from", 4},       {"s_ring_to", 4},
    {"s_answers_threat", 1}, {"context_threat", 2},
};
constexpr std::array<int, block_count + 1> offsets = [] {
    std::array<int, block_count + 1> o{};
    for (int b = 0; b < block_count; ++b) o[b + 1] = o[b] + blocks[b].size;
    return o;
}();

int ring(int square, int size) {
    const int c = column_of(square), r = row_of(square);
    return std::min({c, r, size - 1 - c, size - 1 - r, 3});
}

Bitboard line_through(int square, const Geometry& g) {
    const Bitboard row = Bitboard{0xFF} << (stride * row_of(square));
    const Bitboard column = Bitboard{0x0101010101010101ULL} << column_of(square);
    return (row | column) & g.board & ~bit(square);
}

template <class Add>
void for_each_feature(const State& s, const Context& context, Move move, Add&& add) {
    auto feature = [&](BlockId block, int i) { add(offsets[block] + i); };
    const int size = s.size;
    const int square = move.square();
    const Side us = context.us;
    const Bitboard ours = s.top_of(us), theirs = s.top_of(opponent(us));
    if (move.is_placement()) {
        if (s.in_opening()) {
            feature(p_opening_ring, ring(square, size));
            return;
        }
        const int kind = static_cast<int>(move.stone());
        const Bitboard around = neighbours(bit(square));
        const Bitboard line = line_through(square, geometry(size));
        feature(p_kind, kind);
        feature(p_kind_ring, kind * 4 + ring(square, size));
        feature(p_own_neighbours, kind * 5 + popcount(around & s.road_squares(us)));
        feature(p_their_neighbours, kind * 5 + popcount(around & theirs));
        feature(p_own_line, kind * 6 + std::min(5, popcount(line & s.road_squares(us))));
        feature(p_their_line, kind * 6 + std::min(5, popcount(line & theirs)));
        if (context.their_threats & bit(square)) feature(p_blocks_threat, kind);
        if (context.their_threats) feature(context_threat, 0);
        return;
    }
    const int height = s.height[square];
    const int carry = move.carry();
    const int step = step_of(move.direction());
    const unsigned mine = us == Side::second ? 1u : 0u;
    auto colour = [&](int index) { return static_cast<unsigned>((s.stack_colors[square] >> index) & 1); };
    const std::uint8_t pattern = move.pattern();
    int captures = 0, self_covers = 0, gives = 0, onto_empty = 0, net = 0, target = square;
    bool answers = false;
    for (int i = 0; i < carry; ++i) {
        if (!((pattern >> i) & 1)) continue;
        target += step;
        const bool ours_on_top = colour(height - carry + i) == mine;
        const Bitboard here = bit(target);
        const int before = (ours & here) ? 1 : (theirs & here) ? -1 : 0;
        if (before == 0) ++onto_empty;
        if (ours_on_top) {
            if (before < 0) ++captures;
            if (before > 0) ++self_covers;
            if (context.their_threats & here) answers = true;
        } else {
            ++gives;
        }
        net += (ours_on_top ? 1 : -1) - before;
    }
    // The start square: ours before; afterwards empty, ours or theirs.
    const int uncovered = carry == height ? 0 : colour(height - carry - 1) == mine ? 1 : 2;
    net += (uncovered == 0 ? 0 : uncovered == 1 ? 1 : -1) - 1;
    feature(s_carry, std::min(carry, 8) - 1);
    feature(s_crossed, std::min(move.squares_crossed(), 8) - 1);
    feature(s_top_kind, static_cast<int>(s.top_stone(square)));
    if (flattens_wall(s, move)) feature(s_flattens, 0);
    feature(s_capture, std::min(captures, 7));
    feature(s_self_cover, std::min(self_covers, 7));
    feature(s_give, std::min(gives, 7));
    feature(s_onto_empty, std::min(onto_empty, 7));
    feature(s_uncover, uncovered);
    feature(s_net_tops, std::clamp(net, -4, 4) + 4);
    feature(s_ring_from, ring(square, size));
    feature(s_ring_to, ring(target, size));
    if (answers) feature(s_answers_threat, 0);
    if (context.their_threats) feature(context_threat, 1);
}

constexpr std::string_view header = "bge-tak-policy 1";

}  // namespace

int feature_count() { return offsets[block_count]; }

std::string feature_name(int index) {
    for (int b = 0; b < block_count; ++b)
        if (index < offsets[b + 1]) return fmt::format("{}[{}]", blocks[b].name, index - offsets[b]);
    return "?";
}

Context context_of(const State& state) {
    return {state.side_to_move(), road_in_one_squares(state, opponent(state.side_to_move()))};
}

void move_features(const State& state, const Context& context, Move move, std::vector<std::uint16_t>& out) {
    out.clear();
    for_each_feature(state, context, move, [&](int index) { out.push_back(static_cast<std::uint16_t>(index)); });
}

float Policy::logit(const State& state, const Context& context, Move move) const {
    float sum = 0;
    for_each_feature(state, context, move, [&](int index) { sum += weights_[static_cast<std::size_t>(index)]; });
    return sum;
}

namespace {
std::vector<std::string> feature_names() {
    std::vector<std::string> names;
    for (int i = 0; i < feature_count(); ++i) names.push_back(feature_name(i));
    return names;
}
}  // namespace

Expected<Policy> Policy::parse(std::string_view text) {
    auto weights = search::learning::parse_named_weights(text, header, feature_names(), "policy");
    if (!weights) return make_error(weights.error());
    return Policy(std::move(*weights));
}

Expected<Policy> Policy::load(const std::string& path) {
    auto weights = search::learning::load_named_weights(path, header, feature_names(), "policy");
    if (!weights) return make_error(weights.error());
    return Policy(std::move(*weights));
}

std::string Policy::format(std::string_view comment) const {
    return search::learning::format_named_weights(header, comment, feature_names(), weights_);
}

std::shared_ptr<const Policy> Policy::builtin() {
    static const std::shared_ptr<const Policy> policy = []() -> std::shared_ptr<const Policy> {
        if (auto parsed = parse(find_embedded_file(nets::embedded_files(), "policy.txt"))) return std::make_shared<Policy>(std::move(*parsed));
        return nullptr;
    }();
    return policy;
}

}  // namespace bge::tak::policy
