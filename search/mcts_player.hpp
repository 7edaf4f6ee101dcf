#pragma once
// MCTS as a Player: one tree per thread searched in parallel from the same root (root
// parallelism: no locks, no virtual loss), root statistics merged by move at the end. With one
// thread and a fixed seed the search is deterministic.

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "search/mcts.hpp"
#include "search/player.hpp"

namespace bge::search {

template <Game G, MctsPolicy<G> Policy>
class MctsPlayer : public Player<G> {
public:
    using Tree = Mcts<G, Policy>;
    using Move = typename G::Move;

    // `make_policy` builds one policy per tree (policies may keep per-thread state).
    MctsPlayer(std::string name, std::function<Policy()> make_policy, MctsSettings settings = {}, int threads = 1,
               std::uint64_t seed = 1)
        : name_(std::move(name)), make_policy_(std::move(make_policy)), settings_(settings), seed_(seed) {
        resize(threads);
    }

    std::string name() const override { return name_; }

    // New settings or thread count take effect from the next search (trees are rebuilt when
    // they change, since their shape depends on them).
    void configure(const MctsSettings& settings, int threads, std::uint64_t seed) {
        const bool same = settings.puct == settings_.puct && settings.graph == settings_.graph &&
                          settings.memory_mib == settings_.memory_mib && seed == seed_;
        settings_ = settings;
        seed_ = seed;
        if (!same || static_cast<int>(trees_.size()) != threads) {
            trees_.clear();
            resize(threads);
        }
        for (auto& tree : trees_) tree->settings() = settings_;
    }

    Tree& tree(std::size_t i = 0) { return *trees_[i]; }

    void new_game() override {
        for (auto& tree : trees_) tree->clear();
    }

    // MCTS has no depth: `bench <depth>` and `go depth <d>` mean iterations_per_depth * d.
    static constexpr std::uint64_t iterations_per_depth = 1000;
    Limits bench_limits(int depth) const override {
        Limits limits;
        limits.nodes = iterations_per_depth * static_cast<std::uint64_t>(depth);
        return limits;
    }

    SearchResult<G> search(const SearchRequest<G>& request, const SearchControl<G>& control) override {
        const std::size_t count = trees_.size();
        std::optional<std::uint64_t> share;
        std::optional<std::uint64_t> total = request.limits.nodes;
        if (!total && request.limits.depth) total = iterations_per_depth * static_cast<std::uint64_t>(*request.limits.depth);
        if (total) share = std::max<std::uint64_t>(1, *total / count);
        SearchResult<G> result = search_trees(request, control, share);
        if (settings_.solver && result.has_move && result.score <= -(win_score - 1))
            return resist(request, control, total, result);
        return result;
    }

private:
    SearchResult<G> search_trees(const SearchRequest<G>& request, const SearchControl<G>& control,
                                 std::optional<std::uint64_t> share) {
        const std::size_t count = trees_.size();
        if (count == 1) return trees_[0]->search(request, control, share);

        // Helpers search silently; the first tree reports while it runs.
        SearchControl<G> quiet;
        quiet.stop = control.stop;
        std::vector<SearchResult<G>> results(count);
        {
            std::vector<std::jthread> helpers;
            for (std::size_t i = 1; i < count; ++i)
                helpers.emplace_back([&, i] { results[i] = trees_[i]->search(request, quiet, share); });
            results[0] = trees_[0]->search(request, control, share, false);
        }
        return merge(request, control, results);
    }

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
        Tree fallback(trees_[0]->policy(), heuristic, seed_);
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

    void resize(int threads) {
        for (int i = static_cast<int>(trees_.size()); i < std::max(1, threads); ++i)
            trees_.push_back(std::make_unique<Tree>(make_policy_(), settings_, seed_ + static_cast<std::uint64_t>(i)));
    }

    // Sums each root move's visits over the trees; proven results from any tree count.
    SearchResult<G> merge(const SearchRequest<G>& request, const SearchControl<G>& control,
                          const std::vector<SearchResult<G>>& results) {
        std::vector<typename Tree::RootChild> merged;
        std::vector<double> value_weight;
        std::uint64_t nodes = 0;
        for (std::size_t t = 0; t < trees_.size(); ++t) {
            nodes += results[t].nodes;
            for (const auto& child : trees_[t]->root_children()) {
                auto found = std::find_if(merged.begin(), merged.end(), [&](const auto& m) { return m.move == child.move; });
                if (found == merged.end()) {
                    merged.push_back(child);
                    merged.back().value = child.value * static_cast<float>(child.visits);
                    continue;
                }
                found->visits += child.visits;
                found->value += child.value * static_cast<float>(child.visits);
                if (child.proven != 0) found->proven = child.proven;
                found->proven_draw = found->proven_draw || child.proven_draw;
            }
        }
        SearchResult<G> result;
        if (merged.empty()) return result;
        for (auto& child : merged) child.value = child.visits ? child.value / static_cast<float>(child.visits) : 0.0f;
        const auto& best = merged[Tree::best_child(merged)];
        result.best = best.move;
        result.has_move = true;
        result.nodes = nodes;
        result.score = best.proven == 1    ? win_score - 1
                       : best.proven == -1 ? -(win_score - 1)
                                           : Tree::value_to_cp(best.value, settings_.cp_scale);
        if (control.report) {
            Report<G> report;
            auto pv = trees_[0]->principal_variation();
            if (pv.empty() || !(pv.front() == best.move)) pv = {best.move};
            report.depth = std::max(1, static_cast<int>(pv.size()));
            for (const auto& tree : trees_) report.seldepth = std::max(report.seldepth, tree->max_depth());
            report.score = result.score;
            report.nodes = nodes;
            report.time_ms = std::chrono::duration_cast<Milliseconds>(Clock::now() - request.start).count();
            report.pv = pv;
            std::uint64_t visits = 0;
            for (const auto& child : merged) visits += child.visits;
            int full = 0;
            for (const auto& tree : trees_) full = std::max(full, tree->permille_full());
            report.extra = fmt::format("visits {} winrate {:.4f} hashfull {}", visits,
                                       best.proven == 1    ? 1.0f
                                       : best.proven == -1 ? 0.0f
                                                           : (best.value + 1.0f) / 2.0f,
                                       full);
            control.report(report);
        }
        return result;
    }

    std::string name_;
    std::function<Policy()> make_policy_;
    MctsSettings settings_;
    std::uint64_t seed_;
    std::vector<std::unique_ptr<Tree>> trees_;
};

}  // namespace bge::search
