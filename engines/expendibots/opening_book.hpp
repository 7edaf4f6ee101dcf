#pragma once
// The alpha-beta player's opening book: lines of moves from the start position. Every position
// along a line (either side to move) maps to the line's next move; where lines share a position
// and differ, each of their moves is a candidate (the player picks one with its seeded
// generator). Positions are matched by board, side to move and action count.
//
// Book text: one line of compact moves per text line (`c2c3 d7d6 2c3c5`), as the arbiter's
// `-openings format=moves` reads; blank lines and lines starting with '#' are skipped.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/expected.hpp"
#include "core/expendibots/expendibots.hpp"

namespace bge::expendibots {

class OpeningBook {
public:
    static Expected<OpeningBook> parse(std::string_view text);
    static Expected<OpeningBook> load(const std::string& path);

    // The book's moves in this position, in the order the lines give them; empty out of book.
    std::vector<Move> moves_for(const State& state) const;
    std::size_t position_count() const { return moves_.size(); }
    std::size_t line_count() const { return lines_; }

private:
    static std::uint64_t key_of(const State& state);
    std::unordered_map<std::uint64_t, std::vector<Move>> moves_;
    std::size_t lines_ = 0;
};

// The book compiled into the engine (engines/expendibots/opening_book.cpp; how it was made is
// in docs/expendibots.md, "Opening book").
const OpeningBook& builtin_book();
std::string_view builtin_book_text();

}  // namespace bge::expendibots
