#include "engines/tak/eval_features.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cstdlib>

namespace bge::tak::features {

SquareClasses::SquareClasses() {
    for (int size = min_size; size <= max_size; ++size)
        for (int row = 0; row < size; ++row)
            for (int column = 0; column < size; ++column) {
                // Fold onto one eighth of the board: distances from the nearest edges, ordered.
                const int a = std::min(column, size - 1 - column);
                const int b = std::min(row, size - 1 - row);
                const int low = std::min(a, b);
                const int high = std::max(a, b);
                of[size][square_at(column, row)] = static_cast<std::uint8_t>(high * (high + 1) / 2 + low);
            }
}
const SquareClasses square_classes;

BlockId block_of(int index) {
    for (int block = 0; block < block_count; ++block)
        if (index >= offsets[block] && index < offsets[block + 1]) return static_cast<BlockId>(block);
    return block_count;
}

BlockId find_block(std::string_view name) {
    for (int block = 0; block < block_count; ++block)
        if (blocks[block].name == name) return static_cast<BlockId>(block);
    return block_count;
}

std::string name_of(int index) {
    const BlockId block = block_of(index);
    if (block == block_count) return fmt::format("feature{}", index);
    return fmt::format("{}[{}]", blocks[block].name, index - offsets[block]);
}

int find(std::string_view name) {
    const auto open = name.find('[');
    if (open == std::string_view::npos || name.back() != ']') return -1;
    const BlockId block = find_block(name.substr(0, open));
    const std::string element_text(name.substr(open + 1, name.size() - open - 2));
    if (element_text.empty() || !std::all_of(element_text.begin(), element_text.end(), ::isdigit)) return -1;
    const int element = std::atoi(element_text.c_str());
    if (block == block_count) return -1;
    return element < blocks[block].size ? offsets[block] + element : -1;
}

}  // namespace bge::tak::features
