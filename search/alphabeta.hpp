#pragma once
// Alpha-beta, written once for every two-player game without chance nodes: iterative deepening,
// principal variation search, a transposition table, killer and history move ordering, late move
// reductions and a quiescence hook. The game supplies rules through the Game concept; the engine
// supplies an evaluator:
//
//   int evaluate(const State&)                  score for the side to move (required)
//   int order_hint(const State&, const Move&)   a guess of the move's merit for ordering (optional)
//   void noisy_moves(const State&, MoveList&)   moves quiescence should still try (optional)
//   bool null_move_allowed(const State&)        whether a null move is safe here (optional)
//   std::optional<Move> winning_move(State&)    a move that wins on the spot for the side to move
//                                               (optional; every node then scores it at once)
//   int evaluate_quiet(const State&)            evaluate, for a side to move known to have no win
//                                               on the spot (optional; with winning_move)
//   bool threatened(State&)                     the opponent would win on the spot if it moved now
//                                               (optional; quiescence then searches every answer
//                                               instead of standing pat, and the main search may
//                                               extend such nodes)
//   bool threat_extends(State&)                 whether a threatened node is worth the extension
//                                               (optional; without it every threatened node is)
//   std::optional<ForcedWin<Move>> forced_win(State&)
//                                               a threat-space search's proof that the side to move
//                                               wins by force (optional; asked at nodes with at
//                                               least threat_search_depth plies left)
//   bool is_quiet(const State&, const Move&)    the move neither makes nor stops a threat, so late
//                                               move and futility pruning may skip it (optional;
//                                               without it every move but killers counts as quiet)
//
// Turns that do not alternate are handled: a child is negated only when the side to move changes.
//
// Threads (Lazy SMP): with set_threads(n > 1), n - 1 helpers search the same root at the same time,
// each with its own copy of the evaluator, its own killers and history, and every iteration depth
// but the last skipped by a staggered pattern, so that the threads spread over depths (under a
// depth limit, helper 1 skips the depth before the last, to start the last one early). They share
// the transposition table (lockless), which is how their work reaches the main thread, and a
// small set of the positions being searched now: a move into one of them (not a node's first
// move) is put off to the end of its node's list, so that two threads seldom search the same
// subtree at once (ABDADA's idea, simplified). The main thread alone reports and keeps the clock;
// when a helper completes an iteration as deep as the main thread's current one, the main thread
// drops its own, reports the helper's, takes its move and goes on from there. The search ends for
// all threads at once; `go nodes N` counts the nodes of all. With one thread no helper exists and
// the search is the single-threaded one, node for node.

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/game.hpp"
#include "search/player.hpp"
#include "search/transposition_table.hpp"

namespace bge::search {

template <class E, class G>
concept AlphaBetaEvaluator = Game<G> && requires(E& evaluator, const typename G::State& state) {
    { evaluator.evaluate(state) } -> std::convertible_to<int>;
};

// Games where "passing" makes sense to the search (not as a legal move): null-move pruning.
template <class G>
concept NullMoveGame = Game<G> && requires(typename G::State& state, const typename G::Undo& undo) {
    { G::play_null(state) } -> std::same_as<typename G::Undo>;
    { G::undo_null(state, undo) } -> std::same_as<void>;
};

struct AlphaBetaSettings {
    int max_depth = 64;
    bool late_move_reductions = true;
    // Null-move pruning: at non-PV nodes at least this deep, if the static evaluation already
    // beats beta, let the opponent move twice at reduced depth; a score still >= beta cuts off.
    // Needs NullMoveGame; the evaluator may veto it (null_move_allowed) where passing is unsafe.
    bool null_move = false;
    int null_move_min_depth = 3;
    int null_move_reduction = 2;
    // With a `threatened` hook: quiescence answers a threat for at most this many plies below the
    // horizon, and the main search extends a threatened node by one ply (at most as often as the
    // nominal depth, along one line).
    int quiescence_answer_plies = 0;
    bool threat_extension = false;
    // Aspiration windows: from this depth on, each iteration first searches a window of
    // +-aspiration_window around the last score, widening on a fail. 0: full windows.
    int aspiration_window = 0;
    int aspiration_min_depth = 5;
    // Adaptive time: with a clock, the soft limit grows when the best move changed in the last
    // iteration, when the score fell, or when the side to move is threatened, and shrinks when
    // the best move has held for three iterations (Stockfish's "best move instability").
    bool adaptive_time = false;
    // Reverse futility pruning: at non-PV nodes up to this depth, not threatened, a static
    // evaluation at least static_prune_margin * depth above beta returns it. 0: off.
    int static_prune_depth = 0;
    int static_prune_margin = 100;
    // Late move reductions by log(depth) * log(move number) / lmr_divisor + lmr_base (in
    // hundredths) instead of the fixed one or two plies; 0: the fixed rule.
    int lmr_divisor = 0;
    int lmr_base = 50;
    // Late move pruning: at non-PV nodes up to this depth, not threatened, once
    // late_move_pruning_base + depth * depth moves were searched, quiet moves are skipped. 0: off.
    int late_move_pruning_depth = 0;
    int late_move_pruning_base = 3;
    // Futility pruning: at non-PV nodes up to this depth, not threatened, when the static
    // evaluation plus futility_margin * depth cannot reach alpha, quiet moves after the first are
    // skipped. 0: off.
    int futility_depth = 0;
    int futility_margin = 100;
    // With a forced_win hook: nodes with at least this many plies left ask it first. 0: never.
    int threat_search_depth = 0;
    // With `go movetime`, start new iterations until the time is up (the last one is cut off)
    // instead of stopping at half of it.
    bool use_whole_move_time = false;
    // A node with at most this many moves (1: a forced reply, such as blocking Gomoku's four)
    // searches them one ply deeper: the pair of plies then costs one, so long forcing lines fit
    // in the depth (along one line at most as often as the nominal depth). 0: off.
    int forced_reply_moves = 0;
    // Move count pruning at every non-root node (Stockfish's and Rapfi's): once a non-losing move
    // is known, quiet moves after the first 3 + depth^1.32 are skipped, half as many when the
    // static evaluation is not improving on two plies before.
    bool move_count_pruning = false;
    // Reductions by the evaluator's order hint: a move whose hint lies h below the node's best
    // hint is reduced by another min(h / hint_reduction_step - 1, 4) plies. 0: off.
    int hint_reduction_step = 0;
};

// A forced win found by the evaluator's own threat search: its first move and its length.
template <class Move>
struct ForcedWin {
    Move first;
    int plies = 1;
};

template <Game G, AlphaBetaEvaluator<G> Evaluator>
class AlphaBeta {
    static_assert(!StochasticGame<G>, "alpha-beta does not handle chance nodes; use expectimax");

public:
    using State = typename G::State;
    using Move = typename G::Move;
    static constexpr int max_ply = 128;

