#pragma once
// MCTS as a Player: `threads` threads search one shared tree (search/mcts.hpp: tree parallelism
// with virtual loss). One tree rather than one per thread: the threads' iterations deepen the
// same lines, the memory budget holds one tree, and reuse between moves keeps all their work.
// With one thread and a fixed seed the search is deterministic.

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "search/mcts.hpp"
#include "search/player.hpp"

namespace bge::search {

template <Game G, MctsPolicy<G> Policy>
class MctsPlayer : public Player<G> {
public:
    using Tree = Mcts<G, Policy>;
    using Move = typename G::Move;

    // `make_policy` builds the tree's policy (each thread searches with its own copy of it).
    MctsPlayer(std::string name, std::function<Policy()> make_policy, MctsSettings settings = {}, int threads = 1,
               std::uint64_t seed = 1)
        : name_(std::move(name)), make_policy_(std::move(make_policy)), settings_(settings), seed_(seed) {
        rebuild();
        tree_->set_threads(threads);
    }

    std::string name() const override { return name_; }

    // New settings or thread count take effect from the next search (the tree is rebuilt when
    // the settings that shape it change; a new thread count keeps it).
    void configure(const MctsSettings& settings, int threads, std::uint64_t seed) {
        const bool same = settings.puct == settings_.puct && settings.graph == settings_.graph &&
                          settings.memory_mib == settings_.memory_mib && seed == seed_;
        settings_ = settings;
        seed_ = seed;
        if (!same) rebuild();
        tree_->settings() = settings_;
        tree_->set_threads(threads);
    }

    // The tree; its policy() is what every thread searches with (each from its own copy).
    Tree& tree() { return *tree_; }
    int threads() const { return tree_->threads(); }

    void new_game() override { tree_->clear(); }

    // MCTS has no depth: `bench <depth>` and `go depth <d>` mean iterations_per_depth * d.
    static constexpr std::uint64_t iterations_per_depth = 1000;
    Limits bench_limits(int depth) const override {
        Limits limits;
        limits.nodes = iterations_per_depth * static_cast<std::uint64_t>(depth);
        return limits;
    }

    // A node limit counts the iterations of all threads together.
    SearchResult<G> search(const SearchRequest<G>& request, const SearchControl<G>& control) override {
        std::optional<std::uint64_t> limit;
        std::optional<std::uint64_t> total = request.limits.nodes;
        if (!total && request.limits.depth) total = iterations_per_depth * static_cast<std::uint64_t>(*request.limits.depth);
        if (total) limit = std::max<std::uint64_t>(1, *total);
        SearchResult<G> result = tree_->search(request, control, limit);
        if (settings_.solver && result.has_move && result.score <= -(win_score - 1))
            return resist(request, control, total, result);
        return result;
    }

private:
    // Every move loses against best play, and a proven search then picks among them by visits
    // alone (often the first in move order). The opponent may not find the win, so the move is
    // chosen by a search without proofs, which follows the heuristic values: the stoutest defence.
    // It runs in what is left of the same time budget; the score stays the proven loss.
    SearchResult<G> resist(const SearchRequest<G>& request, const SearchControl<G>& control,
                           std::optional<std::uint64_t> total, const SearchResult<G>& lost) {
        MctsSettings heuristic = settings_;
        heuristic.solver = false;
        heuristic.reuse_tree = false;
        // A fresh tree each time, freed at the end: at most one more tree's memory, and only
        // while the lost position is searched.
        Tree fallback(tree_->policy(), heuristic, seed_);
        fallback.set_threads(tree_->threads());
        SearchControl<G> quiet;
        quiet.stop = control.stop;
        SearchResult<G> result = fallback.search(request, quiet, total, false);
        if (!result.has_move) return lost;
        result.score = lost.score;
        result.nodes += lost.nodes;
        if (control.report) {
            Report<G> report;
            report.depth = report.seldepth = 1;
            report.score = result.score;
            report.nodes = result.nodes;
            report.time_ms = std::chrono::duration_cast<Milliseconds>(Clock::now() - request.start).count();
            report.pv = {result.best};
            control.report(report);
        }
        return result;
    }

    void rebuild() {
        const int threads = tree_ ? tree_->threads() : 1;
        tree_ = std::make_unique<Tree>(make_policy_(), settings_, seed_);
        tree_->set_threads(threads);
    }

    std::string name_;
    std::function<Policy()> make_policy_;
    MctsSettings settings_;
    std::uint64_t seed_;
    std::unique_ptr<Tree> tree_;
};

}  // namespace bge::search
