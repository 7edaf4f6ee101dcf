#include "core/ur/rules.hpp"

#include <bit>

#include <fmt/format.h>

#include "core/random.hpp"

namespace bge::ur {

std::string_view ruleset_name(Ruleset ruleset) {
    switch (ruleset) {
        case Ruleset::masters:
            return "masters";
        case Ruleset::blitz:
            return "blitz";
        case Ruleset::finkel:
            break;
    }
    return "finkel";
}

Expected<Variant> resolve_variant(Variant variant) {
    if (variant.pieces == 0) variant.pieces = default_pieces(variant.ruleset);
    if (variant.pieces < 1 || variant.pieces > max_pieces)
        return make_error(fmt::format("{} pieces: a side has 1 to {} pieces", variant.pieces, max_pieces));
    return variant;
}

State start_state(const Variant& variant) {
    State state;
    state.ruleset = variant.ruleset;
    state.pieces = static_cast<std::uint8_t>(variant.pieces == 0 ? default_pieces(variant.ruleset) : variant.pieces);
    state.waiting[0] = state.waiting[1] = state.pieces;
    return state;
}

RollList roll_outcomes(Ruleset ruleset) {
    RollList rolls;
    if (traits_of(ruleset).three_dice_zero_is_4) {
        // Three binary dice: 1, 2, 3 with 3/8, 3/8, 1/8; no die up (1/8) counts as 4.
        rolls.push_back({1, 3.0 / 8});
        rolls.push_back({2, 3.0 / 8});
        rolls.push_back({3, 1.0 / 8});
        rolls.push_back({4, 1.0 / 8});
    } else {
        constexpr double ways[5] = {1, 4, 6, 4, 1};
        for (int number = 0; number <= 4; ++number) rolls.push_back({number, ways[number] / 16});
    }
    return rolls;
}

bool is_chance_node(const State& state) { return state.roll == roll_due && !outcome(state).is_over(); }

int landing_tile(const State& state, int side, int from, int roll) {
    const int target = from == Move::from_pool ? roll - 1 : from + roll;
    const int length = state.path_length();
    if (target == length) return off_board;
    if (target > length || target < 0) return overshoot;
    return path_tile(state.ruleset, side, target);
}

int path_index_of(Ruleset ruleset, int side, int tile) {
    const int length = traits_of(ruleset).path_length;
    for (int index = 0; index < length; ++index)
        if (path_tile(ruleset, side, index) == tile) return index;
    return -1;
}

namespace {

// tile -> path index (or -1), by ruleset and side.
struct PathIndexTables {
    std::int8_t index[3][2][tile_count];
    PathIndexTables() {
        for (int r = 0; r < 3; ++r)
            for (int side = 0; side < 2; ++side)
                for (int tile = 0; tile < tile_count; ++tile)
                    index[r][side][tile] = static_cast<std::int8_t>(path_index_of(static_cast<Ruleset>(r), side, tile));
    }
};

const PathIndexTables& path_indices() {
    static const PathIndexTables tables;
    return tables;
}

}  // namespace

unsigned path_mask(const State& state, int side) {
    const std::int8_t* index = path_indices().index[static_cast<int>(state.ruleset)][side];
    unsigned mask = 0;
    for (std::uint32_t rest = state.tiles[side]; rest; rest &= rest - 1) mask |= 1u << index[std::countr_zero(rest)];
    return mask;
}

int race_progress(const State& state, int side) {
    int progress = state.scored[side] * (state.path_length() + 1);
    for (unsigned rest = path_mask(state, side); rest; rest &= rest - 1) progress += std::countr_zero(rest) + 1;
    return progress;
}

namespace {

// Why a piece move is illegal, or nullptr when it is legal (the roll is 1-4 and it is a decision node).
const char* advance_problem(const State& state, Move move) {
    const int side = index_of(state.to_move);
    if (move.from == Move::from_pool) {
        if (state.waiting[side] == 0) return "no piece is waiting to enter";
    } else {
        if (move.from >= state.path_length()) return "no such path index";
        if (!(state.tiles[side] & tile_bit(path_tile(state.ruleset, side, move.from)))) return "no own piece there";
    }
    const int target = landing_tile(state, side, move.from, state.roll);
    if (target == overshoot) return "bearing off needs the exact roll";
    if (target == off_board) return nullptr;
    if (state.tiles[side] & tile_bit(target)) return "the target tile holds an own piece";
    if ((state.tiles[1 - side] & tile_bit(target)) && is_rosette(target) && traits_of(state.ruleset).rosettes_safe)
        return "an opponent piece on a rosette is safe";
    return nullptr;
}

}  // namespace

void generate_moves(const State& state, FixedVector<Move, max_legal_moves>& moves) {
    moves.clear();
    if (state.roll == roll_due || outcome(state).is_over()) return;
    if (state.roll > 0) {
        const int side = index_of(state.to_move);
        if (state.waiting[side] > 0 && !advance_problem(state, Move::make_entry())) moves.push_back(Move::make_entry());
        const int length = state.path_length();
        for (int index = 0; index < length; ++index) {
            if (!(state.tiles[side] & tile_bit(path_tile(state.ruleset, side, index)))) continue;
            if (!advance_problem(state, Move::make_advance(index))) moves.push_back(Move::make_advance(index));
        }
    }
    if (moves.empty()) moves.push_back(Move::make_pass());
}

Status check_move(const State& state, Move move) {
    if (outcome(state).is_over()) return make_error("the game is over");
    const bool chance = state.roll == roll_due;
    if (move.kind == Move::roll) {
        if (!chance) return make_error(fmt::format("the roll is already known ({})", state.roll));
        for (const Roll& roll : roll_outcomes(state.ruleset))
            if (roll.number == move.value) return success();
        return make_error(
            fmt::format("{} cannot be thrown in the {} ruleset", move.value, ruleset_name(state.ruleset)));
    }
    if (chance) return make_error("a roll is due first (the dice decide, not the player)");
    FixedVector<Move, max_legal_moves> moves;
    generate_moves(state, moves);
    if (move.kind == Move::pass) {
        if (moves[0].kind == Move::pass) return success();
        return make_error(fmt::format("passing is only allowed when no piece can move; {} legal moves", moves.size()));
    }
    if (state.roll == 0) return make_error("a roll of 0 moves nothing; the only move is pass");
    if (const char* problem = advance_problem(state, move)) return make_error(problem);
    return success();
}

Undo play(State& state, Move move) {
    const Undo before = state;
    if (move.kind == Move::roll) {
        state.roll = static_cast<std::int8_t>(move.value);
        return before;
    }
    const int side = index_of(state.to_move);
    bool again = false;
    if (move.kind == Move::advance) {
        const int target = landing_tile(state, side, move.from, state.roll);
        if (move.from == Move::from_pool)
            --state.waiting[side];
        else
            state.tiles[side] &= ~tile_bit(path_tile(state.ruleset, side, move.from));
        if (target == off_board) {
            ++state.scored[side];
        } else {
            state.tiles[side] |= tile_bit(target);
            if (state.tiles[1 - side] & tile_bit(target)) {
                state.tiles[1 - side] &= ~tile_bit(target);
                ++state.waiting[1 - side];
                again = traits_of(state.ruleset).capture_gives_roll;
            }
            again = again || is_rosette(target);
        }
    }
    state.roll = roll_due;
    if (!again) state.to_move = opponent(state.to_move);
    return before;
}

void undo(State& state, Move, const Undo& undo) { state = undo; }

Outcome outcome(const State& state) {
    if (state.scored[0] == state.pieces) return Outcome::win(Side::first, "all pieces borne off");
    if (state.scored[1] == state.pieces) return Outcome::win(Side::second, "all pieces borne off");
    return Outcome::ongoing();
}

std::uint64_t hash(const State& state) {
    std::uint64_t packed = std::uint64_t{state.tiles[0]} | std::uint64_t{state.tiles[1]} << 24 |
                           std::uint64_t{state.waiting[0]} << 48 | std::uint64_t{state.waiting[1]} << 52 |
                           std::uint64_t{static_cast<std::uint8_t>(state.roll + 1)} << 56 |
                           std::uint64_t{state.to_move == Side::second} << 60 |
                           std::uint64_t{static_cast<std::uint8_t>(state.ruleset)} << 61;
    std::uint64_t seed =
        packed ^ (std::uint64_t{state.scored[0]} << 8 | state.scored[1] | std::uint64_t{state.pieces} << 16) *
                     0x9E3779B97F4A7C15ULL;
    return splitmix64(seed);
}

Status validate(const State& state) {
    if (state.pieces < 1 || state.pieces > max_pieces) return make_error("a side has 1 to 7 pieces");
    if (state.tiles[0] & state.tiles[1]) return make_error("two pieces share a tile");
    for (int side = 0; side < 2; ++side) {
        const char* name = side == 0 ? "light" : "dark";
        for (int tile = 0; tile < tile_count; ++tile) {
            if (!(state.tiles[side] & tile_bit(tile))) continue;
            if (!tile_exists(tile)) return make_error(fmt::format("{} has a piece off the board", name));
            if (path_index_of(state.ruleset, side, tile) < 0)
                return make_error(
                    fmt::format("{} has a piece on a tile outside its {} path", name, ruleset_name(state.ruleset)));
        }
        const int total = std::popcount(state.tiles[side]) + state.waiting[side] + state.scored[side];
        if (total != state.pieces)
            return make_error(fmt::format("{} has {} on the board + {} waiting + {} scored = {} pieces, not {}", name,
                                          std::popcount(state.tiles[side]), state.waiting[side], state.scored[side],
                                          total, state.pieces));
    }
    if (state.scored[0] == state.pieces && state.scored[1] == state.pieces)
        return make_error("both sides cannot have borne off every piece");
    if (state.roll != roll_due) {
        bool possible = false;
        for (const Roll& roll : roll_outcomes(state.ruleset)) possible = possible || roll.number == state.roll;
        if (!possible)
            return make_error(fmt::format("a roll of {} cannot be thrown in the {} ruleset", state.roll,
                                          ruleset_name(state.ruleset)));
        if (outcome(state).is_over()) return make_error("the game is over, so there is no roll");
    }
    return success();
}

}  // namespace bge::ur