    explicit AlphaBeta(Evaluator evaluator = {}, std::size_t hash_megabytes = 16)
        : AlphaBeta(std::move(evaluator), std::make_shared<Table>(hash_megabytes), 0) {}

    AlphaBetaSettings& settings() { return settings_; }
    Evaluator& evaluator() { return evaluator_; }
    void set_hash_megabytes(std::size_t megabytes) {
        if (megabytes != table_->megabytes()) table_->resize(megabytes);
    }
    // Threads searching each move (Lazy SMP); 1: this thread alone. Helpers keep their killers
    // and history from move to move, as the main thread does.
    void set_threads(int threads) {
        const auto helpers = static_cast<std::size_t>(std::max(1, threads) - 1);
        while (helpers_.size() > helpers) helpers_.pop_back();
        while (helpers_.size() < helpers)
            helpers_.push_back(std::unique_ptr<AlphaBeta>(new AlphaBeta(evaluator_, table_, helpers_.size() + 1)));
    }
    int threads() const { return static_cast<int>(helpers_.size()) + 1; }
    // Forgets everything learned, so a new game searches exactly as in a fresh process.
    void clear() {
        table_->clear();
        for (auto* worker : workers()) {
            for (auto& row : worker->history_) row.fill(0);
            for (PlyData& ply : worker->plies_) ply.has_killer[0] = ply.has_killer[1] = false;
        }
    }

    SearchResult<G> search(const SearchRequest<G>& request, const SearchControl<G>& control) {
        control_ = &control;
        published_nodes_ = 0;
        limits_ = request.limits;
        start_ = request.start;
        budget_ = plan_time(request.limits, G::side_to_move(request.root), request.start);
        nodes_ = 0;
        aborted_ = superseded_ = false;
        seldepth_ = 0;
        path_.assign(request.history.begin(), request.history.end());
        if (!is_helper()) table_->new_search();
        for (auto& row : history_)
            for (auto& value : row) value /= 8;  // age the history between moves

        State root = request.root;
        SearchResult<G> result;
        collect_root_moves(root, request.search_moves);
        if (root_moves_.empty()) return result;
        result.best = root_moves_.front().move;
        result.has_move = true;

        // A win in one is taken whatever the limits.
        for (const RootMove& candidate : root_moves_) {
            ++nodes_;
            const Side us = G::side_to_move(root);
            const auto record = G::play(root, candidate.move);
            const bool wins = G::outcome(root).is_win_for(us);
            G::undo(root, candidate.move, record);
            if (wins) {
                result.best = candidate.move;
                result.score = win_score - 1;
                result.nodes = nodes_;
                report_now(1, win_score - 1, {candidate.move});
                return result;
            }
        }

        // Helpers run from here until the main thread's search ends, whatever ends it.
        Coordination coordination;
        std::vector<std::jthread> running;
        struct Finish {
            AlphaBeta& main;
            Coordination& coordination;
            std::vector<std::jthread>& running;
            void stop_helpers() {
                coordination.stop.store(true, std::memory_order_relaxed);
                running.clear();  // joins
            }
            ~Finish() {
                stop_helpers();
                if (!main.is_helper()) main.shared_ = nullptr;
            }
        } finish{*this, coordination, running};
        if (!is_helper() && !helpers_.empty()) {
            shared_ = &coordination;
            coordination.node_limit = limits_.nodes.value_or(0);
            for (auto& helper : helpers_) {
                helper->evaluator_ = evaluator_;
                helper->settings_ = settings_;
                running.emplace_back([&request, &coordination, worker = helper.get()] { worker->help(request, coordination); });
            }
        }

        const int depth_limit = std::min(limits_.depth.value_or(settings_.max_depth), settings_.max_depth);
        int previous_score = 0;
        int stable_iterations = 0;
        const bool root_threatened = settings_.adaptive_time && threatened(root);
        for (int depth = 1; depth <= std::max(1, depth_limit); ++depth) {
            // A helper never skips the last depth: it may finish it first.
            if (is_helper() && depth < depth_limit && skips(depth, depth_limit)) continue;
            searching_depth_ = depth;
            const Move best_before = root_moves_.front().move;
            const int score = search_root_aspirated(root, depth, previous_score);
            const int score_before = previous_score;
            previous_score = score;
            if (aborted_ && !superseded_) {
                // A helper that completed this depth (or a deeper one) knows best. Otherwise: a
                // cut-off iteration still searched the previous best move first; once that search
                // completed, the best move found so far is at least as well founded.
                const bool adopted = shared_ && !is_helper() && adopt_helper_result(depth - 1, result);
                if (!adopted && iteration_best_) {
                    result.best = *iteration_best_;
                    result.score = score;
                    report_now(depth, score, principal_variation());
                }
                break;
            }
            const bool superseded = superseded_;
            if (superseded) {
                // A helper completed this depth first: the main thread takes its result below and
                // goes on from there.
                aborted_ = superseded_ = false;
            } else {
                result.best = root_moves_.front().move;
                result.score = score;
                if (is_helper()) {
                    publish(depth, score);
                    continue;
                }
                report_now(depth, score, principal_variation());
            }
            if (shared_) {
                if (const auto adopted = adopt_helper_result(superseded ? depth - 1 : depth, result)) {
                    depth = *adopted;
                    previous_score = result.score;
                }
            }
            if (root_moves_.size() == 1 && !limits_.infinite && !limits_.depth && !limits_.nodes) break;
            if (is_decisive(result.score) && win_score - std::abs(result.score) <= depth && !limits_.infinite) break;
            if (budget_.soft && !limits_.infinite) {
                const auto elapsed = Clock::now() - start_;
                double scale = 1.0;
                if (settings_.adaptive_time && depth >= 4) {
                    stable_iterations = root_moves_.front().move == best_before ? stable_iterations + 1 : 0;
                    if (stable_iterations == 0)
                        scale = 1.6;
                    else if (stable_iterations >= 3)
                        scale = 0.7;
                    if (result.score < score_before - 50) scale *= 1.4;
                    if (root_threatened) scale *= 1.3;
                }
                // The next iteration costs a multiple of this one: do not start what cannot finish.
                // With a fixed time per move a cut-off iteration still improves the move (its
                // first move is searched first), so the whole time may be used.
                const auto soft = std::chrono::duration_cast<Clock::duration>((*budget_.soft - start_) * scale);
                const bool fixed_time = settings_.use_whole_move_time && limits_.move_time_ms.has_value();
                if (elapsed >= (fixed_time ? soft : soft / 2)) break;
            }
        }
        finish.stop_helpers();  // every thread's nodes are counted once all have ended

        result.nodes = total_nodes();
        return result;
    }

