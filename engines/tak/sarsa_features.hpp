#pragma once
// The Tak study's SARSA agent: the features of its linear Q(s, a), the weights that ship with the
// engine, and the weights file the trainer (tools/train/train_tak_sarsa) writes.
//
// Raw Tak positions never repeat enough to learn a table, so Q(s, a) = w . phi(after), where
// phi describes the position after a from the view of the side that played it. Every feature is
// scaled to about [-1, 1] whatever the board size, so one weight vector serves sizes 3 to 8
// (docs/tak.md, "sarsa", lists them).

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/tak/tak.hpp"
#include "search/learning/sarsa.hpp"

namespace bge::tak {

struct TakSarsaFeatures {
    static constexpr std::size_t count = 18;
    static constexpr std::array<std::string_view, count> names = {
        "bias",               // 1
        "win",                // the move wins (road, or flats)
        "loss",               // the move loses (completes only the opponent's road, or loses on flats)
        "flat_lead",          // (own flats - their flats + own komi) / N
        "flat_lead_late",     // flat_lead * endgame^2 (endgame: the fuller board or emptier reserve, 0..1)
        "own_span",           // widest own road group's span / N
        "their_span",         // widest opposing road group's span / N
        "own_threat",         // one placement would complete an own road
        "own_double_threat",  // two or more such squares
        "their_threat",       // the opponent (to move) can place a road
        "stack_control",      // (pieces under own tops - pieces under their tops) / N
        "reserve_lead",       // (own pieces left - their pieces left) / starting pieces
        "capstone_lead",      // (own capstones on the board - theirs) / 2
        "wall_lead",          // (own walls - their walls) / N
        "place_flat",         // the move's kind, one-hot
        "place_wall",
        "place_capstone",
        "spread",
    };
    using Vector = std::array<double, count>;

    static void compute(const State& after, const Move& move, Side mover, Vector& phi);
};

using TakSarsa = search::learning::Sarsa<Tak, TakSarsaFeatures>;
using SarsaWeights = TakSarsa::Q;

// The weights built in: engines/tak/nets/sarsa_weights.txt, the file train_tak_sarsa --out writes,
// embedded at build time and read by parse_sarsa_weights like any SarsaWeights file.
constexpr std::string_view builtin_sarsa_file = "sarsa_weights.txt";
const SarsaWeights& builtin_sarsa_weights();

// The weights file: a first line `bge-tak-sarsa-weights 1`, `comment` as '#' lines, then one line
// `<feature> <value>` for every feature, in the order above (17 significant digits, so a file
// read back gives the same doubles); blank lines and lines starting with '#' are ignored.
std::string format_sarsa_weights(const SarsaWeights& weights, std::string_view comment);
Expected<SarsaWeights> parse_sarsa_weights(std::string_view text);
Expected<SarsaWeights> load_sarsa_weights(const std::string& path);

}  // namespace bge::tak
