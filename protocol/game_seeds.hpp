#pragma once
// Per-game seeds for the players that use chance: seeded by the Seed option and the game's
// number, counted from 0 since the player was made or Seed last changed. So the games of a match
// differ, and a rerun of the same match repeats them all. The engines' study players share it.

#include <cstdint>

#include "core/random.hpp"
#include "protocol/options.hpp"

namespace bge::protocol {

class GameSeeds {
public:
    explicit GameSeeds(const OptionRegistry& options) : options_(options) {}
    std::uint64_t next() {
        const auto seed = static_cast<std::uint64_t>(options_.integer("Seed"));
        if (!started_ || seed != seed_) {
            started_ = true;
            seed_ = seed;
            game_ = 0;
        }
        std::uint64_t mix = seed_ * 0x9E3779B97F4A7C15ULL + game_++;
        return splitmix64(mix);
    }

private:
    const OptionRegistry& options_;
    bool started_ = false;
    std::uint64_t seed_ = 0;
    std::uint64_t game_ = 0;
};

}  // namespace bge::protocol