    std::uint64_t nodes() const { return nodes_; }

private:
    struct RootMove {
        Move move;
        int score;
    };
    struct ScoredMove {
        Move move;
        int score;
        int hint;  // the evaluator's order hint alone
    };
    // A move put off: its place in the node's order (`ordered` keeps every place already passed,
    // and the first move, the only one that may be the table move, is never put off).
    struct Deferred {
        std::uint16_t index;
        bool reducible;
    };
    struct PlyData {
        MoveList<G> moves;
        FixedVector<ScoredMove, G::max_moves> ordered;
        Move killers[2]{};
        bool has_killer[2] = {false, false};
        FixedVector<Deferred, G::max_moves> deferred;  // moves put off while another thread searched them
        Move pv[max_ply + 1];
        int pv_length = 0;
        bool after_null = false;  // the move into this ply was a null move
        int static_eval = 0;      // this node's static evaluation, where has_static_eval
        bool has_static_eval = false;
        int top_hint = 0;         // the best order hint among the moves scored here
    };

    using Table = TranspositionTable<Move>;

    // What the threads of one search share besides the table.
    struct Coordination {
        std::atomic<bool> stop{false};  // the helpers' stop flag: the main thread's search ended
        std::atomic<std::uint64_t> helper_nodes{0};
        // Under `go nodes N`: N, and the main thread's nodes as of its last look (every 128), so
        // that helpers stop at N too when the main thread waits for a core.
        std::uint64_t node_limit = 0;
        std::atomic<std::uint64_t> main_nodes{0};
        // Positions being searched now, by hash, one slot per hash's low bits (a lossy set).
        std::array<std::atomic<std::uint64_t>, 4096> searching{};
        bool busy(std::uint64_t hash) const {
            return searching[hash % searching.size()].load(std::memory_order_relaxed) == hash;
        }
        void mark_busy(std::uint64_t hash) { searching[hash % searching.size()].store(hash, std::memory_order_relaxed); }
        void unmark_busy(std::uint64_t hash) {
            std::uint64_t expected = hash;
            searching[hash % searching.size()].compare_exchange_strong(expected, 0, std::memory_order_relaxed);
        }
        // The deepest iteration a helper completed; atomic for the main thread's look every 128
        // nodes. It changes, with the fields below, only under the mutex.
        std::atomic<int> completed_depth{0};
        std::mutex mutex;  // guards the deepest completed iteration's result:
        int score = 0;
        Move best{};
        std::vector<Move> pv;
    };

    AlphaBeta(Evaluator evaluator, std::shared_ptr<Table> table, std::size_t helper_index)
        : evaluator_(std::move(evaluator)),
          table_(std::move(table)),
          plies_(max_ply + 1),
          helper_index_(helper_index) {}

    bool is_helper() const { return helper_index_ > 0; }
    std::vector<AlphaBeta*> workers() {
        std::vector<AlphaBeta*> all{this};
        for (auto& helper : helpers_) all.push_back(helper.get());
        return all;
    }

    // A helper's whole search: the same root, no clock and no node limit of its own (the main
    // thread's end stops it), silent.
    void help(const SearchRequest<G>& request, Coordination& coordination) {
        shared_ = &coordination;
        SearchRequest<G> own = request;
        own.limits = {};
        own.limits.depth = request.limits.depth;
        SearchControl<G> quiet;
        quiet.stop = &coordination.stop;
        search(own, quiet);
        coordination.helper_nodes.fetch_add(nodes_ - published_nodes_, std::memory_order_relaxed);
        shared_ = nullptr;
    }

