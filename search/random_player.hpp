#pragma once
// Uniform random play over the legal moves: the baseline every study measures against.

#include <string>

#include "core/game.hpp"
#include "core/random.hpp"
#include "search/player.hpp"

namespace bge::search {

template <Game G>
class RandomPlayer : public Player<G> {
public:
    explicit RandomPlayer(std::uint64_t seed = 1) : seed_(seed), random_(seed) {}
    std::string name() const override { return "random"; }
    void new_game() override { random_.reseed(seed_); }

    SearchResult<G> search(const SearchRequest<G>& request, const SearchControl<G>&) override {
        SearchResult<G> result;
        MoveList<G> moves;
        G::generate_moves(request.root, moves);
        if (moves.empty()) return result;
        result.best = moves[random_.below(static_cast<std::uint32_t>(moves.size()))];
        result.has_move = true;
        result.nodes = 1;
        return result;
    }

private:
    std::uint64_t seed_;
    Random random_;
};

}  // namespace bge::search
