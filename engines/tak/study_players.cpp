#include "engines/tak/study_players.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "engines/tak/sarsa_features.hpp"
#include "engines/tak/study_rollouts.hpp"
#include "protocol/game_seeds.hpp"
#include "protocol/output.hpp"
#include "search/knowledge_graph_mcts.hpp"
#include "search/weighted_random.hpp"

namespace bge::tak {

namespace {

using protocol::OptionRegistry;

double thousandths(const OptionRegistry& options, std::string_view name) {
    return static_cast<double>(options.integer(name)) / 1000.0;
}

// A value in [-1, 1] (an expected reward) as a centipawn-like score, as for a win rate (v+1)/2.
int score_of_value(double value) {
    return search::KnowledgeGraphMcts<Tak, TakRolloutPolicy>::score_of((std::clamp(value, -1.0, 1.0) + 1.0) / 2.0);
}

// The weights the SarsaWeights option names: the built-in set when it is empty. A file that cannot
// be used is reported once on stderr, and the built-in set is used instead.
class SarsaWeightsSource {
public:
    const SarsaWeights& get(const OptionRegistry& options) {
        const std::string& path = options.text("SarsaWeights");
        if (!loaded_ || path != path_) {
            loaded_ = true;
            path_ = path;
            weights_ = builtin_sarsa_weights();
            ++version_;
            if (!path.empty()) {
                auto loaded = load_sarsa_weights(path);
                if (loaded)
                    weights_ = *loaded;
                else
                    protocol::Output::log(
                        fmt::format("tak: SarsaWeights: {}; using the built-in weights", loaded.error()));
            }
        }
        return weights_;
    }
    std::uint64_t version() const { return version_; }

private:
    bool loaded_ = false;
    std::string path_;
    SarsaWeights weights_;
    std::uint64_t version_ = 0;
};

// weighted-random: a placement with probability PlaceProbability %, otherwise a spread, then
// uniformly within the kind; only one kind legal: that kind.
class WeightedRandomPlayer : public search::Player<Tak> {
public:
    explicit WeightedRandomPlayer(const OptionRegistry& options)
        : options_(options), seeds_(options), random_(seeds_.next()) {}
    std::string name() const override { return "weighted-random"; }
    void new_game() override { random_.reseed(seeds_.next()); }

    search::SearchResult<Tak> search(const search::SearchRequest<Tak>& request,
                                     const search::SearchControl<Tak>&) override {
        search::SearchResult<Tak> result;
        MoveList<Tak> moves;
        generate_moves(request.root, moves);
        if (moves.empty()) return result;
        const double place = static_cast<double>(options_.integer("PlaceProbability")) / 100.0;
        result.best = search::choose_by_kind<Tak>(
            moves, [](const Move& move) { return move.is_placement(); }, place, random_);
        result.has_move = true;
        result.nodes = 1;
        return result;
    }

private:
    const OptionRegistry& options_;
    protocol::GameSeeds seeds_;
    Random random_;
};

// sarsa: epsilon-greedy over the learned linear Q. With SarsaLearn it also goes on learning from
// its own games (see docs/tak.md for what it can and cannot see).
class SarsaPlayer : public search::Player<Tak> {
public:
    explicit SarsaPlayer(const OptionRegistry& options) : options_(options), seeds_(options), random_(seeds_.next()) {}
    std::string name() const override { return "sarsa"; }
    void new_game() override {
        random_.reseed(seeds_.next());
        pending_.active = false;
    }

    search::SearchResult<Tak> search(const search::SearchRequest<Tak>& request,
                                     const search::SearchControl<Tak>& control) override {
        search::SearchResult<Tak> result;
        const SarsaWeights& source = source_.get(options_);
        if (source_.version() != learned_version_) {
            learned_ = source;
            learned_version_ = source_.version();
            pending_.active = false;
        }
        const bool learn = options_.boolean("SarsaLearn");
        search::learning::SarsaParameters parameters;
        parameters.epsilon = thousandths(options_, "SarsaEpsilon");
        parameters.alpha = thousandths(options_, "SarsaAlpha");
        parameters.gamma = thousandths(options_, "SarsaGamma");

        State state = request.root;
        MoveList<Tak> moves;
        generate_moves(state, moves);
        if (moves.empty()) return result;
        const auto choice = TakSarsa::choose(state, moves, learn ? learned_ : source, parameters.epsilon, random_);
        if (learn) learn_from(request, state, choice, parameters);

        result.best = choice.move;
        result.has_move = true;
        result.nodes = moves.size();
        result.score = score_of_value(choice.q);
        if (control.report) {
            search::Report<Tak> report;
            report.depth = report.seldepth = 1;
            report.score = result.score;
            report.nodes = result.nodes;
            report.time_ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(search::Clock::now() - request.start).count();
            report.pv = {choice.move};
            control.report(report);
        }
        return result;
    }

private:
    // The study's update: the previous pair of this player is updated now that the next action is
    // chosen (when this position follows from it); a move that ends the game gets its terminal
    // update at once. A game the opponent ends is never shown to the engine, so it gets none.
    void learn_from(const search::SearchRequest<Tak>& request, State& state, const TakSarsa::Choice& choice,
                    const search::learning::SarsaParameters& parameters) {
        const auto& history = request.history;
        const bool follows = pending_.active && history.size() >= 2 && history[history.size() - 2] == pending_after_;
        if (follows) TakSarsa::update(learned_, pending_.phi, 0.0, choice.q, parameters);
        pending_ = {true, choice.phi};
        const Side mover = state.side_to_move();
        const Undo undo = play(state, choice.move);
        pending_after_ = state.hash;
        const Outcome end = outcome(state);
        tak::undo(state, choice.move, undo);
        if (end.is_over()) {
            TakSarsa::update(learned_, pending_.phi, search::learning::terminal_reward(end, mover), std::nullopt,
                             parameters);
            pending_.active = false;
        }
    }

