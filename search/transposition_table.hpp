#pragma once
// A transposition table keyed by the game's 64-bit Zobrist hash: two-entry buckets, one slot kept
// for the deepest result and one always replaced. Decisive scores are stored relative to the node
// so a forced win found via another path keeps its correct distance.

#include <cstdint>
#include <cstdlib>
#include <new>
#include <cstring>
#include <memory>
#include <optional>

#include "search/player.hpp"

namespace bge::search {

enum class Bound : std::uint8_t { none = 0, upper = 1, lower = 2, exact = 3 };

template <class Move>
class TranspositionTable {
public:
    // All zero is empty (epoch 0 is never current): resize relies on it.
    struct Entry {
        std::uint64_t key = 0;
        std::int32_t score = 0;
        Move move{};
        std::uint8_t depth = 0;
        Bound bound = Bound::none;
        std::uint8_t generation = 0;
        std::uint8_t epoch = 0;  // entries of another epoch are empty (0: never written)
        bool has_move = false;
    };

    explicit TranspositionTable(std::size_t megabytes = 16) { resize(megabytes); }

    // The memory comes zeroed from calloc (an all-zero Entry is empty), so the operating system
    // hands out pages as the search first touches them: a large Hash costs nothing up front, and an
    // engine that never searches never pays for it.
    void resize(std::size_t megabytes) {
        std::size_t buckets = 1;
        const std::size_t wanted = std::max<std::size_t>(1, megabytes) * 1024 * 1024 / sizeof(Bucket);
        while (buckets * 2 <= wanted) buckets *= 2;
        buckets_.reset();
        buckets_.reset(static_cast<Bucket*>(std::calloc(buckets, sizeof(Bucket))));
        if (!buckets_) throw std::bad_alloc();
        mask_ = buckets - 1;
        megabytes_ = megabytes;
        generation_ = 0;
        epoch_ = 1;
    }
    std::size_t megabytes() const { return megabytes_; }

    // Empties the table in O(1) by starting a new epoch, so a new game costs nothing even with a
    // large table; the memory is wiped only when the epoch counter wraps around.
    void clear() {
        generation_ = 0;
        if (++epoch_ != 0) return;
        wipe();
    }
    void new_search() { ++generation_; }

    const Entry* probe(std::uint64_t key) const {
        const Bucket& bucket = buckets_[key & mask_];
        for (const Entry& entry : bucket.slots)
            if (entry.key == key && entry.epoch == epoch_ && entry.bound != Bound::none) return &entry;
        return nullptr;
    }

    void store(std::uint64_t key, int depth, int score, Bound bound, std::optional<Move> move, int ply) {
        Bucket& bucket = buckets_[key & mask_];
        Entry& deep = bucket.slots[0];
        Entry& recent = bucket.slots[1];
        auto live = [&](const Entry& e) { return e.bound != Bound::none && e.epoch == epoch_; };
        Entry* target = &recent;
        if (!live(deep) || deep.key == key || deep.generation != generation_ || depth >= deep.depth) target = &deep;
        if (target == &deep && live(deep) && deep.key != key && deep.generation == generation_)
            recent = deep;  // keep the displaced deep entry one more while
        // Keep an older best move when this result has none.
        const bool same = live(*target) && target->key == key;
        Entry entry;
        entry.key = key;
        entry.score = to_table(score, ply);
        entry.depth = static_cast<std::uint8_t>(std::clamp(depth, 0, 255));
        entry.bound = bound;
        entry.generation = generation_;
        entry.epoch = epoch_;
        if (move) {
            entry.move = *move;
            entry.has_move = true;
        } else if (same && target->has_move) {
            entry.move = target->move;
            entry.has_move = true;
        }
        *target = entry;
    }

    static int from_table(int score, int ply) {
        if (score >= win_threshold) return score - ply;
        if (score <= -win_threshold) return score + ply;
        return score;
    }

    // Permille of the sampled slots used by this search, as UCI's hashfull.
    int permille_full() const {
        const std::size_t sample = std::min<std::size_t>(500, mask_ + 1);
        int used = 0;
        for (std::size_t i = 0; i < sample; ++i)
            for (const Entry& entry : buckets_[i].slots)
                if (entry.bound != Bound::none && entry.epoch == epoch_ && entry.generation == generation_) ++used;
        return static_cast<int>(used * 1000 / (2 * sample));
    }

private:
    struct Bucket {
        Entry slots[2];
    };
    void wipe() {
        std::memset(static_cast<void*>(buckets_.get()), 0, (mask_ + 1) * sizeof(Bucket));
        generation_ = 0;
        epoch_ = 1;
    }
    struct Free {
        void operator()(Bucket* buckets) const { std::free(buckets); }
    };
    static int to_table(int score, int ply) {
        if (score >= win_threshold) return score + ply;
        if (score <= -win_threshold) return score - ply;
        return score;
    }

    std::unique_ptr<Bucket[], Free> buckets_;
    std::size_t mask_ = 0;
    std::size_t megabytes_ = 0;
    std::uint8_t generation_ = 0;
    std::uint8_t epoch_ = 1;
};

}  // namespace bge::search
