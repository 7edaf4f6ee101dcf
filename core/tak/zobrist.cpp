#include "core/tak/zobrist.hpp"

#include "core/random.hpp"

namespace bge::tak::zobrist {

namespace {
Keys make_keys() {
    Keys keys{};
    std::uint64_t seed = 0x7A4B2026'0000'0001ULL;  // fixed, so hashes are the same in every run
    for (auto& square : keys.piece)
        for (auto& level : square)
            for (auto& key : level) key = splitmix64(seed);
    for (auto& key : keys.wall) key = splitmix64(seed);
    for (auto& key : keys.cap) key = splitmix64(seed);
    keys.black_to_move = splitmix64(seed);
    return keys;
}
}  // namespace

const Keys& keys() {
    static const Keys instance = make_keys();
    return instance;
}

}  // namespace bge::tak::zobrist