    const OptionRegistry& options_;
    protocol::GameSeeds seeds_;
    Random random_;
    SarsaWeightsSource source_;
    SarsaWeights learned_;
    std::uint64_t learned_version_ = 0;
    TakSarsa::Pending pending_;
    std::uint64_t pending_after_ = 0;
};

// mcts-study: the knowledge-graph MCTS of search/knowledge_graph_mcts.hpp.
class MctsStudyPlayer : public search::Player<Tak> {
public:
    explicit MctsStudyPlayer(const OptionRegistry& options)
        : options_(options), seeds_(options), mcts_(seeds_.next()) {}
    std::string name() const override { return "mcts-study"; }
    void new_game() override { mcts_.reseed(seeds_.next()); }

    search::SearchResult<Tak> search(const search::SearchRequest<Tak>& request,
                                     const search::SearchControl<Tak>& control) override {
        search::KnowledgeGraphSettings settings;
        settings.epsilon = thousandths(options_, "MctsEpsilon");
        settings.max_depth = static_cast<int>(options_.integer("MctsDepth"));
        settings.iterations = static_cast<std::uint64_t>(options_.integer("MctsIterations"));
        settings.rollout_runs = static_cast<int>(options_.integer("RolloutRuns"));
        settings.threads = static_cast<int>(options_.integer("RolloutThreads"));

        TakRolloutPolicy policy;
        const std::string& kind = options_.text("RolloutPolicy");
        if (kind == "weighted") {
            policy.kind = TakRolloutPolicy::Kind::weighted;
            policy.place_probability = static_cast<double>(options_.integer("PlaceProbability")) / 100.0;
        } else if (kind == "sarsa") {
            policy.kind = TakRolloutPolicy::Kind::sarsa;
            policy.weights = &source_.get(options_);
            policy.sarsa_epsilon = thousandths(options_, "SarsaEpsilon");
        }
        return mcts_.search(request, control, settings, policy);
    }

private:
    const OptionRegistry& options_;
    protocol::GameSeeds seeds_;
    search::KnowledgeGraphMcts<Tak, TakRolloutPolicy> mcts_;
    SarsaWeightsSource source_;
};

}  // namespace

void add_study_player_options(protocol::OptionRegistry& options) {
    options.add_spin("PlaceProbability", 50, 0, 100,
                     "weighted-random (and weighted rollouts): percent chance of a placement over a spread");
    options.add_spin("SarsaEpsilon", 100, 0, 1000, "sarsa (and sarsa rollouts): exploration epsilon, in thousandths");
    options.add_spin("SarsaAlpha", 990, 0, 1000, "sarsa with SarsaLearn: NLMS step alpha, in thousandths");
    options.add_spin("SarsaGamma", 990, 0, 1000, "sarsa with SarsaLearn: discount gamma, in thousandths");
    options.add_check("SarsaLearn", false, "sarsa: go on learning (SARSA updates) from the engine's own games");
    options
        .add_string("SarsaWeights", "",
                    "sarsa: a weights file written by train_tak_sarsa (empty: the built-in weights)")
        .on_change = [](const protocol::Option& option) {
        // Checked at once so a bad file is reported when it is set; the players fall back to the
        // built-in weights (and say so again) when they search.
        if (option.value.empty()) return;
        if (auto loaded = load_sarsa_weights(option.value); !loaded)
            protocol::Output::log(
                fmt::format("tak: SarsaWeights: {}; the built-in weights will be used", loaded.error()));
    };
    options.add_spin("MctsEpsilon", 100, 0, 1000, "mcts-study: chance of a random child in selection, in thousandths");
    options.add_spin("MctsDepth", 10, 1, 1000, "mcts-study: deepest ply selection descends to");
    options.add_spin("MctsIterations", 1000, 1, 1'000'000'000,
                     "mcts-study: iterations per move (go nodes replaces it; time limits may stop it first)");
    options.add_spin("RolloutRuns", 4, 1, 256, "mcts-study: playouts per leaf");
    options.add_combo("RolloutPolicy", "random", {"random", "weighted", "sarsa"}, "mcts-study: the playout policy");
    options.add_spin("RolloutThreads", 2, 1, 64, "mcts-study: threads sharing a leaf's playouts");
}

std::vector<protocol::PlayerEntry<Tak>> study_players() {
    std::vector<protocol::PlayerEntry<Tak>> players;
    players.push_back({"weighted-random",
                       "a placement with probability PlaceProbability, else a spread; uniform within",
                       [](const OptionRegistry& options) { return std::make_unique<WeightedRandomPlayer>(options); }});
    players.push_back({"sarsa", "epsilon-greedy over a linear Q learned by SARSA self-play (train_tak_sarsa)",
                       [](const OptionRegistry& options) { return std::make_unique<SarsaPlayer>(options); }});
    players.push_back({"mcts-study",
                       "the study's MCTS: epsilon-greedy selection over a transposition graph, "
                       "parallel rollouts",
                       [](const OptionRegistry& options) { return std::make_unique<MctsStudyPlayer>(options); }});
    return players;
}

}  // namespace bge::tak
