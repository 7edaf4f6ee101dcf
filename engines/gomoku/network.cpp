#include "engines/gomoku/network.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iterator>

#include "engines/gomoku/board.hpp"
#include "engines/gomoku/nets/embedded.hpp"

namespace bge::gomoku::network {

using search::learning::FeatureList;
using search::learning::QuantisedNetwork;

static_assert(shape_classes == cell_class_count);

bool sample_inputs(const SearchBoard& board, FeatureList& out) {
    out.clear();
    if (board.rules.width * board.rules.height > max_cells) return false;
    const int me = index_of(board.side_to_move());
    std::array<std::uint16_t, input_count> counts{};
    for (int y = 0; y < board.rules.height; ++y)
        for (int x = 0; x < board.rules.width; ++x) {
            const int own = board.shape_class(square_at(x, y), me);
            const int theirs = board.shape_class(square_at(x, y), 1 - me);
            if (own | theirs) ++counts[static_cast<std::size_t>(input_of(own, theirs))];
        }
    // The other side's view of a cell is the same pair turned round.
    for (int view = 0; view < 2; ++view)
        for (int own = 0; own < shape_classes; ++own)
            for (int theirs = 0; theirs < shape_classes; ++theirs) {
                const int count = counts[static_cast<std::size_t>(view == 0 ? input_of(own, theirs) : input_of(theirs, own))];
                if (count == 0) continue;
                if (out.size == FeatureList::capacity) return false;
                out.add(view * input_count + input_of(own, theirs), static_cast<float>(count));
            }
    return true;
}

std::shared_ptr<const NetworkSet> NetworkSet::builtin() {
    static const std::shared_ptr<const NetworkSet> set = [] {
        auto nets = std::make_shared<NetworkSet>();
        for (const auto& file : nets::embedded_files()) {
            if (!file.name.ends_with(".nnue")) continue;
            // A shipped file that does not load is a build defect; tests check every one.
            const auto rule = parse_rule(file.name.substr(0, file.name.size() - 5));
            if (rule) (void)nets->add_bytes(file.bytes, file.name, *rule);
        }
        return nets;
    }();
    return set;
}

Status NetworkSet::add_bytes(std::string_view bytes, std::string_view origin, std::optional<Rule> rule) {
    auto net = search::learning::parse_network(bytes);
    if (!net) return make_error(fmt::format("{}: {}", origin, net.error()));
    if (net->inputs() != input_count)
        return make_error(fmt::format("{}: {} inputs; a Gomoku network has {} (43 x 43 cell shape pairs)", origin,
                                      net->inputs(), input_count));
    auto quantised = QuantisedNetwork::from(*net, max_cells);
    if (!quantised) return make_error(fmt::format("{}: {}", origin, quantised.error()));
    for (Rule r : {Rule::freestyle, Rule::standard, Rule::renju}) {
        if (rule && *rule != r) continue;
        nets_[static_cast<std::size_t>(r)] = *quantised;
        descriptions_[static_cast<std::size_t>(r)] =
            fmt::format("{}: {} ({} hidden units{})", rule_name(r), origin, net->hidden(),
                        net->description.empty() ? "" : "; " + net->description);
    }
    return success();
}

Status NetworkSet::add_file(const std::string& path, std::optional<Rule> rule) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(fmt::format("cannot read the network file '{}'", path));
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return add_bytes(bytes, path, rule);
}

std::string NetworkSet::describe() const {
    std::string text;
    for (const auto& description : descriptions_)
        if (!description.empty()) text += (text.empty() ? "" : "\n") + description;
    return text;
}

}  // namespace bge::gomoku::network
