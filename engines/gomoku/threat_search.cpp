#include "engines/gomoku/threat_search.hpp"

#include <algorithm>
#include <utility>

#include "engines/gomoku/policy.hpp"

namespace bge::gomoku {

namespace {

constexpr int max_threat_plies = 120;  // a line longer than this is given up (the board fills)

const std::array<std::uint8_t, cell_count>& threats_of(const SearchBoard& b, Side side) {
    return b.threat[static_cast<std::size_t>(index_of(side))];
}

bool is_four_class(Threat t) { return t >= threat_four && t != threat_double_three; }

Move move_at(int square) { return Move{static_cast<std::uint16_t>(square)}; }

// Black's move under renju that the rules would call a foul (only shapes that can be one).
bool forbidden_for(const SearchBoard& b, Side side, int square) {
    if (b.rules.rule != Rule::renju || side != Side::first) return false;
    return is_forbidden(b.rules, square);
}

}  // namespace

int five_cells(const SearchBoard& b, Side side, int* out, int max) {
    if (b.threat_count[static_cast<std::size_t>(index_of(side))][threat_five] == 0) return 0;
    int count = 0;
    const auto& threats = threats_of(b, side);
    for (int y = 0; y < b.rules.height; ++y) {
        const int row = square_at(0, y);
        for (int x = 0; x < b.rules.width; ++x) {
            const int square = row + x;
            if (b.near[static_cast<std::size_t>(square)] && threats[static_cast<std::size_t>(square)] == threat_five &&
                b.rules.cells[static_cast<std::size_t>(square)] == empty) {
                if (count < max) out[count] = square;
                ++count;
            }
        }
    }
    return count;
}

bool makes_four(const SearchBoard& b, Side side, int square) {
    return is_four_class(static_cast<Threat>(threats_of(b, side)[static_cast<std::size_t>(square)]));
}

bool has_open_four_cell(const SearchBoard& b, Side side) {
    const auto& threats = threats_of(b, side);
    for (int y = 0; y < b.rules.height; ++y) {
        const int row = square_at(0, y);
        for (int x = 0; x < b.rules.width; ++x) {
            const int square = row + x;
            if (threats[static_cast<std::size_t>(square)] >= threat_flex4 &&
                b.rules.cells[static_cast<std::size_t>(square)] == empty && !forbidden_for(b, side, square))
                return true;
        }
    }
    return false;
}

// ---- VCF ----

void VcfSearch::start(const ThreatLimits& limits) {
    nodes_ = 0;
    limits_ = limits;
    interrupted_ = false;
    // Failures are proofs (a search cut short records none), so they may be kept; a bound keeps
    // the memory small.
    if (!remembering_ || failed_.size() > 1'000'000) failed_.clear();
}

bool VcfSearch::out_of_budget() {
    if (interrupted_) return true;
    if (nodes_ >= limits_.nodes) return interrupted_ = true;
    if ((nodes_ & 63) != 0) return false;
    if (limits_.stop && limits_.stop->load(std::memory_order_relaxed)) return interrupted_ = true;
    if (limits_.deadline && search::Clock::now() >= *limits_.deadline) return interrupted_ = true;
    return false;
}

VcfResult VcfSearch::search(SearchBoard& board, int max_plies, std::uint64_t node_limit) {
    ThreatLimits limits;
    limits.nodes = node_limit;
    return search(board, max_plies, limits);
}

VcfResult VcfSearch::search(SearchBoard& board, int max_plies, const ThreatLimits& limits) {
    VcfResult result;
    start(limits);
    if (board.rules.result != Result::ongoing) return result;
    std::vector<Move> line;
    if (attack(board, max_plies, line)) {
        result.first = line.front();
        result.line = line;
    }
    result.nodes = nodes_;
    result.interrupted = interrupted_ && !result.first;
    return result;
}

bool VcfSearch::attack(SearchBoard& b, int plies_left, std::vector<Move>& line) {
    ++nodes_;
    const Side me = b.side_to_move();
    const Side them = opponent(me);
    int cells[4];
    if (five_cells(b, me, cells, 4) > 0) {
        line.push_back(move_at(cells[0]));
        return true;
    }
    if (plies_left <= 0 || out_of_budget()) return false;
    if (failed_.count(b.rules.hash)) return false;

    // Facing a five, the only move is its block, and it must be a four to keep the initiative.
    MoveList<GomokuSearch> tries;
    int blocks[2];
    const int their_fives = five_cells(b, them, blocks, 2);
    if (their_fives >= 2) return false;
    const auto& mine = threats_of(b, me);
    if (their_fives == 1) {
        if (!makes_four(b, me, blocks[0])) return false;
        tries.push_back(move_at(blocks[0]));
    } else {
        cells_with_threat(b, me, threat_four, tries);
        std::size_t kept = 0;
        for (const Move& move : tries)
            if (makes_four(b, me, move.square)) tries[kept++] = move;
        tries.resize(kept);
        // Open fours and double threats first: they end the search at once.
        std::stable_sort(tries.begin(), tries.end(),
                         [&](const Move& a, const Move& c) { return mine[a.square] > mine[c.square]; });
    }

    for (const Move& move : tries) {
        const Undo attack_record = GomokuSearch::play(b, move);
        line.push_back(move);
        bool won = false;
        const Outcome after = gomoku::outcome(b.rules);
        if (after.is_win_for(me)) {
            won = true;
        } else if (!after.is_over()) {
            int replies[4];
            const int threats = five_cells(b, me, replies, 4);
            if (threats >= 1) {
                // One five in waiting: its block is forced. Two: the defender blocks one and the
                // other wins (the attack below finds it at once).
                const Move reply = move_at(replies[0]);
                const Undo block = GomokuSearch::play(b, reply);
                line.push_back(reply);
                const Outcome blocked = gomoku::outcome(b.rules);
                if (blocked.is_win_for(me))
                    won = true;  // the forced block was forbidden
                else if (!blocked.is_over())
                    won = attack(b, plies_left - 1, line);
                if (!won) line.pop_back();
                GomokuSearch::undo(b, reply, block);
            }
        }
        if (!won) line.pop_back();
        GomokuSearch::undo(b, move, attack_record);
        if (won) return true;
        if (interrupted_) return false;
    }
    failed_.insert(b.rules.hash);
    return false;
}

// ---- VCT ----

VcfResult VctSearch::search(SearchBoard& board, int max_threes, const ThreatLimits& limits) {
    forget();
    return search_remembering(board, max_threes, limits);
}

void VctSearch::forget() {
    failed_.clear();
    won_.clear();
    vcf_.forget();
}

VcfResult VctSearch::search_remembering(SearchBoard& board, int max_threes, const ThreatLimits& limits) {
    VcfResult result;
    vcf_.set_remembering(true);
    if (failed_.size() + won_.size() > 1'000'000) forget();
    vcf_.start(limits);
    if (board.rules.result != Result::ongoing) return result;
    // Iterative deepening on threes: the shortest wins are found first and cheaply, and the
    // positions each depth proved lost (within that many threes) are skipped by the next.
    for (int threes = 1; threes <= max_threes && !vcf_.interrupted(); ++threes) {
        std::vector<Move> line;
        if (attack(board, threes, 0, line)) {
            result.first = line.front();
            result.line = line;
            break;
        }
    }
    result.nodes = vcf_.nodes();
    result.interrupted = vcf_.interrupted() && !result.first;
    return result;
}

bool VctSearch::attack(SearchBoard& b, int threes_left, int plies, std::vector<Move>& line) {
    vcf_.count_node();
    const Side me = b.side_to_move();
    const Side them = opponent(me);
    int cells[2];
    if (five_cells(b, me, cells, 2) > 0) {
        line.push_back(move_at(cells[0]));
        return true;
    }
    if (vcf_.out_of_budget() || plies >= max_threat_plies) return false;
    int blocks[2];
    const int their_fives = five_cells(b, them, blocks, 2);
    if (their_fives >= 2) return false;
    if (threes_left <= 0) {
        const std::size_t before = line.size();
        if (vcf_.attack(b, max_threat_plies - plies, line)) return true;
        line.resize(before);
        return false;
    }
    const std::uint64_t key = b.rules.hash;
    if (const auto known = won_.find(key); known != won_.end()) {
        line.push_back(known->second);  // proved before: its first move (the line ends here)
        return true;
    }
    if (const auto found = failed_.find(key); found != failed_.end() && found->second >= threes_left) return false;

    MoveList<GomokuSearch> tries;
    const auto& mine = threats_of(b, me);
    if (their_fives == 1) {
        tries.push_back(move_at(blocks[0]));  // forced; it must itself be a threat (checked below)
    } else {
        cells_with_threat(b, me, threat_flex3, tries);
        if (four_three_threats(b, me)) add_four_three_makers(b, me, tries);
        // Stronger threats first (the four-three makers, no threat of their own, last); within a
        // class, the policy's or the pattern values' order.
        std::vector<std::pair<float, Move>> ranked;
        ranked.reserve(tries.size());
        for (const Move& move : tries)
            ranked.emplace_back(policy_ ? policy_->logit(b, move.square)
                                        : static_cast<float>(b.value[static_cast<std::size_t>(index_of(me))][move.square]),
                                move);
        std::stable_sort(ranked.begin(), ranked.end(), [&](const auto& a, const auto& c) {
            if (mine[a.second.square] != mine[c.second.square]) return mine[a.second.square] > mine[c.second.square];
            return a.first > c.first;
        });
        for (std::size_t i = 0; i < ranked.size(); ++i) tries[i] = ranked[i].second;
    }

    for (const Move& move : tries) {
        if (forbidden_for(b, me, move.square)) continue;
        const Undo record = GomokuSearch::play(b, move);
        line.push_back(move);
        bool won = false;
        const Outcome after = gomoku::outcome(b.rules);
        if (after.is_win_for(me))
            won = true;
        else if (!after.is_over())
            won = defend_all(b, threes_left, plies + 1, line, their_fives == 0);
        if (!won) line.pop_back();
        GomokuSearch::undo(b, move, record);
        if (won) {
            won_.emplace(key, move);
            return true;
        }
        if (vcf_.interrupted()) return false;
    }
    int& failed_with = failed_[key];  // keep the most threes it failed with
    failed_with = std::max(failed_with, threes_left);
    return false;
}

bool VctSearch::four_three_threats(const SearchBoard& b, Side attacker) const {
    // Under renju Black's four-threes need the fouls checked: left out.
    return four_three_ && !(b.rules.rule == Rule::renju && attacker == Side::first);
}

void VctSearch::add_four_three_makers(SearchBoard& b, Side me, MoveList<GomokuSearch>& tries) {
    const auto& mine = threats_of(b, me);
    for (int y = 0; y < b.rules.height; ++y) {
        const int row = square_at(0, y);
        for (int x = 0; x < b.rules.width; ++x) {
            const int square = row + x;
            const auto cell = static_cast<std::size_t>(square);
            if (b.rules.cells[cell] != empty || !b.near[cell] || mine[cell] >= threat_flex3) continue;
            const Move move = move_at(square);
            const Undo record = GomokuSearch::play(b, move);
            vcf_.count_node();
            if (four_three_cell(b, me)) tries.push_back(move);
            GomokuSearch::undo(b, move, record);
        }
    }
}

bool VctSearch::defend_all(SearchBoard& b, int threes_left, int plies, std::vector<Move>& line, bool new_threat) {
    vcf_.count_node();
    const Side defender = b.side_to_move();
    const Side me = opponent(defender);
    int fives[2];
    if (five_cells(b, defender, fives, 2) > 0) return false;  // the defender wins first
    const int my_fives = five_cells(b, me, fives, 2);
    MoveList<GomokuSearch> answers;
    int next_threes = threes_left;
    if (my_fives >= 2) {
        line.push_back(move_at(fives[0]));  // any block: the other five wins
        line.push_back(move_at(fives[1]));
        return true;
    }
    if (my_fives == 1) {
        answers.push_back(move_at(fives[0]));
    } else {
        // The attacker's threat: an open three (a cell making an open four), or else, with
        // four-three threats on, a cell making a four-three or a double four.
        const bool three = has_open_four_cell(b, me);
        const int four_three = three || !four_three_threats(b, me) ? 0 : four_three_cell(b, me);
        if (!three && !four_three) return false;  // not a threat: the defender moves freely
        std::array<bool, cell_count> stops;  // read only against a four-three, which fills it
        if (four_three) {
            stops.fill(false);
            if (!four_three_answers(b, four_three, me, stops)) return false;  // a counter-four
        }
        // A threat the attacker just made costs one; a three that still stands after the attacker
        // blocked the defender's counter-four was paid for already.
        if (new_threat) --next_threes;
        // Against a three, every cell where the attacker would make a four or better; against a
        // four-three, the cells that stop it; and the defender's fours.
        const auto& mine = threats_of(b, me);
        const auto& theirs = threats_of(b, defender);
        for (int y = 0; y < b.rules.height; ++y) {
            const int row = square_at(0, y);
            for (int x = 0; x < b.rules.width; ++x) {
                const auto square = static_cast<std::size_t>(row + x);
                if (b.rules.cells[square] != empty || !b.near[square]) continue;
                const bool stops_it = four_three ? stops[square] : is_four_class(static_cast<Threat>(mine[square]));
                if (stops_it || is_four_class(static_cast<Threat>(theirs[square])))
                    answers.push_back(move_at(static_cast<int>(square)));
            }
        }
    }
    std::size_t proof_start = line.size();
    for (std::size_t i = 0; i < answers.size(); ++i) {
        const Move answer = answers[i];
        const Undo record = GomokuSearch::play(b, answer);
        const Outcome after = gomoku::outcome(b.rules);
        bool lost_for_defender;
        std::vector<Move> branch;
        if (after.is_win_for(me))
            lost_for_defender = true;  // a forbidden answer
        else if (after.is_over())
            lost_for_defender = false;
        else
            lost_for_defender = attack(b, next_threes, plies + 1, branch);
        GomokuSearch::undo(b, answer, record);
        if (!lost_for_defender) {
            line.resize(proof_start);
            return false;
        }
        if (i == 0) {  // the line shown follows the first answer
            line.push_back(answer);
            line.insert(line.end(), branch.begin(), branch.end());
        }
        if (vcf_.interrupted()) return false;
    }
    return !answers.empty();
}

}  // namespace bge::gomoku
