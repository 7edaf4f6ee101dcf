#pragma once
// The order of games: a pure function of the configuration and the seed, so a match can be
// reproduced, resumed and sharded exactly.
//
// Each round plays every pair of engines once as an "encounter": round-robin pairs every two
// engines (i < j, in -engine order); a gauntlet pairs the first engine with each of the others.
// With -games 2 an encounter is two games with colours swapped, from the same opening (with
// -games 1 the colours alternate from round to round instead). Each encounter takes the next
// opening (order=sequential, from start=K) or a seeded random one (order=random).
//
// -shard k/K keeps the encounters whose index is k-1 modulo K, so the two games of a pair stay
// together and the shards of one configuration add up to exactly the whole schedule.

#include <vector>

#include "tools/arbiter/command_line.hpp"

namespace bge::arbiter {

struct EnginePair {
    int first;
    int second;
};

struct ScheduledGame {
    int number;     // 1-based, in the whole schedule's order (the same in every shard)
    int round;      // 1-based
    int encounter;  // 0-based index of the encounter in the whole schedule
    int pair;       // index into engine_pairs()
    int white;      // engine indices
    int black;
    int opening;  // index into the opening list
};

std::vector<EnginePair> engine_pairs(Tournament tournament, int engine_count);

// The whole schedule, every shard included.
std::vector<ScheduledGame> make_schedule(const MatchConfig& config, int opening_count);
// The games of one shard.
std::vector<ScheduledGame> shard_of(const std::vector<ScheduledGame>& schedule, const Shard& shard);

}  // namespace bge::arbiter
