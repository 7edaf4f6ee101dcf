#pragma once
// Regret against perfect play (docs/ur.md, "Regret"): at a decision, the solver table's winning
// chance of the best legal move minus that of the move played, from the mover's side. Summed
// over games, with the share of choices (decisions with more than one legal move) where the move
// played was a best one, overall and by how far the game has run.

#include <array>
#include <string>

#include "core/ur/ur.hpp"
#include "engines/ur/solver.hpp"

namespace bge::ur {

class RegretCounter {
public:
    static constexpr int phase_count = 5;
    // A move within this of the best counts as a best move (the table holds floats).
    static constexpr double tie = 1e-6;

    struct Tally {
        long decisions = 0;  // every decision, forced moves and passes included
        long choices = 0;    // decisions with more than one legal move
        long best = 0;       // choices where the move played was a best one
        double regret = 0;   // summed over all decisions (forced ones add 0)
        double per_decision() const { return decisions ? regret / static_cast<double>(decisions) : 0; }
        double per_choice() const { return choices ? regret / static_cast<double>(choices) : 0; }
        double best_share() const { return choices ? static_cast<double>(best) / static_cast<double>(choices) : 1; }
    };

    // Records `played` at `decision` (a position with its roll, of the table's variant); returns
    // its regret.
    double record(const SolverTable& table, const State& decision, Move played);
    void merge(const RegretCounter& other);

    const Tally& total() const { return total_; }
    const Tally& phase(int p) const { return phases_[static_cast<std::size_t>(p)]; }
    long games() const { return games_; }
    void count_game() { ++games_; }

    // How far the game has run: both sides' progress (a piece at path index i counts i + 1, a
    // borne-off piece the path length + 1) over the most there is, in fifths (0-4).
    static int phase_of(const State& state);
    static std::string phase_name(int phase);  // "0-20%" ...

    // The report as text: one summary line per figure, then a table by phase.
    std::string report() const;

private:
    Tally total_;
    std::array<Tally, phase_count> phases_{};
    long games_ = 0;
};

}  // namespace bge::ur
