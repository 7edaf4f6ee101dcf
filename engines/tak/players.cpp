#include "engines/tak/players.hpp"

#include <memory>

#include "engines/tak/evaluation.hpp"
#include "search/alphabeta.hpp"
#include "search/random_player.hpp"

namespace bge::tak {

namespace {

// Alpha-beta over the hand-written evaluation; reads Hash before each search.
class AlphaBetaPlayer : public search::Player<Tak> {
public:
    explicit AlphaBetaPlayer(const protocol::OptionRegistry& options)
        : options_(options),
          search_(std::make_unique<search::AlphaBeta<Tak, TakEvaluator>>(TakEvaluator{}, hash_megabytes())) {}

    std::string name() const override { return "alphabeta"; }
    void new_game() override { search_->clear(); }

    search::SearchResult<Tak> search(const search::SearchRequest<Tak>& request,
                                     const search::SearchControl<Tak>& control) override {
        search_->set_hash_megabytes(hash_megabytes());
        return search_->search(request, control);
    }

private:
    std::size_t hash_megabytes() const { return static_cast<std::size_t>(options_.integer("Hash")); }
    const protocol::OptionRegistry& options_;
    std::unique_ptr<search::AlphaBeta<Tak, TakEvaluator>> search_;
};

}  // namespace

std::vector<protocol::PlayerEntry<Tak>> tak_players() {
    return {
        {"alphabeta", "iterative-deepening PVS with a transposition table over the hand-written evaluation",
         [](const protocol::OptionRegistry& options) { return std::make_unique<AlphaBetaPlayer>(options); }},
        {"random", "uniform over the legal moves",
         [](const protocol::OptionRegistry& options) {
             return std::make_unique<search::RandomPlayer<Tak>>(static_cast<std::uint64_t>(options.integer("Seed")));
         }},
    };
}

}  // namespace bge::tak
