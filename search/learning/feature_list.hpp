#pragma once
// The non-zero inputs of one position: what a game's feature code writes, a network reads and a
// SparseDataset stores. Shared by every evaluation that is trained (linear or network).

#include <array>
#include <cstdint>
#include <stdexcept>

namespace bge::search::learning {

struct FeatureList {
    static constexpr int capacity = 512;  // Gomoku: up to 2 x 225 (own, opponent) cell shapes on 15 x 15
    std::array<std::uint16_t, capacity> index;
    std::array<float, capacity> value;
    int size = 0;

    void clear() { size = 0; }
    // Zeros are left out: they change neither a sum nor a gradient.
    void add(int input, float x) {
        if (x == 0.0f) return;
        if (size == capacity) throw std::length_error("FeatureList: more than 512 non-zero inputs");
        index[static_cast<std::size_t>(size)] = static_cast<std::uint16_t>(input);
        value[static_cast<std::size_t>(size)] = x;
        ++size;
    }
};

}  // namespace bge::search::learning
