#pragma once
// Royal Game of Ur vocabulary: tiles, rulesets, paths and moves (docs/ur.md).
//
// Tiles are RoyalUr's names: columns A (Light's side), B (shared) and C (Dark's side), rows 1-8.
// Tile index = column * 8 + (row - 1), so A1 = 0, B1 = 8, C8 = 23; A5, A6, C5 and C6 do not
// exist. Each side walks its own path of tiles; path index 0 is the first tile a piece enters.

#include <array>
#include <cstdint>
#include <string_view>

namespace bge::ur {

constexpr int tile_count = 24;  // 3 x 8, four of them off the board
constexpr int max_pieces = 7;
constexpr int max_path_length = 16;

constexpr int tile_at(int column, int row) { return column * 8 + (row - 1); }  // row 1-8
constexpr int column_of(int tile) { return tile / 8; }
constexpr int row_of(int tile) { return tile % 8 + 1; }
constexpr bool tile_exists(int tile) {
    return tile >= 0 && tile < tile_count && !(column_of(tile) != 1 && (row_of(tile) == 5 || row_of(tile) == 6));
}
constexpr std::uint32_t tile_bit(int tile) { return std::uint32_t{1} << tile; }
// A <-> C: Dark's path is Light's, mirrored.
constexpr int mirror_tile(int tile) { return column_of(tile) == 1 ? tile : tile_at(2 - column_of(tile), row_of(tile)); }

constexpr std::uint32_t rosette_tiles = tile_bit(tile_at(0, 1)) | tile_bit(tile_at(2, 1)) | tile_bit(tile_at(1, 4)) |
                                        tile_bit(tile_at(0, 7)) | tile_bit(tile_at(2, 7));
constexpr bool is_rosette(int tile) { return (rosette_tiles & tile_bit(tile)) != 0; }

enum class Ruleset : std::uint8_t { finkel = 0, masters = 1, blitz = 2 };

std::string_view ruleset_name(Ruleset ruleset);

// The rules of one game: a ruleset and the number of pieces per side (1-7; 0 in a request
// means the ruleset's own count: 7 for Finkel and Masters, 5 for Blitz).
struct Variant {
    Ruleset ruleset = Ruleset::finkel;
    int pieces = 7;
    friend bool operator==(const Variant&, const Variant&) = default;
};

constexpr int default_pieces(Ruleset ruleset) { return ruleset == Ruleset::blitz ? 5 : 7; }

struct RulesetTraits {
    int path_length;            // 14 (Finkel) or 16 (Masters path)
    bool rosettes_safe;         // a piece on a rosette cannot be captured
    bool capture_gives_roll;    // Blitz
    bool three_dice_zero_is_4;  // Masters: 3 binary dice, a throw of 0 counts as 4
};

constexpr RulesetTraits traits_of(Ruleset ruleset) {
    switch (ruleset) {
        case Ruleset::masters:
            return {16, false, false, true};
        case Ruleset::blitz:
            return {16, false, true, false};
        case Ruleset::finkel:
            break;
    }
    return {14, true, false, false};
}

// Light's path; Dark's is its mirror image.
constexpr std::array<std::uint8_t, 14> finkel_light_path = {
    tile_at(0, 4), tile_at(0, 3), tile_at(0, 2), tile_at(0, 1), tile_at(1, 1), tile_at(1, 2), tile_at(1, 3),
    tile_at(1, 4), tile_at(1, 5), tile_at(1, 6), tile_at(1, 7), tile_at(1, 8), tile_at(0, 8), tile_at(0, 7)};
constexpr std::array<std::uint8_t, 16> masters_light_path = {
    tile_at(0, 4), tile_at(0, 3), tile_at(0, 2), tile_at(0, 1), tile_at(1, 1), tile_at(1, 2),
    tile_at(1, 3), tile_at(1, 4), tile_at(1, 5), tile_at(1, 6), tile_at(1, 7), tile_at(2, 7),
    tile_at(2, 8), tile_at(1, 8), tile_at(0, 8), tile_at(0, 7)};

// The tile at `index` of `side`'s path (side 0 = Light).
constexpr int path_tile(Ruleset ruleset, int side, int index) {
    const int light = traits_of(ruleset).path_length == 14 ? finkel_light_path[index] : masters_light_path[index];
    return side == 0 ? light : mirror_tile(light);
}

// A move in three bytes. At a chance node the moves are rolls; at a decision node a move
// advances one piece (from path index `from`, or from the waiting pool) by the roll, or passes.
struct Move {
    enum Kind : std::uint8_t { roll = 0, advance = 1, pass = 2 };
    static constexpr std::uint8_t from_pool = 0xFF;

    std::uint8_t kind = pass;
    std::uint8_t from = 0;   // advance: path index of the piece, or from_pool to enter one
    std::uint8_t value = 0;  // roll: the number thrown (0-4)

    static constexpr Move make_roll(int number) { return Move{roll, 0, static_cast<std::uint8_t>(number)}; }
    static constexpr Move make_pass() { return Move{pass, 0, 0}; }
    static constexpr Move make_advance(int from_index) {
        return Move{advance, static_cast<std::uint8_t>(from_index), 0};
    }
    static constexpr Move make_entry() { return Move{advance, from_pool, 0}; }

    friend constexpr bool operator==(Move, Move) = default;
};

}  // namespace bge::ur
