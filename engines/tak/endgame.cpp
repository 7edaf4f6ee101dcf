#include "engines/tak/endgame.hpp"

#include <algorithm>
#include <limits>

#include "core/tak/bitboard.hpp"
#include "engines/tak/roads.hpp"

namespace bge::tak {

namespace {

constexpr int max_solver_plies = 100;  // the table keeps plies in a signed byte

constexpr Bitboard row_mask(int row) { return Bitboard{0xFF} << (8 * row); }
constexpr Bitboard column_mask(int column) { return Bitboard{0x0101010101010101ULL} << column; }

// The squares of the one row or column that holds every square of `squares`, or 0 when they are
// spread over more than one of each.
Bitboard line_through(Bitboard squares) {
    const int first = lowest_square(squares);
    if ((squares & ~row_mask(first / 8)) == 0) return row_mask(first / 8);
    if ((squares & ~column_mask(first % 8)) == 0) return column_mask(first % 8);
    return 0;
}

std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

}  // namespace

int placements_to_end(const State& s) {
    const int empty = popcount(geometry(s.size).board & ~s.occupied());
    return std::min({empty, pieces_left(s, Side::first), pieces_left(s, Side::second)});
}

EndgameSolver::EndgameSolver(std::size_t table_entries) {
    std::size_t size = 1;
    while (size * 2 <= std::max<std::size_t>(table_entries, 1)) size *= 2;
    mask_ = size - 1;
}

void EndgameSolver::clear() { std::fill(table_.begin(), table_.end(), Entry{}); }

MoveList<Tak>& EndgameSolver::moves_at(int level) {
    while (static_cast<int>(move_lists_.size()) <= level) move_lists_.push_back(std::make_unique<MoveList<Tak>>());
    return *move_lists_[static_cast<std::size_t>(level)];
}

std::uint64_t EndgameSolver::key_of(const State& s) const {
    // Results depend on komi and size, which the position's hash leaves out.
    const std::uint64_t question = static_cast<std::uint64_t>(index_of(attacker_)) |
                                   (static_cast<std::uint64_t>(goal_) << 1) |
                                   (static_cast<std::uint64_t>(s.size) << 2) |
                                   (static_cast<std::uint64_t>(s.half_komi + 128) << 6);
    return s.hash ^ mix(question);
}

EndgameSolver::Entry* EndgameSolver::probe(const State& s) {
    const std::uint64_t key = key_of(s);
    Entry& entry = table_[key & mask_];
    return entry.key == key ? &entry : nullptr;
}

void EndgameSolver::store(const State& s, int plies, bool proven, Move best) {
    const std::uint64_t key = key_of(s);
    Entry& entry = table_[key & mask_];
    if (entry.key != key) entry = Entry{key};
    const auto depth = static_cast<std::int8_t>(plies);
    if (proven) {
        if (entry.proven < 0 || depth < entry.proven) entry.proven = depth;
    } else {
        entry.refuted = std::max(entry.refuted, depth);
    }
    if (!(best == Move::none())) entry.best = best;
}

bool EndgameSolver::reached(const Outcome& o, Side side, Goal goal) const {
    if (o.kind == OutcomeKind::win) return o.winner == side;
    return o.kind == OutcomeKind::draw && goal == Goal::at_least_draw;
}

bool EndgameSolver::ends_at_once(State& s, Goal goal, Move* found) {
    if (s.in_opening()) return false;
    const Side side = s.side_to_move();
    const Geometry& g = geometry(s.size);
    const Bitboard empty = g.board & ~s.occupied();
    const int empties = popcount(empty);
    const int own = index_of(side);
    // The last piece, or the last empty square, ends the game. A flat counts one more than a
    // capstone or wall, and no placement of ours makes a road for them, so one flat placement (a
    // capstone when no stone is left) decides whether a placement ends the game well enough;
    // counted here without playing it, before the dearer road test, as most answers are found so.
    if (pieces_left(s, side) == 1 || empties == 1) {
        const bool flat = s.stones_left[own] > 0;
        const int komi = side == Side::second ? s.half_komi : -s.half_komi;
        const int lead = 2 * (flat_count(s, side) + (flat ? 1 : 0) - flat_count(s, opponent(side))) + komi;
        if (lead > 0 || (lead == 0 && goal == Goal::at_least_draw)) {
            if (found) *found = Move::place(lowest_square(empty), flat ? Stone::flat : Stone::cap);
            return true;
        }
    }
    // A road wins whatever else the move does (both roads: the mover's win).
    if (const Move road = winning_road_move(s, side); !(road == Move::none())) {
        if (found) *found = road;
        return true;
    }
    auto try_move = [&](Move move) {
        ++nodes_;
        const Undo record = play(s, move);
        const Outcome o = outcome(s);
        undo(s, move, record);
        if (!o.is_over() || !reached(o, side, goal)) return false;
        if (found) *found = move;
        return true;
    };
    // A spread ends the game only by filling the board: every empty square lies ahead of the stack,
    // on one line with it.
    if (empties == 0 || empties >= s.size) return false;
    const Bitboard line = line_through(empty);
    if (!line) return false;
    SpreadList spreads;
    for (Bitboard stacks = s.top_of(side) & line; stacks; stacks &= stacks - 1) {
        const int square = lowest_square(stacks);
        for (const Direction direction : all_directions) {
            spreads_from(s, square, direction, spreads);
            for (const Move& move : spreads)
                if (move.squares_crossed() >= empties && try_move(move)) return true;
        }
    }
    return false;
}

void EndgameSolver::order(const State& s, MoveList<Tak>& moves, Move first) {
    const Side side = s.side_to_move();
    const Bitboard theirs = s.top_of(opponent(side)) & ~s.walls & ~s.caps;
    auto merit = [&](const Move& move) {
        if (move == first) return 1000;
        if (move.is_placement()) {
            switch (move.stone()) {
                case Stone::flat: return 300;
                case Stone::cap: return 150;
                case Stone::wall: return 50;
            }
        }
        // Spreads: by the opposing flats they cover (a capture changes the count by two).
        const int step = step_of(move.direction());
        int covered = 0;
        for (int i = 1, square = move.square(); i <= move.squares_crossed(); ++i)
            if (theirs & bit(square += step)) ++covered;
        return 100 * covered;
    };
    scored_.clear();
    for (const Move& move : moves) scored_.push_back({merit(move), move});
    std::sort(scored_.begin(), scored_.end(), [](const ScoredMove& a, const ScoredMove& b) {
        return a.merit != b.merit ? a.merit > b.merit : a.move.bits < b.move.bits;
    });
    for (std::size_t i = 0; i < scored_.size(); ++i) moves[i] = scored_[i].move;
}

// Flat placements first, the table's move first among them, before the whole list is generated
// and ordered: in a race a flat placement is most often the proof or the escape, and a node that
// stops early then never pays for the spreads of tall stacks.
template <class Visit>
void EndgameSolver::visit_moves(const State& s, int level, Move first, Visit&& visit) {
    const Bitboard empty = geometry(s.size).board & ~s.occupied();
    const bool has_stones = s.stones_left[index_of(s.side_to_move())] > 0;
    Bitboard tried = 0;
    if (has_stones) {
        const bool first_is_flat = first.is_placement() && first.stone() == Stone::flat && (empty & bit(first.square()));
        if (first_is_flat) {
            tried |= bit(first.square());
            if (visit(first)) return;
        }
        for (Bitboard left = empty & ~tried; left; left &= left - 1) {
            tried |= bit(lowest_square(left));
            if (visit(Move::place(lowest_square(left), Stone::flat))) return;
        }
    }
    MoveList<Tak>& moves = moves_at(level);
    generate_moves(s, moves);
    order(s, moves, first);
    for (const Move& move : moves) {
        if (move.is_placement() && move.stone() == Stone::flat && (tried & bit(move.square()))) continue;
        if (visit(move)) return;
    }
}

// The attacker (side to move) reaches the goal within `plies` plies, whatever the defender does.
bool EndgameSolver::attack(State& s, int plies, int level) {
    if (plies < 1) return false;
    Move found = Move::none();
    if (ends_at_once(s, goal_, &found)) {
        if (level == 0) root_move_ = found;
        return true;
    }
    if (plies < 2 || budget_.exhausted(nodes_)) return false;
    Move first = Move::none();
    if (const Entry* entry = probe(s)) {
        if (level > 0 && entry->proven >= 0 && entry->proven <= plies) return true;
        if (entry->refuted >= plies) return false;
        first = entry->best;
    }
    Move proof = Move::none();
    visit_moves(s, level, first, [&](const Move& move) {
        ++nodes_;
        const Undo record = play(s, move);
        // A move that ends the game was judged by ends_at_once: it did not reach the goal.
        const bool proven = !outcome(s).is_over() && defend(s, plies - 1, level + 1);
        undo(s, move, record);
        if (proven) proof = move;
        return proven || budget_.aborted();
    });
    if (budget_.aborted()) return false;
    if (!(proof == Move::none())) {
        store(s, plies, true, proof);
        if (level == 0) root_move_ = proof;
        return true;
    }
    store(s, plies, false, Move::none());
    return false;
}

// The defender (side to move) cannot keep the attacker from the goal within `plies` plies.
bool EndgameSolver::defend(State& s, int plies, int level) {
    if (plies < 1) return false;
    // The defender may end the game itself with what it needs.
    if (ends_at_once(s, escape_goal())) return false;
    const Side defender = s.side_to_move();
    if (plies == 1 && pieces_left(s, defender) > 1 && popcount(geometry(s.size).board & ~s.occupied()) > 1)
        return false;  // a placement that does not end the game (or ends it with the defender's road)
    if (budget_.exhausted(nodes_)) return false;
    Move first = Move::none();
    if (const Entry* entry = probe(s)) {
        if (entry->proven >= 0 && entry->proven <= plies) return true;
        if (entry->refuted >= plies) return false;
        first = entry->best;
    }
    Move escape = Move::none();
    visit_moves(s, level, first, [&](const Move& move) {
        ++nodes_;
        const Undo record = play(s, move);
        const Outcome o = outcome(s);
        const bool refuted = o.is_over() ? reached(o, attacker_, goal_) : attack(s, plies - 1, level + 1);
        undo(s, move, record);
        if (!refuted) escape = move;
        return !refuted || budget_.aborted();
    });
    if (budget_.aborted()) return false;
    if (!(escape == Move::none())) {
        store(s, plies, false, escape);  // tried first next time
        return false;
    }
    store(s, plies, true, Move::none());
    return true;
}

bool EndgameSolver::ask(State& root, Side attacker, Goal goal, int plies, Move* first) {
    if (table_.empty()) table_.resize(mask_ + 1);
    attacker_ = attacker;
    goal_ = goal;
    root_move_ = Move::none();
    const bool yes = root.side_to_move() == attacker ? attack(root, plies, 0) : defend(root, plies, 0);
    if (first) *first = root_move_;
    return yes && !budget_.aborted();
}

bool EndgameSolver::forces(const State& state, bool draw_is_enough, int plies) {
    budget_.reset(std::numeric_limits<std::uint64_t>::max(), nullptr, std::nullopt);
    State s = state;
    if (outcome(s).is_over()) return false;
    return ask(s, s.side_to_move(), draw_is_enough ? Goal::at_least_draw : Goal::win, plies, nullptr);
}

// Every move of the root loses within `plies` (the attacker and goal of the last question): plays
// the one after which the opponent needs the most plies, and counts them. Searched from the longest
// possible down, so the first move that holds out is the longest resistance.
void EndgameSolver::longest_resistance(State& root, int plies, EndgameResult& result) {
    MoveList<Tak>& moves = moves_at(0);
    generate_moves(root, moves);
    result.best = moves[0];
    result.plies = 1;  // every move ends the game at once, lost
    for (int after = plies - 2; after >= 0; --after) {
        for (const Move& candidate : moves) {
            const Undo record = play(root, candidate);
            const bool lost_sooner = outcome(root).is_over() || attack(root, after, 1);
            undo(root, candidate, record);
            if (budget_.aborted()) {  // lost within `plies`, how much sooner is not known
                result.plies = plies;
                return;
            }
            if (!lost_sooner) {
                result.best = candidate;
                result.plies = after + 2;
                return;
            }
        }
    }
}

EndgameResult EndgameSolver::solve(const State& root, int max_plies, std::uint64_t node_budget,
                                   const std::atomic<bool>* stop,
                                   std::optional<search::Clock::time_point> deadline) {
    EndgameResult result;
    nodes_ = 0;
    budget_.reset(node_budget, stop, deadline);
    if (root.in_opening() || outcome(root).is_over()) return result;
    State s = root;
    const Side us = s.side_to_move();
    const Side them = opponent(us);
    // Flats are counted in whole flats and roads never tie, so only an even komi allows a draw.
    const bool draws_possible = s.half_komi % 2 == 0;
    bool we_hold_draw = false;
    bool they_hold_draw = false;
    Move drawing_move = Move::none();
    max_plies = std::min(max_plies, max_solver_plies);
    // A side usually ends the game on its own move, so a win of ours is asked after an odd number
    // of plies and theirs after an even one: half the questions. The other parity (a side forced
    // to end the game to its own loss) is asked once a result is found, to keep it exact.
    for (int plies = 1; plies <= max_plies; ++plies) {
        const bool ours = plies % 2 == 1;
        if (ours) {
            Move move = Move::none();
            if (ask(s, us, Goal::win, plies, &move)) {
                Move quicker = Move::none();
                const bool one_less = plies >= 3 && ask(s, us, Goal::win, plies - 1, &quicker);
                result.value = EndgameValue::win;
                result.best = one_less ? quicker : move;
                result.plies = result.depth = one_less ? plies - 1 : plies;
                break;
            }
        } else if (ask(s, them, Goal::win, plies, nullptr)) {
            result.value = EndgameValue::loss;
            result.depth = plies;
            longest_resistance(s, plies, result);
            break;
        }
        if (budget_.aborted()) break;
        if (draws_possible) {
            bool& held = ours ? we_hold_draw : they_hold_draw;
            if (!held) held = ask(s, ours ? us : them, Goal::at_least_draw, plies, ours ? &drawing_move : nullptr);
            if (budget_.aborted()) break;
            if (we_hold_draw && they_hold_draw) {
                result.value = EndgameValue::draw;
                result.best = drawing_move;
                result.depth = plies;
                break;
            }
        }
        result.depth = plies;
    }
    result.nodes = nodes_;
    return result;
}

}  // namespace bge::tak
