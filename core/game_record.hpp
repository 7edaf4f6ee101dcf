#pragma once
// A game as played from a start position: the moves, the current position and the hash of every
// position so far. It adds the history-dependent rules (repetition draws) on top of the game's own
// outcome(). Engines keep one for the `position` command; referees use it to judge games.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.hpp"

namespace bge {

// What a record reader does with an illegal move: refuse the whole text (openings must be sound),
// or keep the game's moves before it, say why in the game, and read on (analysis goes on past a
// broken game).
enum class IllegalMoves { refuse_text, end_game_there };

template <Game G>
class GameRecord {
public:
    using State = typename G::State;
    using Move = typename G::Move;

    explicit GameRecord(State start) : start_(start), current_(start), hashes_{G::hash(start)} {}

    const State& start() const { return start_; }
    const State& current() const { return current_; }
    const std::vector<Move>& moves() const { return moves_; }
    // Hashes of every position from the start to the current one (inclusive).
    const std::vector<std::uint64_t>& hashes() const { return hashes_; }

    // Parses and plays one move; on error nothing changes.
    Status play_text(std::string_view text) {
        if (const Outcome o = outcome(); o.is_over())
            return make_error("the game is already over (" + G::result_text(current_, o) + ")");
        auto move = G::parse_move(current_, text);
        if (!move) return make_error(move.error());
        play(*move);
        return success();
    }

    // Plays a move already known to be legal.
    void play(const Move& move) {
        G::play(current_, move);
        moves_.push_back(move);
        hashes_.push_back(G::hash(current_));
    }

    int occurrences_of_current() const {
        return static_cast<int>(std::count(hashes_.begin(), hashes_.end(), hashes_.back()));
    }

    Outcome outcome() const {
        const Outcome intrinsic = G::outcome(current_);
        if (intrinsic.is_over()) return intrinsic;
        const int limit = G::repetition_limit(current_);
        if (limit > 0 && occurrences_of_current() >= limit) return Outcome::draw("repetition");
        return intrinsic;
    }

private:
    State start_;
    State current_;
    std::vector<Move> moves_;
    std::vector<std::uint64_t> hashes_;
};

}  // namespace bge
