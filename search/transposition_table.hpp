#pragma once
// A transposition table keyed by the game's 64-bit Zobrist hash: two-entry buckets, one slot kept
// for the deepest result and one always replaced. Decisive scores are stored relative to the node
// so a forced win found via another path keeps its correct distance.
//
// Lazy SMP threads share one table without locks. A slot is three 64-bit words, each read and
// written atomically (relaxed): the data, the move, and a check word holding the key XORed with
// both (Hyatt's lockless hashing). A read that saw half of one write and half of another decodes
// to a key that is not the one probed, so it is a miss, never a torn entry. Two writers racing on
// one slot may both be lost; a search only loses a hint by that.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>

#include "search/player.hpp"

namespace bge::search {

enum class Bound : std::uint8_t { none = 0, upper = 1, lower = 2, exact = 3 };

template <class Move>
class TranspositionTable {
    static_assert(sizeof(Move) <= 4 && std::is_trivially_copyable_v<Move>,
                  "a move must fit in the low half of a slot's move word");

public:
    // One slot, decoded. All zero is empty (epoch 0 is never current): resize relies on it.
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

    // The memory comes zeroed from calloc (an all-zero slot is empty), so the operating system
    // hands out pages as the search first touches them: a large Hash costs nothing up front, and an
    // engine that never searches never pays for it. Not while a search runs.
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
    // large table; the memory is wiped only when the epoch counter wraps around. Not while a
    // search runs, as new_search.
    void clear() {
        generation_ = 0;
        if (++epoch_ != 0) return;
        wipe();
    }
    void new_search() { ++generation_; }

    std::optional<Entry> probe(std::uint64_t key) const {
        const Bucket& bucket = buckets_[key & mask_];
        for (const Slot& slot : bucket.slots) {
            const Entry entry = load(slot);
            if (entry.key == key && entry.epoch == epoch_ && entry.bound != Bound::none) return entry;
        }
        return std::nullopt;
    }

    void store(std::uint64_t key, int depth, int score, Bound bound, std::optional<Move> move, int ply) {
        Bucket& bucket = buckets_[key & mask_];
        const Entry deep = load(bucket.slots[0]);
        auto live = [&](const Entry& e) { return e.bound != Bound::none && e.epoch == epoch_; };
        Slot* target = &bucket.slots[1];
        const Entry* old = nullptr;
        if (!live(deep) || deep.key == key || deep.generation != generation_ || depth >= deep.depth) {
            target = &bucket.slots[0];
            old = &deep;
            if (live(deep) && deep.key != key && deep.generation == generation_)
                save(bucket.slots[1], deep);  // keep the displaced deep entry one more while
        }
        const Entry recent = old ? Entry{} : load(bucket.slots[1]);
        if (!old) old = &recent;
        // Keep an older best move when this result has none.
        const bool same = live(*old) && old->key == key;
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
        } else if (same && old->has_move) {
            entry.move = old->move;
            entry.has_move = true;
        }
        save(*target, entry);
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
            for (const Slot& slot : buckets_[i].slots) {
                const Entry entry = load(slot);
                if (entry.bound != Bound::none && entry.epoch == epoch_ && entry.generation == generation_) ++used;
            }
        return static_cast<int>(used * 1000 / (2 * sample));
    }

private:
    // Plain words, accessed only through std::atomic_ref: calloc'd memory holds them as it is.
    struct Slot {
        std::uint64_t check;  // key ^ data ^ move
        std::uint64_t data;   // score (32 bits), depth, bound, generation, epoch (8 bits each)
        std::uint64_t move;   // the move's bytes, and bit 32 when there is one
    };
    struct Bucket {
        Slot slots[2];
    };

    static std::uint64_t read(const std::uint64_t& word) {
        return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(word)).load(std::memory_order_relaxed);
    }
    static void write(std::uint64_t& word, std::uint64_t value) {
        std::atomic_ref<std::uint64_t>(word).store(value, std::memory_order_relaxed);
    }

    static Entry load(const Slot& slot) {
        const std::uint64_t data = read(slot.data);
        const std::uint64_t move = read(slot.move);
        Entry entry;
        entry.key = read(slot.check) ^ data ^ move;
        entry.score = static_cast<std::int32_t>(static_cast<std::uint32_t>(data));
        entry.depth = static_cast<std::uint8_t>(data >> 32);
        entry.bound = static_cast<Bound>(static_cast<std::uint8_t>(data >> 40) & 3);
        entry.generation = static_cast<std::uint8_t>(data >> 48);
        entry.epoch = static_cast<std::uint8_t>(data >> 56);
        const auto move_bits = static_cast<std::uint32_t>(move);
        std::memcpy(static_cast<void*>(&entry.move), &move_bits, sizeof(Move));
        entry.has_move = (move >> 32) & 1;
        return entry;
    }
    static void save(Slot& slot, const Entry& entry) {
        const std::uint64_t data = static_cast<std::uint32_t>(entry.score) | std::uint64_t{entry.depth} << 32 |
                                   std::uint64_t{static_cast<std::uint8_t>(entry.bound)} << 40 |
                                   std::uint64_t{entry.generation} << 48 | std::uint64_t{entry.epoch} << 56;
        std::uint32_t move_bits = 0;
        std::memcpy(&move_bits, &entry.move, sizeof(Move));
        const std::uint64_t move = move_bits | std::uint64_t{entry.has_move} << 32;
        write(slot.data, data);
        write(slot.move, move);
        write(slot.check, entry.key ^ data ^ move);
    }

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