    // Stockfish 10's pattern: helper i searches depth d unless ((d + phase) / size) is odd, so
    // that at any time the threads are spread over a few neighbouring depths. Under a depth limit
    // L the pattern counts d back from L instead, so that helper 1 skips L - 1 and gets a head
    // start on L while the main thread completes L - 1 (measured: a shorter time to depth than
    // the pattern counted from 1, whose parity at L = 7 made both threads start 7 together).
    bool skips(int depth, int depth_limit) const {
        static constexpr int size[20] = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
        static constexpr int phase[20] = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7};
        const std::size_t i = (helper_index_ - 1) % 20;
        const int counted = limits_.depth ? depth_limit - depth : depth;
        return ((counted + phase[i]) / size[i]) % 2 == 1;
    }

    // A helper's completed iteration, kept when it is the deepest so far.
    void publish(int depth, int score) {
        std::lock_guard lock(shared_->mutex);
        if (depth <= shared_->completed_depth) return;
        shared_->completed_depth = depth;
        shared_->score = score;
        shared_->best = root_moves_.front().move;
        shared_->pv = principal_variation();
    }

    // When a helper completed an iteration deeper than `depth`, the main thread reports it and
    // plays its move; returns that iteration's depth.
    std::optional<int> adopt_helper_result(int depth, SearchResult<G>& result) {
        Report<G> report;
        {
            std::lock_guard lock(shared_->mutex);
            if (shared_->completed_depth <= depth) return std::nullopt;
            report.depth = shared_->completed_depth;
            result.best = shared_->best;
            result.score = shared_->score;
            report.pv = shared_->pv;
        }
        // The adopted move goes first in the main thread's next iteration.
        const auto found = std::find_if(root_moves_.begin(), root_moves_.end(),
                                        [&](const RootMove& root_move) { return root_move.move == result.best; });
        if (found != root_moves_.end()) std::rotate(root_moves_.begin(), found, found + 1);
        report_now(report.depth, result.score, report.pv);
        return report.depth;
    }

    std::uint64_t total_nodes() const {
        return nodes_ + (shared_ && !is_helper() ? shared_->helper_nodes.load(std::memory_order_relaxed) : 0);
    }

    static constexpr int infinity = win_score + 1;
    static constexpr int busy_min_depth = 3;  // nodes nearer the leaves neither mark nor defer
    static_assert(G::max_moves <= 65536, "Deferred keeps a move's place in 16 bits");
    static constexpr int table_move_score = 1 << 30;
    static constexpr int killer_score = 1 << 29;

    static std::size_t move_key(const Move& move) {
        if constexpr (sizeof(Move) <= 2) {
            std::uint16_t bits = 0;
            std::memcpy(&bits, &move, sizeof(Move));
            return bits;
        } else {
            std::uint64_t bits = 0;
            std::memcpy(&bits, &move, std::min(sizeof(Move), sizeof(bits)));
            return static_cast<std::size_t>((bits * 0x9E3779B97F4A7C15ULL) >> 48);
        }
    }

