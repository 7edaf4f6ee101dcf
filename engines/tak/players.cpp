#include "engines/tak/players.hpp"

#include <memory>

#include "engines/tak/evaluation.hpp"
#include "engines/tak/mcts_player.hpp"
#include "engines/tak/study_players.hpp"
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
        search_->settings().null_move = options_.boolean("NullMove");
        return search_->search(request, control);
    }

private:
    std::size_t hash_megabytes() const { return static_cast<std::size_t>(options_.integer("Hash")); }
    const protocol::OptionRegistry& options_;
    std::unique_ptr<search::AlphaBeta<Tak, TakEvaluator>> search_;
};

}  // namespace

void add_player_options(protocol::OptionRegistry& options) {
    options.add_spin("Hash", 64, 1, 65536, "transposition table size in MiB (alphabeta)");
    options.add_check("NullMove", true, "alphabeta: null-move pruning");
    options.add_spin("Seed", 1, 0, 1'000'000'000, "seed for the players that use chance");
    add_mcts_player_options(options);
    add_study_player_options(options);
}

std::vector<protocol::PlayerEntry<Tak>> tak_players() {
    std::vector<protocol::PlayerEntry<Tak>> players = {
        {"alphabeta", "iterative-deepening PVS with a transposition table over the hand-written evaluation",
         [](const protocol::OptionRegistry& options) { return std::make_unique<AlphaBetaPlayer>(options); }},
        {"random", "uniform over the legal moves (reseeded from Seed and the game number every game)",
         [](const protocol::OptionRegistry& options) {
             return std::make_unique<search::RandomPlayer<Tak>>(
                 [&options] { return static_cast<std::uint64_t>(options.integer("Seed")); });
         }},
    };
    for (auto& entry : mcts_players()) players.push_back(std::move(entry));
    for (auto& entry : study_players()) players.push_back(std::move(entry));
    return players;
}

}  // namespace bge::tak
