#pragma once
// Uniform random play over the legal moves: the baseline every study measures against. Each new
// game reseeds from the seed and the game's number, so two random players facing each other play
// different games, and a rerun of the same match repeats them exactly.

#include <functional>
#include <string>

#include "core/game.hpp"
#include "core/random.hpp"
#include "search/player.hpp"

namespace bge::search {

template <Game G>
class RandomPlayer : public Player<G> {
public:
    // `seed` is read at every new game (an engine passes its Seed option).
    explicit RandomPlayer(std::function<std::uint64_t()> seed) : seed_(std::move(seed)), random_(seed_()) {}
    explicit RandomPlayer(std::uint64_t seed = 1) : RandomPlayer([seed] { return seed; }) {}

    std::string name() const override { return "random"; }
    void new_game() override {
        ++games_;
        random_.reseed(seed_() + games_ * 0x9E3779B97F4A7C15ULL);
    }

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
    std::function<std::uint64_t()> seed_;
    Random random_;
    std::uint64_t games_ = 0;
};

}  // namespace bge::search
