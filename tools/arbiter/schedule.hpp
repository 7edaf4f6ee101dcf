#pragma once
// The order of games: a pure function of the configuration and the seed, so a match can be
// reproduced (and later resumed or sharded) exactly.
//
// Round-robin: every round plays every pair of engines (i < j, in -engine order); with -games 2
// each pair plays two games with colours swapped, both from the same opening (with -games 1 the
// colours alternate from round to round instead). Each such encounter
// takes the next opening (order=sequential, from start=K) or a seeded random one (order=random).

#include <vector>

#include "tools/arbiter/command_line.hpp"

namespace bge::arbiter {

struct EnginePair {
    int first;
    int second;
};

struct ScheduledGame {
    int number;  // 1-based, in schedule order
    int round;   // 1-based
    int pair;    // index into round_robin_pairs()
    int white;   // engine indices
    int black;
    int opening;  // index into the opening list
};

std::vector<EnginePair> round_robin_pairs(int engine_count);

std::vector<ScheduledGame> make_schedule(const MatchConfig& config, int opening_count);

}  // namespace bge::arbiter
