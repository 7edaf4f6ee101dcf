#pragma once
// The Gomoku pattern network: a value network on the shared NNUE core (search/learning/nnue.hpp)
// over each empty cell's shape, in the spirit of Rapfi's mixnet. Every empty cell is one input
// from each player's perspective: the pair (own shape class, opponent's shape class), where a
// class is the cell's two strongest line patterns for that colour (board.hpp, cell_class_of; 43
// classes, 0 = nothing above a one). The first layer is a sum over cells of one row per pair, so
// placing or taking back a stone moves the two accumulators by the rows of the few cells whose
// shapes it changed; SearchBoard keeps them up to date (use_network) as it keeps its patterns.
//
// One network per rule (freestyle, standard, renju), since the rules change what a shape is
// worth; engines/gomoku/nets/RULE.nnue are compiled in (train_gomoku_eval network writes them).

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/gomoku/gomoku.hpp"
#include "search/learning/nnue.hpp"

namespace bge::gomoku {
struct SearchBoard;
}

namespace bge::gomoku::network {

constexpr int shape_classes = 43;  // board.hpp's cell_class_count
constexpr int input_count = shape_classes * shape_classes;
// Every empty cell of a board up to 20 x 20 may count once; larger boards use no network.
constexpr int max_cells = 400;
constexpr float first_layer_limit = search::learning::nnue::first_layer_limit_for(max_cells);
// The evaluation in centi-units is this times the network's logit (the fitted linear
// evaluation's scale too, so search margins keep their meaning).
constexpr double centi_units_per_logit = 200;

constexpr int input_of(int own_class, int their_class) { return own_class * shape_classes + their_class; }

// A training sample: the side to move's inputs (value = how many empty cells have the pair), then
// the other side's shifted by input_count. False when the board is larger than max_cells.
bool sample_inputs(const SearchBoard& board, search::learning::FeatureList& out);

// Quantised networks by rule.
class NetworkSet {
public:
    // engines/gomoku/nets/{freestyle,standard,renju}.nnue, compiled in.
    static std::shared_ptr<const NetworkSet> builtin();
    // A network file for one rule, or for every rule (nullopt).
    Status add_file(const std::string& path, std::optional<Rule> rule);
    Status add_bytes(std::string_view bytes, std::string_view origin, std::optional<Rule> rule);

    const search::learning::QuantisedNetwork* for_rule(Rule rule) const {
        const auto& net = nets_[static_cast<std::size_t>(rule)];
        return net ? &*net : nullptr;
    }
    std::string describe() const;

private:
    std::array<std::optional<search::learning::QuantisedNetwork>, 3> nets_;
    std::array<std::string, 3> descriptions_;
};

}  // namespace bge::gomoku::network
