#include "engines/ur/regret.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace bge::ur {

double RegretCounter::record(const SolverTable& table, const State& decision, Move played) {
    FixedVector<Move, max_legal_moves> moves;
    generate_moves(decision, moves);
    double best = -1, mine = -1;
    for (const Move& move : moves) {
        const double v = table.move_value(decision, move);
        best = std::max(best, v);
        if (move == played) mine = v;
    }
    const double regret = std::max(0.0, best - mine);
    for (Tally* tally : {&total_, &phases_[static_cast<std::size_t>(phase_of(decision))]}) {
        ++tally->decisions;
        tally->regret += regret;
        if (moves.size() > 1) {
            ++tally->choices;
            tally->best += regret <= tie ? 1 : 0;
        }
    }
    return regret;
}

void RegretCounter::merge(const RegretCounter& other) {
    auto add = [](Tally& into, const Tally& from) {
        into.decisions += from.decisions;
        into.choices += from.choices;
        into.best += from.best;
        into.regret += from.regret;
    };
    add(total_, other.total_);
    for (int p = 0; p < phase_count; ++p)
        add(phases_[static_cast<std::size_t>(p)], other.phases_[static_cast<std::size_t>(p)]);
    games_ += other.games_;
}

int RegretCounter::phase_of(const State& state) {
    const int progress = race_progress(state, 0) + race_progress(state, 1);
    const int most = 2 * state.pieces * (state.path_length() + 1);
    return std::min(phase_count - 1, progress * phase_count / most);
}

std::string RegretCounter::phase_name(int phase) {
    return fmt::format("{}-{}%", phase * 100 / phase_count, (phase + 1) * 100 / phase_count);
}

std::string RegretCounter::report() const {
    std::string out;
    out += fmt::format("regret games {} decisions {} choices {}\n", games_, total_.decisions, total_.choices);
    out += fmt::format("mean-regret-per-move {:.6f}\nmean-regret-per-choice {:.6f}\n", total_.per_decision(),
                       total_.per_choice());
    out += fmt::format("best-move-share {:.4f}\nnon-best-choices {:.4f}\n", total_.best_share(),
                       1 - total_.best_share());
    out += "phase (race run)  decisions  choices  best-share  regret-per-move  share-of-regret\n";
    for (int p = 0; p < phase_count; ++p) {
        const Tally& t = phases_[static_cast<std::size_t>(p)];
        out += fmt::format("{:<17} {:>10} {:>8} {:>11.4f} {:>16.6f} {:>16.3f}\n", phase_name(p), t.decisions,
                           t.choices, t.best_share(), t.per_decision(),
                           total_.regret > 0 ? t.regret / total_.regret : 0.0);
    }
    return out;
}

}  // namespace bge::ur