    void collect_root_moves(const State& root, const std::vector<Move>& allowed) {
        root_moves_.clear();
        if (G::outcome(root).is_over()) return;
        PlyData& data = plies_[0];
        G::generate_moves(root, data.moves);
        for (const Move& move : data.moves)
            if (allowed.empty() || std::find(allowed.begin(), allowed.end(), move) != allowed.end())
                root_moves_.push_back({move, hint(root, move)});
        if (root_moves_.empty())  // none of the allowed moves is generated here: ignore the filter
            for (const Move& move : data.moves) root_moves_.push_back({move, hint(root, move)});
        std::stable_sort(root_moves_.begin(), root_moves_.end(),
                         [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
    }

    bool null_move_allowed(const State& state) {
        if constexpr (requires { evaluator_.null_move_allowed(state); })
            return evaluator_.null_move_allowed(state);
        else
            return true;
    }

    std::optional<Move> winning_move(State& state) {
        if constexpr (requires { { evaluator_.winning_move(state) } -> std::same_as<std::optional<Move>>; })
            return evaluator_.winning_move(state);
        else
            return std::nullopt;
    }

    std::optional<ForcedWin<Move>> forced_win(State& state) {
        if constexpr (requires { { evaluator_.forced_win(state) } -> std::same_as<std::optional<ForcedWin<Move>>>; })
            return evaluator_.forced_win(state);
        else
            return std::nullopt;
    }

    bool threatened(State& state) {
        if constexpr (requires { { evaluator_.threatened(state) } -> std::convertible_to<bool>; })
            return evaluator_.threatened(state);
        else
            return false;
    }

    bool threat_extends(State& state) {
        if constexpr (requires { { evaluator_.threat_extends(state) } -> std::convertible_to<bool>; })
            return evaluator_.threat_extends(state);
        else
            return true;
    }

    // The evaluation where winning_move has just found nothing (every stand-pat and null-move
    // test comes after that check).
    int quiet_evaluate(const State& state) {
        if constexpr (requires { { evaluator_.evaluate_quiet(state) } -> std::convertible_to<int>; })
            return evaluator_.evaluate_quiet(state);
        else
            return evaluator_.evaluate(state);
    }

    bool is_quiet(const State& state, const Move& move, int order_score) {
        if (order_score >= killer_score - 1) return false;  // the table move and killers
        if constexpr (requires { { evaluator_.is_quiet(state, move) } -> std::convertible_to<bool>; })
            return evaluator_.is_quiet(state, move);
        else
            return true;
    }

    int hint(const State& state, const Move& move) {
        if constexpr (requires { evaluator_.order_hint(state, move); })
            return evaluator_.order_hint(state, move);
        else
            return 0;
    }

    bool out_of_budget() {
        if (aborted_) return true;
        if (limits_.nodes && total_nodes() >= *limits_.nodes && searching_depth_ > 0) return aborted_ = true;
        // A helper counts its nodes in and looks at its stop flag every 128 nodes, whether or not
        // quiescence's own counting skipped a multiple of 128.
        if (shared_ && is_helper() && nodes_ - published_nodes_ >= 128) {
            shared_->helper_nodes.fetch_add(nodes_ - published_nodes_, std::memory_order_relaxed);
            published_nodes_ = nodes_;
            if (control_->stopped()) return aborted_ = true;
            if (shared_->node_limit > 0 && shared_->helper_nodes.load(std::memory_order_relaxed) +
                                                   shared_->main_nodes.load(std::memory_order_relaxed) >=
                                               shared_->node_limit)
                return aborted_ = true;
        }
        if ((nodes_ & 127) != 0) return false;  // a few hundred microseconds at most
        if (shared_ && !is_helper()) shared_->main_nodes.store(nodes_, std::memory_order_relaxed);
        if (control_->stopped()) return aborted_ = true;
        // The main thread drops an iteration that a helper has completed already.
        if (shared_ && !is_helper() && shared_->completed_depth.load(std::memory_order_relaxed) >= searching_depth_)
            return aborted_ = superseded_ = true;
        // The first iteration may stop once one root move is fully searched (a move to play).
        if ((searching_depth_ > 1 || iteration_best_) && budget_.hard && Clock::now() >= *budget_.hard)
            return aborted_ = true;
        return false;
    }

    int terminal_score(const Outcome& outcome, Side to_move, int ply) const {
        if (outcome.kind == OutcomeKind::draw) return 0;
        return outcome.winner == to_move ? win_score - ply : -(win_score - ply);
    }

    // Score of the child position from the parent mover's point of view.
    int child_score(State& state, Side parent_mover, int depth, int alpha, int beta, int ply) {
        if (G::side_to_move(state) == parent_mover) return negamax(state, depth, alpha, beta, ply);
        return -negamax(state, depth, -beta, -alpha, ply);
    }

    // One iteration, in a window around the last score when aspiration is on; a score outside the
    // window is searched again with that side of the window widened, four times as wide each time.
    int search_root_aspirated(State& root, int depth, int previous) {
        if (settings_.aspiration_window <= 0 || depth < settings_.aspiration_min_depth || is_decisive(previous))
            return search_root(root, depth, -infinity, infinity);
        int delta = settings_.aspiration_window;
        int alpha = std::max(-infinity, previous - delta);
        int beta = std::min(infinity, previous + delta);
        while (true) {
            const int score = search_root(root, depth, alpha, beta);
            if (aborted_) return score;
            if (score <= alpha && alpha > -infinity) {
                delta *= 4;
                alpha = delta > win_threshold / 2 ? -infinity : std::max(-infinity, previous - delta);
            } else if (score >= beta && beta < infinity) {
                delta *= 4;
                beta = delta > win_threshold / 2 ? infinity : std::min(infinity, previous + delta);
            } else {
                return score;
            }
        }
    }

    int search_root(State& root, int depth, int alpha, const int beta) {
        PlyData& data = plies_[0];
        data.pv_length = 0;
        iteration_best_.reset();
        const int original_alpha = alpha;
        const Side us = G::side_to_move(root);
        // As in negamax: with helpers, a root move another thread is searching waits.
        const bool mark_busy = shared_ != nullptr;
        std::vector<std::size_t> deferred;
        enum class Step { searched, deferred, fail_high };
        auto search_move = [&](std::size_t i, bool may_defer) {
            RootMove& candidate = root_moves_[i];
            const auto record = G::play(root, candidate.move);
            const std::uint64_t child = G::hash(root);
            if (may_defer && i > 0 && shared_->busy(child)) {
                G::undo(root, candidate.move, record);
                return Step::deferred;
            }
            if (mark_busy) shared_->mark_busy(child);
            path_.push_back(child);
            int score;
            if (i == 0) {
                score = child_score(root, us, depth - 1, alpha, beta, 1);
            } else {
                score = child_score(root, us, depth - 1, alpha, alpha + 1, 1);
                if (score > alpha && !aborted_) score = child_score(root, us, depth - 1, alpha, beta, 1);
            }
            path_.pop_back();
            if (mark_busy) shared_->unmark_busy(child);
            G::undo(root, candidate.move, record);
            if (aborted_) return Step::searched;
            candidate.score = i == 0 || score > alpha ? score : -infinity;
            if (score > alpha) {
                alpha = score;
                iteration_best_ = candidate.move;
                update_pv(0, candidate.move);
            }
            if (score >= beta) {
                // A fail high: this move goes first in the re-search with a wider window.
                std::rotate(root_moves_.begin(), root_moves_.begin() + static_cast<std::ptrdiff_t>(i),
                            root_moves_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
                return Step::fail_high;
            }
            return Step::searched;
        };
        for (std::size_t i = 0; i < root_moves_.size(); ++i) {
            const Step step = search_move(i, mark_busy);
            if (aborted_) return std::max(alpha, original_alpha);
            if (step == Step::fail_high) return alpha;
            if (step == Step::deferred) deferred.push_back(i);
        }
        for (const std::size_t i : deferred) {
            const Step step = search_move(i, false);
            if (aborted_) return std::max(alpha, original_alpha);
            if (step == Step::fail_high) return alpha;
        }
        if (alpha <= original_alpha) return alpha;  // a fail low keeps the order for the re-search
        std::stable_sort(root_moves_.begin(), root_moves_.end(),
                         [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
        return alpha;
    }

    void update_pv(int ply, const Move& move) {
        PlyData& data = plies_[ply];
        PlyData& child = plies_[ply + 1];
        data.pv[0] = move;
        const int child_length = ply + 1 <= max_ply ? child.pv_length : 0;
        for (int i = 0; i < child_length && i + 1 <= max_ply; ++i) data.pv[i + 1] = child.pv[i];
        data.pv_length = std::min(child_length + 1, max_ply);
    }

    std::vector<Move> principal_variation() const {
        const PlyData& data = plies_[0];
        return std::vector<Move>(data.pv, data.pv + data.pv_length);
    }

    // Scores every move but the table move (searched first, before this is needed) for ordering.
    void score_moves(const State& state, PlyData& data, const Move* table_move) {
        const int side = index_of(G::side_to_move(state));
        data.ordered.clear();
        data.top_hint = -infinity;
        for (const Move& move : data.moves) {
            if (table_move && move == *table_move) continue;
            const int move_hint = hint(state, move);
            data.top_hint = std::max(data.top_hint, move_hint);
            int score;
            if (data.has_killer[0] && move == data.killers[0])
                score = killer_score;
            else if (data.has_killer[1] && move == data.killers[1])
                score = killer_score - 1;
            else
                score = history_[side][move_key(move)] + move_hint;
            data.ordered.push_back({move, score, move_hint});
        }
    }

    // Brings the best remaining move to position `cursor`. Most nodes cut off after a few
    // moves, so the first picks are selections; the tail is sorted once when reached.
    static void pick(PlyData& data, std::size_t cursor) {
        constexpr std::size_t selections = 6;
        auto& list = data.ordered;
        if (cursor < selections) {
            std::size_t best = cursor;
            for (std::size_t i = cursor + 1; i < list.size(); ++i)
                if (list[i].score > list[best].score) best = i;
            std::swap(list[cursor], list[best]);
        } else if (cursor == selections) {
            std::stable_sort(list.begin() + static_cast<std::ptrdiff_t>(cursor), list.end(),
                             [](const ScoredMove& a, const ScoredMove& b) { return a.score > b.score; });
        }
    }

    int negamax(State& state, int depth, int alpha, int beta, int ply) {
        PlyData& data = plies_[ply];
        data.pv_length = 0;
        data.has_static_eval = false;
        seldepth_ = std::max(seldepth_, ply);
        ++nodes_;
        if (out_of_budget()) return 0;

        const Side us = G::side_to_move(state);
        const Outcome outcome = G::outcome(state);
        if (outcome.is_over()) return terminal_score(outcome, us, ply);
        const std::uint64_t hash = G::hash(state);
        if (G::repetition_limit(state) > 0 && repeats_before_last(hash)) return 0;
        if (const auto win = winning_move(state)) {
            data.pv[0] = *win;
            data.pv_length = 1;
            return win_score - ply - 1;
        }
        // Whether the opponent threatens to win at once, asked only where an answer matters.
        std::optional<bool> threat_known;
        auto in_threat = [&] {
            if (!threat_known) threat_known = threatened(state);
            return *threat_known;
        };
        // The static evaluation, computed once per node by whichever pruning asks first.
        std::optional<int> evaluated;
        auto static_eval = [&] {
            if (!evaluated) evaluated = quiet_evaluate(state);
            return *evaluated;
        };
        if (settings_.threat_extension && ply < 2 * searching_depth_ && in_threat() && threat_extends(state)) ++depth;
        if (depth <= 0 || ply >= max_ply)
            return quiescence(state, alpha, beta, ply, 0, settings_.quiescence_answer_plies > 0 && in_threat());

        const bool pv_node = beta - alpha > 1;
        const Move* table_move = nullptr;
        Move stored_move{};
        if (const auto entry = table_->probe(hash)) {
            if (entry->has_move) {
                stored_move = entry->move;
                table_move = &stored_move;
            }
            if (!pv_node && entry->depth >= depth) {
                const int score = TranspositionTable<Move>::from_table(entry->score, ply);
                if (entry->bound == Bound::exact) return score;
                if (entry->bound == Bound::lower && score >= beta) return score;
                if (entry->bound == Bound::upper && score <= alpha) return score;
            }
        }

        if (settings_.threat_search_depth > 0 && depth >= settings_.threat_search_depth) {
            if (const auto win = forced_win(state)) {
                const int score = win_score - ply - std::max(1, win->plies);
                data.pv[0] = win->first;
                data.pv_length = 1;
                table_->store(hash, depth, score, Bound::exact, win->first, ply);
                return score;
            }
        }

        if (settings_.static_prune_depth > 0 && !pv_node && depth <= settings_.static_prune_depth &&
            !is_decisive(beta)) {
            if (static_eval() - settings_.static_prune_margin * depth >= beta && !in_threat()) return static_eval();
        }

        if constexpr (NullMoveGame<G>) {
            if (settings_.null_move && !pv_node && depth >= settings_.null_move_min_depth && !data.after_null &&
                !is_decisive(beta) && null_move_allowed(state) && static_eval() >= beta && !in_threat()) {
                const auto record = G::play_null(state);
                path_.push_back(G::hash(state));
                plies_[ply + 1].after_null = true;
                const int reduced = depth - 1 - settings_.null_move_reduction - depth / 6;
                const int score = -negamax(state, reduced, -beta, -beta + 1, ply + 1);
                plies_[ply + 1].after_null = false;
                path_.pop_back();
                G::undo_null(state, record);
                if (aborted_) return 0;
                if (score >= beta) return is_decisive(score) ? beta : score;
            }
        }

        G::generate_moves(state, data.moves);
        if (data.moves.empty()) return 0;  // a game with no move and no result: treat as a draw
        if (data.moves.size() <= static_cast<std::size_t>(settings_.forced_reply_moves) && ply < 2 * searching_depth_)
            ++depth;
        // A table move must be one of ours (a hash collision could suggest anything).
        if (table_move && std::find(data.moves.begin(), data.moves.end(), *table_move) == data.moves.end())
            table_move = nullptr;

        const int original_alpha = alpha;
        int best = -infinity;
        std::optional<Move> best_move;
        const std::size_t count = data.moves.size();
        const std::size_t table_first = table_move ? 1 : 0;
        // Pruning of quiet moves near the leaves, decided once per node.
        const bool may_prune = !pv_node && !is_decisive(alpha) && !is_decisive(beta) &&
                               ((settings_.late_move_pruning_depth > 0 && depth <= settings_.late_move_pruning_depth) ||
                                (settings_.futility_depth > 0 && depth <= settings_.futility_depth)) &&
                               !in_threat();
        const std::size_t late_move_count =
            may_prune && depth <= settings_.late_move_pruning_depth
                ? static_cast<std::size_t>(settings_.late_move_pruning_base + depth * depth)
                : count;
        const bool futile = may_prune && depth <= settings_.futility_depth &&
                            static_eval() + settings_.futility_margin * depth <= alpha;
        std::size_t move_count_limit = count;
        if (settings_.move_count_pruning && ply > 0) {
            data.static_eval = static_eval();
            data.has_static_eval = true;
            const PlyData* before = ply >= 2 ? &plies_[ply - 2] : nullptr;
            const bool improving = !before || !before->has_static_eval || data.static_eval > before->static_eval;
            const double limit = 3 + std::pow(static_cast<double>(depth), 1.32);
            move_count_limit = static_cast<std::size_t>(improving ? limit : limit / 2);
        }
        // With helpers (ABDADA's idea, simplified): a move whose position another thread is
        // searching right now waits until the other moves are searched; by then its result is
        // often in the table. The first move is never deferred.
        const bool mark_busy = shared_ && depth >= busy_min_depth;
        data.deferred.clear();
        enum class Step { searched, deferred, cut_off };
        auto search_move = [&](std::size_t i, const Move& move, bool reducible, bool may_defer) {
            const auto record = G::play(state, move);
            const std::uint64_t child = G::hash(state);
            if (may_defer && i > 0 && shared_->busy(child)) {
                G::undo(state, move, record);
                return Step::deferred;
            }
            if (mark_busy) shared_->mark_busy(child);
            path_.push_back(child);
            int score;
            if (i == 0) {
                score = child_score(state, us, depth - 1, alpha, beta, ply + 1);
            } else {
                int reduction = 0;
                if (reducible) {
                    reduction = reduction_for(depth, i);
                    if (settings_.hint_reduction_step > 0 && i >= table_first) {
                        const int below = data.top_hint - data.ordered[i - table_first].hint;
                        reduction += std::clamp(below / settings_.hint_reduction_step - 1, 0, 4);
                        reduction = std::clamp(reduction, 1, std::max(1, depth - 2));
                    }
                }
                score = child_score(state, us, depth - 1 - reduction, alpha, alpha + 1, ply + 1);
                if (score > alpha && reduction > 0 && !aborted_)
                    score = child_score(state, us, depth - 1, alpha, alpha + 1, ply + 1);
                if (score > alpha && score < beta && !aborted_)
                    score = child_score(state, us, depth - 1, alpha, beta, ply + 1);
            }
            path_.pop_back();
            if (mark_busy) shared_->unmark_busy(child);
            G::undo(state, move, record);
            if (aborted_) return Step::searched;

            if (score > best) {
                best = score;
                best_move = move;
                if (score > alpha) {
                    alpha = score;
                    update_pv(ply, move);
                    if (score >= beta) {
                        if (!(table_move && move == *table_move)) {
                            if (!(data.has_killer[0] && data.killers[0] == move)) {
                                data.killers[1] = data.killers[0];
                                data.has_killer[1] = data.has_killer[0];
                                data.killers[0] = move;
                                data.has_killer[0] = true;
                            }
                            int& h = history_[index_of(us)][move_key(move)];
                            h = std::min(h + depth * depth, 1 << 20);
                        }
                        return Step::cut_off;
                    }
                }
            }
            return Step::searched;
        };
        for (std::size_t i = 0; i < count; ++i) {
            Move move;
            int order_score = table_move_score;
            if (i < table_first) {
                move = *table_move;
            } else {
                if (i == table_first) score_moves(state, data, table_move);
                pick(data, i - table_first);
                move = data.ordered[i - table_first].move;
                order_score = data.ordered[i - table_first].score;
            }
            if (i > 0 && best > -win_threshold &&
                ((may_prune && (futile || i >= late_move_count)) || i >= move_count_limit) &&
                is_quiet(state, move, order_score))
                continue;
            const bool quiet_late = i >= 3 && order_score < killer_score - 1;
            // Asked before the move is played: in_threat() looks at this node's position.
            const bool reducible = settings_.late_move_reductions && depth >= 3 && quiet_late && !in_threat();
            const Step step = search_move(i, move, reducible, mark_busy);
            if (step == Step::deferred) data.deferred.push_back({static_cast<std::uint16_t>(i), reducible});
            if (step == Step::cut_off) break;
            if (aborted_) return 0;
        }
        // The deferred moves, last.
        for (std::size_t k = 0; k < data.deferred.size() && best < beta; ++k) {
            const Deferred later = data.deferred[k];
            const Move move = data.ordered[later.index - table_first].move;
            if (search_move(later.index, move, later.reducible, false) == Step::cut_off) break;
            if (aborted_) return 0;
        }
        const Bound bound = best >= beta ? Bound::lower : best > original_alpha ? Bound::exact : Bound::upper;
        table_->store(hash, depth, best, bound, best_move, ply);
        return best;
    }

    int reduction_for(int depth, std::size_t move_number) const {
        if (settings_.lmr_divisor <= 0) return move_number >= 12 ? 2 : 1;
        const double r = std::log(static_cast<double>(depth)) * std::log(static_cast<double>(move_number)) /
                             (settings_.lmr_divisor / 100.0) +
                         settings_.lmr_base / 100.0;
        return std::clamp(static_cast<int>(r), 1, depth - 2);
    }

    bool repeats_before_last(std::uint64_t hash) const {
        // path_ ends with this position's own hash; inside the search one earlier occurrence is
        // enough to call it a draw.
        for (std::size_t i = path_.size() - 1; i-- > 0;)
            if (path_[i] == hash) return true;
        return false;
    }

    // Below the horizon. `qply` counts plies below it; at qply 0 negamax has already looked for a
    // win on the spot and for a threat (`in_threat`). A threatened side gets every answer searched
    // (no standing pat: passing loses) for quiescence_answer_plies plies; otherwise the static
    // evaluation stands, and the evaluator's noisy moves may still improve on it.
    int quiescence(State& state, int alpha, int beta, int ply, int qply, bool in_threat) {
        const Side us = G::side_to_move(state);
        if (qply > 0) {
            if (const auto win = winning_move(state)) return win_score - ply - 1;
            in_threat = qply < settings_.quiescence_answer_plies && threatened(state);
        }
        if (in_threat && qply < settings_.quiescence_answer_plies && ply < max_ply) {
            if (out_of_budget()) return 0;
            PlyData& data = plies_[ply];
            G::generate_moves(state, data.moves);
            if (data.moves.empty()) return 0;
            score_moves(state, data, nullptr);
            int best = -infinity;
            for (std::size_t i = 0; i < data.ordered.size(); ++i) {
                pick(data, i);
                const Move move = data.ordered[i].move;
                const auto record = G::play(state, move);
                ++nodes_;
                seldepth_ = std::max(seldepth_, ply + 1);
                int score;
                const Outcome outcome = G::outcome(state);
                if (outcome.is_over())
                    score = terminal_score(outcome, us, ply + 1);
                else if (G::side_to_move(state) == us)
                    score = quiescence(state, alpha, beta, ply + 1, qply + 1, false);
                else
                    score = -quiescence(state, -beta, -alpha, ply + 1, qply + 1, false);
                G::undo(state, move, record);
                if (aborted_) return 0;
                if (score > best) best = score;
                if (score > alpha) alpha = score;
                if (alpha >= beta) break;
            }
            return best;
        }

        const int stand_pat = quiet_evaluate(state);
        if constexpr (requires(MoveList<G> & list) { evaluator_.noisy_moves(state, list); }) {
            if (stand_pat >= beta || ply >= max_ply) return stand_pat;
            // Chains of noisy moves can be long (Gomoku's fours): keep `stop` and the clock live.
            if (out_of_budget()) return 0;
            alpha = std::max(alpha, stand_pat);
            PlyData& data = plies_[ply];
            evaluator_.noisy_moves(state, data.moves);
            int best = stand_pat;
            for (std::size_t i = 0; i < data.moves.size(); ++i) {
                const Move move = data.moves[i];
                const auto record = G::play(state, move);
                ++nodes_;
                seldepth_ = std::max(seldepth_, ply + 1);
                int score;
                const Outcome outcome = G::outcome(state);
                if (outcome.is_over()) {
                    score = outcome.kind == OutcomeKind::draw ? 0
                            : outcome.winner == us            ? win_score - ply - 1
                                                              : -(win_score - ply - 1);
                } else if (G::side_to_move(state) == us) {
                    score = quiescence(state, alpha, beta, ply + 1, qply + 1, false);
                } else {
                    score = -quiescence(state, -beta, -alpha, ply + 1, qply + 1, false);
                }
                G::undo(state, move, record);
                if (aborted_) return 0;
                if (score > best) best = score;
                if (score > alpha) alpha = score;
                if (alpha >= beta) break;
            }
            return best;
        } else {
            (void)alpha;
            (void)beta;
            (void)ply;
            return stand_pat;
        }
    }

    void report_now(int depth, int score, const std::vector<Move>& pv) {
        if (!control_->report) return;
        Report<G> report;
        report.depth = depth;
        report.seldepth = std::max(seldepth_, depth);
        report.score = score;
        report.nodes = total_nodes();
        report.time_ms = std::chrono::duration_cast<Milliseconds>(Clock::now() - start_).count();
        report.pv = pv;
        report.extra = "hashfull " + std::to_string(table_->permille_full());
        control_->report(report);
    }

    Evaluator evaluator_;
    std::shared_ptr<Table> table_;  // shared with the helpers
    AlphaBetaSettings settings_;
    std::vector<PlyData> plies_;
    std::vector<RootMove> root_moves_;
    std::vector<std::uint64_t> path_;
    std::array<std::array<int, 65536>, 2> history_{};
    const SearchControl<G>* control_ = nullptr;
    Limits limits_;
    TimeBudget budget_;
    Clock::time_point start_;
    std::uint64_t nodes_ = 0;
    int seldepth_ = 0;
    int searching_depth_ = 0;
    bool aborted_ = false;
    bool superseded_ = false;  // the main thread's iteration was dropped: a helper completed it
    std::optional<Move> iteration_best_;  // best root move completed in this iteration

    std::size_t helper_index_ = 0;  // 0: the main thread
    std::vector<std::unique_ptr<AlphaBeta>> helpers_;
    Coordination* shared_ = nullptr;      // during a search with helpers
    std::uint64_t published_nodes_ = 0;   // a helper's nodes already added to helper_nodes
};

}  // namespace bge::search
