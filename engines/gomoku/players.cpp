#include "engines/gomoku/players.hpp"

#include <fmt/format.h>

#include <memory>

#include "engines/gomoku/evaluation.hpp"
#include "engines/gomoku/study_players.hpp"
#include "engines/gomoku/vcf.hpp"
#include "search/alphabeta.hpp"
#include "search/random_player.hpp"

namespace bge::gomoku {

search::SearchRequest<GomokuSearch> search_request(const search::SearchRequest<Gomoku>& request) {
    search::SearchRequest<GomokuSearch> converted;
    converted.root = SearchBoard(request.root);
    converted.history = request.history;
    converted.limits = request.limits;
    converted.start = request.start;
    return converted;
}

search::Report<Gomoku> rules_report(const search::Report<GomokuSearch>& report) {
    search::Report<Gomoku> converted;
    converted.depth = report.depth;
    converted.seldepth = report.seldepth;
    converted.score = report.score;
    converted.nodes = report.nodes;
    converted.time_ms = report.time_ms;
    converted.pv = report.pv;
    converted.extra = report.extra;
    return converted;
}

search::SearchControl<GomokuSearch> search_control(const search::SearchControl<Gomoku>& control) {
    search::SearchControl<GomokuSearch> converted;
    converted.stop = control.stop;
    if (control.report)
        converted.report = [&control](const search::Report<GomokuSearch>& report) {
            control.report(rules_report(report));
        };
    return converted;
}

namespace {

// The strong player: a VCF search for a forced win first, then iterative-deepening alpha-beta
// (search/alphabeta.hpp) over the pattern evaluation, with threat-restricted move generation and
// fours in quiescence.
class StrongPlayer : public search::Player<Gomoku> {
public:
    explicit StrongPlayer(const protocol::OptionRegistry& options)
        : options_(options),
          search_(std::make_unique<search::AlphaBeta<GomokuSearch, GomokuEvaluator>>(GomokuEvaluator{},
                                                                                     hash_megabytes())) {}

    std::string name() const override { return "alphabeta"; }
    void new_game() override { search_->clear(); }

    search::SearchResult<Gomoku> search(const search::SearchRequest<Gomoku>& request,
                                        const search::SearchControl<Gomoku>& control) override {
        search_->set_hash_megabytes(hash_megabytes());
        auto converted = search_request(request);
        search::SearchResult<Gomoku> result;
        if (options_.boolean("Vcf")) {
            SearchBoard board = converted.root;
            const VcfResult vcf = vcf_.search(board, 40, static_cast<std::uint64_t>(options_.integer("VcfNodes")));
            if (vcf.first) {
                result.best = *vcf.first;
                result.has_move = true;
                result.nodes = vcf.nodes;
                result.score = search::win_score - static_cast<int>(vcf.line.size());
                if (control.report) {
                    search::Report<Gomoku> report;
                    report.depth = report.seldepth = static_cast<int>(vcf.line.size());
                    report.score = result.score;
                    report.nodes = vcf.nodes;
                    report.time_ms =
                        std::chrono::duration_cast<std::chrono::milliseconds>(search::Clock::now() - request.start)
                            .count();
                    report.pv = vcf.line;
                    report.extra = "vcf";
                    control.report(report);
                }
                return result;
            }
            result.nodes = vcf.nodes;
        }
        const auto converted_control = search_control(control);
        const auto found = search_->search(converted, converted_control);
        result.best = found.best;
        result.has_move = found.has_move;
        result.nodes += found.nodes;
        result.score = found.score;
        return result;
    }

private:
    std::size_t hash_megabytes() const { return static_cast<std::size_t>(options_.integer("Hash")); }
    const protocol::OptionRegistry& options_;
    std::unique_ptr<search::AlphaBeta<GomokuSearch, GomokuEvaluator>> search_;
    VcfSearch vcf_;
};

}  // namespace

void add_player_options(protocol::OptionRegistry& options) {
    options.add_spin("Hash", 64, 1, 65536, "transposition table size in MiB (alphabeta)");
    options.add_check("Vcf", true, "alphabeta: look for a win by continuous fours before the main search");
    options.add_spin("VcfNodes", 200'000, 1, 100'000'000, "alphabeta: positions the VCF search may visit per move");
    options.add_spin("Seed", 1, 0, 1'000'000'000, "seed for the players that use chance");
    add_study_player_options(options);
}

std::vector<protocol::PlayerEntry<Gomoku>> gomoku_players() {
    std::vector<protocol::PlayerEntry<Gomoku>> players = {
        {"alphabeta", "VCF threat search, then alpha-beta over incremental line patterns with threat-restricted moves",
         [](const protocol::OptionRegistry& options) { return std::make_unique<StrongPlayer>(options); }},
        {"random", "uniform over the legal moves (reseeded from Seed and the game number every game)",
         [](const protocol::OptionRegistry& options) {
             return std::make_unique<search::RandomPlayer<Gomoku>>(
                 [&options] { return static_cast<std::uint64_t>(options.integer("Seed")); });
         }},
    };
    for (auto& entry : study_players()) players.push_back(std::move(entry));
    return players;
}

}  // namespace bge::gomoku
