// Independent, deliberately simple reference implementation of Tak.
// Used only by tests to cross-check the fast engine. Correctness and clarity
// matter here, speed does not.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tak_reference {

// Parse a TPS position. Throws std::invalid_argument with a message on bad TPS.
// Returns all legal moves in canonical PTN, sorted with std::sort (plain string
// order), no duplicates. Moves are generated even if result() is non-empty.
std::vector<std::string> legal_moves(const std::string& tps);

// Apply one move given in canonical PTN to the TPS position; returns the
// resulting TPS in canonical form. Throws std::invalid_argument if the move is
// not legal (i.e. not one of legal_moves(tps)).
std::string apply_move(const std::string& tps, const std::string& ptn);

// Game result of the position: "R-0", "0-R", "F-0", "0-F", "1/2-1/2" or ""
// if the game goes on. half_komi is komi in half flats, added to Black.
std::string result(const std::string& tps, int half_komi);

// perft(tps,0)=1; for depth>0 a position with a non-empty result() (using
// half_komi 0) counts 0; otherwise sum over legal moves of perft(child, depth-1).
std::uint64_t perft(const std::string& tps, int depth);

// Canonical re-formatting of a TPS (parse then print).
std::string canonical_tps(const std::string& tps);

}  // namespace tak_reference
