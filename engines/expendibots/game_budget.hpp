#pragma once
// GameTimeBudget mode: the course's whole-game limits (each player 60 s of CPU time and 100 MB
// for a whole game) as an engine option. The player measures the CPU time its process has used
// since the game began and gives each move a share of what is left; the transposition table is
// sized so the process stays under the memory cap. docs/expendibots.md, "Game budget".

#include <cstddef>
#include <cstdint>

namespace bge::expendibots {

// Milliseconds the next move may take: what is left of the budget (less a reserve of 2%, at
// least 200 ms, for the process itself) spread over the turns a game is expected to still last
// (at least 15; 40 at the start), and never more than a tenth of what is left. 0 when the budget
// is spent: the player then answers from a shallow search at once.
std::int64_t plan_move_ms(std::int64_t budget_ms, std::int64_t used_ms, int own_turns_played);

// Transposition-table MiB under a memory cap: the largest power of two that leaves 24 MiB for
// the rest of the process, and no more than asked. (The table rounds its size down to a power of
// two of buckets anyway; a power of two here keeps it from being reallocated when the mode is
// switched on with the default Hash.)
std::size_t hash_megabytes_under_cap(std::size_t requested_megabytes, std::size_t cap_megabytes);

// CPU time used by this process so far (all threads), in milliseconds.
std::int64_t process_cpu_ms();

}  // namespace bge::expendibots
