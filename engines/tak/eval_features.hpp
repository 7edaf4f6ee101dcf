#pragma once
// The features of the Tak evaluation: what Tak players count, as numbers a linear model can weigh.
//
// Every feature is seen from the side to move ("us") against the other side ("them"), so one set
// of weights serves both colours. The model is linear in the features, with two weights per
// feature, one for the opening and one for the endgame, blended by the game phase:
//
//     eval = sum_i f_i * ((256 - phase) * opening_i + phase * endgame_i) / 256
//
// The evaluator (evaluation.cpp) and the trainer (tools/train/train_tak_eval.cpp) both call
// extract() with their own sink, so the features are written once: the evaluator's sink adds up
// weights, the trainer's keeps the (index, value) pairs. docs/tak.md lists the features.

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/tak/bitboard.hpp"
#include "core/tak/tak.hpp"
#include "engines/tak/roads.hpp"

namespace bge::tak::features {

// A named run of feature indices.
struct Block {
    std::string_view name;
    int size;
};

// The blocks in index order. "psqt" blocks have one feature per square class (the squares the
// board's eight symmetries map onto each other: 10 classes on 7x7 and 8x8, 6 on 5x5 and 6x6).
// clang-format off
enum BlockId : int {
    flat_psqt_us, flat_psqt_them,            // top flats by square class
    wall_psqt_us, wall_psqt_them,            // walls by square class
    cap_psqt_us, cap_psqt_them,              // capstones by square class
    supports_us, supports_them,              // own pieces under an own top within the carry limit, by top (flat, wall, cap)
    captives_us, captives_them,              // opponent pieces under an own top within the carry limit, by top
    deep_us, deep_them,                      // pieces below the carry limit: [0] own, [1] captives
    stack_reach_us, stack_reach_them,        // supports times the squares a stack can reach, / 4
    stack_pressure_us, stack_pressure_them,  // height of own flat-topped stacks next to opponent tops: by flat, wall, cap
    hard_cap_us, hard_cap_them,              // capstones on an own piece [0], on an opponent piece [1]
    cap_contact_us, cap_contact_them,        // around a capstone: opponent walls [0], opponent flats [1], own road pieces [2]
    reserves_us, reserves_them,              // stones and capstones left
    flat_lead,                               // flats on top, ours minus theirs, in half flats with komi
    flat_race,                               // the flat lead when the game can end within k placements, k = 1..4
    race_sign,                               // the sign of that lead, same k
    komi,                                    // komi in half flats, + when it is ours
    spans_us, spans_them,                    // groups by the rows or columns they cover (1..8)
    groups_us, groups_them,                  // number of groups of road pieces
    distance_us, distance_them,              // one-hot: fewest placements to a road (1..5, 6 = further)
    axis_distance_us, axis_distance_them,    // the same per axis, both axes counted
    threats_them,                            // their road-in-one squares: 1, 2, 3 or more
    lines_us, lines_them,                    // rows and columns by own road pieces (0..8) and blockers (none, soft, hard)
    liberties_us, liberties_them,            // empty squares next to own road pieces
    tempo,                                   // 1: the side to move places next
    race_control,                            // the lead x 16 / the placements the leader needs to end the game: [0] ours, [1] theirs
    block_count
};

constexpr std::array<Block, block_count> blocks = {{
    {"flat_psqt_us", 10}, {"flat_psqt_them", 10}, {"wall_psqt_us", 10}, {"wall_psqt_them", 10},
    {"cap_psqt_us", 10}, {"cap_psqt_them", 10}, {"supports_us", 3}, {"supports_them", 3},
    {"captives_us", 3}, {"captives_them", 3}, {"deep_us", 2}, {"deep_them", 2},
    {"stack_reach_us", 1}, {"stack_reach_them", 1}, {"stack_pressure_us", 3}, {"stack_pressure_them", 3},
    {"hard_cap_us", 2}, {"hard_cap_them", 2}, {"cap_contact_us", 3}, {"cap_contact_them", 3},
    {"reserves_us", 1}, {"reserves_them", 1}, {"flat_lead", 1}, {"flat_race", 4}, {"race_sign", 4}, {"komi", 1},
    {"spans_us", 8}, {"spans_them", 8}, {"groups_us", 1}, {"groups_them", 1},
    {"distance_us", 6}, {"distance_them", 6}, {"axis_distance_us", 6}, {"axis_distance_them", 6},
    {"threats_them", 3}, {"lines_us", 27}, {"lines_them", 27}, {"liberties_us", 1}, {"liberties_them", 1},
    {"tempo", 1}, {"race_control", 2},
}};
// clang-format on

constexpr std::array<int, block_count + 1> make_offsets() {
    std::array<int, block_count + 1> offsets{};
    for (int i = 0; i < block_count; ++i) offsets[i + 1] = offsets[i] + blocks[i].size;
    return offsets;
}
constexpr std::array<int, block_count + 1> offsets = make_offsets();
constexpr int count = offsets[block_count];

constexpr int index_of(BlockId block, int element = 0) { return offsets[block] + element; }

// "flat_psqt_us[3]" for an index.
std::string name_of(int index);
// The block an index belongs to; block_count when it is out of range.
BlockId block_of(int index);
// The block of that name ("lines_us"); block_count when there is none.
BlockId find_block(std::string_view name);
// The index of such a name, or -1.
int find(std::string_view name);

// Square classes under the board's symmetries, by size.
struct SquareClasses {
    std::uint8_t of[max_size + 1][square_count] = {};
    SquareClasses();
};
extern const SquareClasses square_classes;

// How near the game is to its end, 0 (empty board, full reserves) to 256 (about to end on flats):
// the fuller board or the emptier reserve, squared so it grows late.
inline int phase(const State& s) {
    const Geometry& g = geometry(s.size);
    const int squares = s.size * s.size;
    const int filled = popcount(s.occupied() & g.board) * 256 / squares;
    const Reserves r = reserves_for(s.size);
    const int total = r.stones + r.caps;
    const int fewest_left = std::min(pieces_left(s, Side::first), pieces_left(s, Side::second));
    const int spent = (total - fewest_left) * 256 / total;
    const int late = std::max(filled, spent);
    return late * late / 256;
}

namespace detail {

inline int count_bits(StackBits bits) {
    return std::popcount(static_cast<std::uint64_t>(bits)) + std::popcount(static_cast<std::uint64_t>(bits >> 64));
}

// Rows or columns a group covers, whichever is more.
inline int span_of(Bitboard group) {
    constexpr Bitboard low7 = 0x7F7F7F7F7F7F7F7FULL;
    constexpr Bitboard high = 0x8080808080808080ULL;
    const Bitboard rows = (((group & low7) + low7) | group) & high;
    const int row_span = (63 - std::countl_zero(rows)) / 8 - std::countr_zero(rows) / 8 + 1;
    Bitboard columns = group | (group >> 32);
    columns |= columns >> 16;
    columns |= columns >> 8;
    columns &= 0xFF;
    const int column_span = 8 - std::countl_zero(static_cast<std::uint8_t>(columns)) - std::countr_zero(columns);
    return std::max(row_span, column_span);
}

// The per-side features; `offset_us` selects the "_us" or "_them" block of each pair.
template <class Sink>
void side_features(const State& s, Side side, bool is_us, Sink& sink) {
    const int pick = is_us ? 0 : 1;
    auto at = [pick](BlockId us_block, int element = 0) {
        return index_of(static_cast<BlockId>(us_block + pick), element);
    };
    const Geometry& g = geometry(s.size);
    const int size = s.size;
    const Side other = opponent(side);
    const Bitboard mine = s.top_of(side);
    const Bitboard theirs = s.top_of(other);
    const Bitboard roads = mine & ~s.walls;
    const Bitboard empty = g.board & ~s.occupied();
    const std::uint8_t* classes = square_classes.of[size];
    const bool black = side == Side::second;

    for (Bitboard b = mine & ~s.walls & ~s.caps; b; b &= b - 1)
        sink.add(at(flat_psqt_us, classes[lowest_square(b)]), 1);
    for (Bitboard b = mine & s.walls; b; b &= b - 1) sink.add(at(wall_psqt_us, classes[lowest_square(b)]), 1);

    for (Bitboard b = mine & s.caps; b; b &= b - 1) {
        const int square = lowest_square(b);
        sink.add(at(cap_psqt_us, classes[square]), 1);
        if (s.height[square] > 1)
            sink.add(at(hard_cap_us, s.color_at(square, s.height[square] - 2) == side ? 0 : 1), 1);
        const Bitboard around = neighbours(bit(square)) & g.board;
        if (const int walls = popcount(around & theirs & s.walls)) sink.add(at(cap_contact_us, 0), walls);
        if (const int flats = popcount(around & theirs & ~s.walls & ~s.caps)) sink.add(at(cap_contact_us, 1), flats);
        if (const int own = popcount(around & roads)) sink.add(at(cap_contact_us, 2), own);
    }

    // Stacks: what lies under each own top, how far it can spread, what it presses on.
    int supports[3] = {0, 0, 0}, captives[3] = {0, 0, 0};
    int deep_own = 0, deep_captive = 0, reach_total = 0;
    int pressure[3] = {0, 0, 0};
    for (Bitboard b = mine; b; b &= b - 1) {
        const int square = lowest_square(b);
        const int height = s.height[square];
        if (height < 2) continue;
        const int top = (s.walls & bit(square)) ? 1 : (s.caps & bit(square)) ? 2 : 0;
        const int below = height - 1;
        const int shallow = std::min(below, size - 1);
        const StackBits colours = s.stack_colors[square];
        const StackBits shallow_bits = (colours >> (below - shallow)) & ((StackBits{1} << shallow) - 1);
        const int shallow_black = count_bits(shallow_bits);
        const int shallow_own = black ? shallow_black : shallow - shallow_black;
        supports[top] += shallow_own;
        captives[top] += shallow - shallow_own;
        if (below > shallow) {
            const int deep = below - shallow;
            const int deep_black = count_bits(colours & ((StackBits{1} << deep) - 1));
            const int own = black ? deep_black : deep - deep_black;
            deep_own += own;
            deep_captive += deep - own;
        }
        if (shallow_own > 0) {
            int reach = 0;
            for (Direction direction : all_directions) {
                const int limit = std::min<int>(g.steps_to_edge[square][static_cast<int>(direction)], height);
                const int step = step_of(direction);
                int target = square;
                for (int i = 0; i < limit; ++i) {
                    target += step;
                    if ((s.walls | s.caps) & bit(target)) break;
                    ++reach;
                }
            }
            reach_total += shallow_own * reach;
        }
        if (top == 0) {
            const Bitboard around = neighbours(bit(square)) & theirs;
            pressure[0] += height * popcount(around & ~s.walls & ~s.caps);
            pressure[1] += height * popcount(around & s.walls);
            pressure[2] += height * popcount(around & s.caps);
        }
    }
    for (int top = 0; top < 3; ++top) {
        if (supports[top]) sink.add(at(supports_us, top), supports[top]);
        if (captives[top]) sink.add(at(captives_us, top), captives[top]);
        if (pressure[top]) sink.add(at(stack_pressure_us, top), pressure[top]);
    }
    if (deep_own) sink.add(at(deep_us, 0), deep_own);
    if (deep_captive) sink.add(at(deep_us, 1), deep_captive);
    if (reach_total) sink.add(at(stack_reach_us), reach_total / 4);

    sink.add(at(reserves_us), pieces_left(s, side));

    // Road potential: groups by span, their number, lines, liberties, the distance to a road.
    int groups = 0;
    for (Bitboard left = roads; left;) {
        const Bitboard group = flood(left & (~left + 1), left);
        left &= ~group;
        ++groups;
        sink.add(at(spans_us, span_of(group) - 1), 1);
    }
    if (groups) sink.add(at(groups_us), groups);

    const Bitboard hard = theirs & (s.walls | s.caps);
    const Bitboard soft = (theirs & ~s.walls & ~s.caps) | (mine & s.walls);
    const Bitboard row_mask = 0xFFULL >> (8 - size);
    const Bitboard column_mask = 0x0101010101010101ULL & ((size == 8) ? ~0ULL : ((1ULL << (8 * size)) - 1));
    for (int i = 0; i < size; ++i) {
        const Bitboard lines[2] = {row_mask << (8 * i), column_mask << i};
        for (const Bitboard line : lines) {
            const int kind = (line & hard) ? 2 : (line & soft) ? 1 : 0;
            sink.add(at(lines_us, kind * 9 + popcount(line & roads)), 1);
        }
    }
    if (const int liberties = popcount(neighbours(roads) & empty)) sink.add(at(liberties_us), liberties);

    int per_axis[2];
    const int distance = road_distance(s, side, 5, per_axis);
    sink.add(at(distance_us, std::max(distance, 1) - 1), 1);
    for (int axis = 0; axis < 2; ++axis) sink.add(at(axis_distance_us, std::max(per_axis[axis], 1) - 1), 1);
}

}  // namespace detail

// Calls sink.add(index, value) for every non-zero feature of `s` (value may be negative); one
// index can come more than once, and the values add up.
template <class Sink>
void extract(const State& s, Sink& sink) {
    const Side us = s.side_to_move();
    const Side them = opponent(us);
    detail::side_features(s, us, true, sink);
    detail::side_features(s, them, false, sink);

    // The flat count in half flats, komi included, and how soon it decides the game.
    const int komi_ours = us == Side::second ? s.half_komi : -s.half_komi;
    const int lead = 2 * (flat_count(s, us) - flat_count(s, them)) + komi_ours;
    if (lead) sink.add(index_of(flat_lead), lead);
    if (komi_ours) sink.add(index_of(komi), komi_ours);
    const Geometry& g = geometry(s.size);
    const int empty = popcount(g.board & ~s.occupied());
    const int left_us = pieces_left(s, us), left_them = pieces_left(s, them);
    const int ending = std::min({empty, left_us, left_them});
    if (ending >= 1 && ending <= 4 && lead) {
        sink.add(index_of(flat_race, ending - 1), lead);
        sink.add(index_of(race_sign, ending - 1), lead > 0 ? 1 : -1);
    }

    // Who can end the game while ahead: the leader's placements to the end are its reserve or
    // its share of the empty squares (the side to move gets the odd one), whichever is fewer, and
    // a lead counts more the fewer of them are left (Topaz's endgame flat count does the same).
    if (lead) {
        const int share = lead > 0 ? (empty + 1) / 2 : empty / 2;
        const int placements = std::max(1, std::min(lead > 0 ? left_us : left_them, share + 1));
        sink.add(index_of(race_control, lead > 0 ? 0 : 1), lead * 16 / placements);
    }

    if (const int threats = popcount(road_in_one_squares(s, them)))
        sink.add(index_of(threats_them, std::min(threats, 3) - 1), 1);
    sink.add(index_of(tempo), 1);
}

}  // namespace bge::tak::features
