// train_expendibots_tdleaf: learns the expendibots evaluation weights (engines/expendibots/
// evaluation.hpp) by TDLeaf(lambda) self-play (search/learning/tdleaf.hpp), printing a learning
// curve (the alpha-beta player at the training depth against greedy and minimax2) as it goes.
// See docs/expendibots.md, "Training".

#include <fmt/format.h>

#include <atomic>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "core/expendibots/expendibots.hpp"
#include "core/game_record.hpp"
#include "core/random.hpp"
#include "core/version.hpp"
#include "engines/expendibots/evaluation.hpp"
#include "engines/expendibots/study_players.hpp"
#include "search/alphabeta.hpp"
#include "search/learning/tdleaf.hpp"
#include "tools/train/text_file.hpp"

namespace po = boost::program_options;
using namespace bge;
using namespace bge::expendibots;

namespace {

constexpr std::size_t weight_count = EvalWeights::size;
using Step = search::learning::TdLeafStep<weight_count>;
using Search = search::AlphaBeta<Expendibots, Evaluator>;

struct Settings {
    int games = 1500;
    int depth = 3;
    double lambda = 0.7;
    double eta = 0.1;
    double epsilon = 0.05;
    int random_plies = 6;
    std::uint64_t seed = 1;
    int eval_every = 250;
    int eval_games = 40;
    std::string init;
    std::string out;
};

// The alpha-beta player's move at a fixed depth for the side to move, and the leaf of its
// principal variation.
struct Choice {
    Move move{};
    State leaf{};
};

Choice search_move(Search& searcher, const GameRecord<Expendibots>& record, int depth) {
    const State& root = record.current();
    searcher.clear();  // the perspective changes every ply in self-play
    searcher.evaluator().set_perspective(root.to_move);
    search::SearchRequest<Expendibots> request;
    request.root = root;
    request.history = record.hashes();
    request.limits.depth = depth;
    std::vector<Move> pv;
    search::SearchControl<Expendibots> control;
    control.report = [&pv](const search::Report<Expendibots>& report) { pv = report.pv; };
    const auto result = searcher.search(request, control);
    Choice choice;
    choice.move = result.best;
    if (pv.empty() || !(pv.front() == result.best)) pv = {result.best};
    choice.leaf = root;
    for (const Move& move : pv) {
        if (outcome(choice.leaf).is_over() || !is_legal(choice.leaf, move)) break;
        play(choice.leaf, move);
    }
    return choice;
}

// r(leaf) for `side` and its gradient: tanh of the linear value; the true result when decided.
Step leaf_step(const EvalWeights& weights, const State& leaf, Side side) {
    Step step;
    const Outcome o = outcome(leaf);
    if (o.is_over()) {
        step.value = o.kind == OutcomeKind::draw ? 0.0 : o.winner == side ? 1.0 : -1.0;
        return step;
    }
    EvalFeatures::Vector phi;
    PhaseBlend blend;
    step.value = std::tanh(linear_value(weights, leaf, side, &phi, &blend));
    const double slope = 1.0 - step.value * step.value;
    for (std::size_t p = 0; p < phase_count; ++p)
        for (std::size_t i = 0; i < EvalFeatures::count; ++i)
            step.gradient[p * EvalFeatures::count + i] = slope * blend[p] * phi[i];
    return step;
}

Move random_quiet_move(const State& state, Random& random) {
    MoveList<Expendibots> moves;
    generate_moves(state, moves);
    std::vector<Move> quiet;
    for (const Move& move : moves)
        if (!move.is_boom()) quiet.push_back(move);
    if (quiet.empty()) return moves[random.below(static_cast<std::uint32_t>(moves.size()))];
    return quiet[random.below(static_cast<std::uint32_t>(quiet.size()))];
}

struct SelfPlay {
    double squared_error = 0;
    int steps = 0;
    int actions = 0;
};

// One self-play game; the weights change once, after it.
SelfPlay self_play(EvalWeights& weights, Search& searcher, const Settings& settings, Random& random) {
    GameRecord<Expendibots> record(start_state());
    std::array<std::vector<Step>, 2> steps;
    const int opening = static_cast<int>(random.below(static_cast<std::uint32_t>(settings.random_plies + 1)));
    while (!record.outcome().is_over()) {
        const State& state = record.current();
        const Side mover = state.to_move;
        if (static_cast<int>(record.moves().size()) < opening) {
            record.play(random_quiet_move(state, random));
            continue;
        }
        const Choice choice = search_move(searcher, record, settings.depth);
        steps[index_of(mover)].push_back(leaf_step(weights, choice.leaf, mover));
        Move move = choice.move;
        if (random.unit() < settings.epsilon) {
            MoveList<Expendibots> moves;
            generate_moves(state, moves);
            move = moves[random.below(static_cast<std::uint32_t>(moves.size()))];
        }
        record.play(move);
    }
    const Outcome end = record.outcome();
    SelfPlay summary;
    summary.actions = static_cast<int>(record.moves().size());
    std::array<double, weight_count> total{};
    for (Side side : {Side::first, Side::second}) {
        const auto& sequence = steps[index_of(side)];
        const double result = end.kind == OutcomeKind::draw ? 0.0 : end.winner == side ? 1.0 : -1.0;
        const auto delta = search::learning::tdleaf_delta(sequence, result, settings.lambda, settings.eta);
        for (std::size_t i = 0; i < weight_count; ++i) total[i] += delta[i];
        for (std::size_t t = 0; t < sequence.size(); ++t) {
            const double next = t + 1 < sequence.size() ? sequence[t + 1].value : result;
            summary.squared_error += (next - sequence[t].value) * (next - sequence[t].value);
            ++summary.steps;
        }
    }
    for (std::size_t i = 0; i < weight_count; ++i) weights.at(i) += total[i];
    return summary;
}

struct Tally {
    int wins = 0, draws = 0, losses = 0;
    long win_turns = 0;  // the learner's own turns in the games it won
};

// The learner (alpha-beta at the training depth) against an opponent, colours alternating. Each
// pair of games opens with the same few random MOVE actions (fixed seeds), so deterministic
// opponents still play different games and the curve's points compare.
template <class Opponent>
Tally play_against(const EvalWeights& weights, const Settings& settings, Opponent opponent) {
    Tally tally;
    Search searcher(Evaluator{&weights}, 4);
    Random random(0xE7A1'5EED);
    for (int game = 0; game < settings.eval_games; ++game) {
        const Side learner = game % 2 == 0 ? Side::first : Side::second;
        Random opening_random(0x0BE7'0000ULL + static_cast<std::uint64_t>(game / 2));
        GameRecord<Expendibots> record(start_state());
        for (int ply = 0; ply < 4; ++ply) record.play(random_quiet_move(record.current(), opening_random));
        int learner_turns = 0;
        while (!record.outcome().is_over()) {
            if (record.current().to_move == learner) {
                record.play(search_move(searcher, record, settings.depth).move);
                ++learner_turns;
            } else {
                record.play(opponent(record, random));
            }
        }
        const Outcome end = record.outcome();
        if (end.is_win_for(learner)) {
            ++tally.wins;
            tally.win_turns += learner_turns;
        } else if (end.kind == OutcomeKind::win) {
            ++tally.losses;
        } else {
            ++tally.draws;
        }
    }
    return tally;
}

// A baseline player's choice, its ties broken by `random`.
template <class Choose>
auto baseline(Choose choose) {
    return [choose](const GameRecord<Expendibots>& record, Random& random) {
        const std::vector<Move> best = choose(record.current());
        return best[random.below(static_cast<std::uint32_t>(best.size()))];
    };
}

std::string tally_text(const Tally& t, int games) {
    return fmt::format("{:>5.1f} {:>5.1f} {:>6.1f}", 100.0 * (t.wins + 0.5 * t.draws) / games, 100.0 * t.losses / games,
                       t.wins ? static_cast<double>(t.win_turns) / t.wins : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
    if (bge::print_version_if_asked(argc, argv, "train_expendibots_tdleaf")) return 0;
    Settings settings;
    po::options_description options(
        "train_expendibots_tdleaf: TDLeaf(lambda) self-play for the expendibots evaluation "
        "(docs/expendibots.md)\n\nOptions");
    // clang-format off
    options.add_options()
        ("help,h", "this help")
        ("games", po::value(&settings.games)->default_value(settings.games), "self-play games")
        ("depth", po::value(&settings.depth)->default_value(settings.depth), "alpha-beta depth of every search (1..8)")
        ("lambda", po::value(&settings.lambda)->default_value(settings.lambda, "0.7"), "TD lambda, 0..1")
        ("eta", po::value(&settings.eta)->default_value(settings.eta, "0.1"), "learning rate")
        ("epsilon", po::value(&settings.epsilon)->default_value(settings.epsilon, "0.05"),
            "chance of a random move instead of the searched one (its search still teaches)")
        ("random-plies", po::value(&settings.random_plies)->default_value(settings.random_plies),
            "each game opens with 0..N random MOVE actions, so games differ")
        ("seed", po::value(&settings.seed)->default_value(settings.seed), "random seed (same seed, same weights)")
        ("eval-every", po::value(&settings.eval_every)->default_value(settings.eval_every),
            "games between points of the learning curve (0: only at the start and the end)")
        ("eval-games", po::value(&settings.eval_games)->default_value(settings.eval_games),
            "games against each baseline per point")
        ("init", po::value(&settings.init), "start from this weights file (default: the hand-set weights)")
        ("out", po::value(&settings.out),
            "write the weights file here (for setoption name EvalWeights; to ship it, copy it over "
            "the engine's nets/eval_weights.txt and rebuild)");
    // clang-format on
    po::variables_map values;
    try {
        po::store(po::parse_command_line(argc, argv, options), values);
        po::notify(values);
    } catch (const po::error& e) {
        std::cerr << "train_expendibots_tdleaf: " << e.what() << "\n" << options << "\n";
        return 2;
    }
    if (values.count("help")) {
        std::cout << options << "\n";
        return 0;
    }
    auto refuse = [](const std::string& why) {
        std::cerr << "train_expendibots_tdleaf: " << why << "\n";
        return 2;
    };
    if (settings.games < 0) return refuse("--games must be 0 or more");
    if (settings.depth < 1 || settings.depth > 8) return refuse("--depth must be 1..8");
    if (!(settings.lambda >= 0 && settings.lambda <= 1)) return refuse("--lambda must be within 0..1");
    if (!(settings.eta > 0 && settings.eta <= 10)) return refuse("--eta must be within (0, 10]");
    if (!(settings.epsilon >= 0 && settings.epsilon <= 1)) return refuse("--epsilon must be within 0..1");
    if (settings.random_plies < 0 || settings.random_plies > 100) return refuse("--random-plies must be 0..100");
    if (settings.eval_every < 0 || settings.eval_games < 1)
        return refuse("--eval-every must be 0 or more, --eval-games 1 or more");

    std::string command_line = "train_expendibots_tdleaf";
    for (int i = 1; i < argc; ++i) command_line += std::string(" ") + argv[i];

    EvalWeights weights = initial_weights();
    if (!settings.init.empty()) {
        auto loaded = load_weights(settings.init);
        if (!loaded) return refuse("--init: " + loaded.error());
        weights = *loaded;
    }

    Random random(settings.seed);
    Search searcher(Evaluator{&weights}, 4);
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

    std::cout << "# " << command_line << "\n";
    std::cout << fmt::format(
        "# the alpha-beta player at depth {} with the current weights against greedy, minimax2 and itself with "
        "the starting weights (init), {} games each per point, each pair of games after the same 4 random moves;\n"
        "# score%: (wins + draws/2) / games, loss%, turns: its own turns per won game; actions: mean self-play "
        "game length; td-rms: the temporal differences' rms since the last point\n",
        settings.depth, settings.eval_games);
    std::cout << fmt::format("{:>6} {:>5} {:>5} {:>6} {:>5} {:>5} {:>6} {:>5} {:>5} {:>6} {:>7} {:>7} {:>8}\n", "games",
                             "greed", "loss", "turns", "mm2", "loss", "turns", "init", "loss", "turns", "actions",
                             "td-rms", "seconds");
    Tally against_greedy, against_minimax, against_initial;
    const EvalWeights initial = weights;
    Search initial_searcher(Evaluator{&initial}, 4);
    auto curve_point = [&](int games, double rms, double mean_actions) {
        against_greedy = play_against(weights, settings, baseline(greedy_best_moves));
        against_minimax =
            play_against(weights, settings, baseline([](const State& s) { return minimax2_best_moves(s); }));
        against_initial = play_against(weights, settings, [&](const GameRecord<Expendibots>& record, Random&) {
            return search_move(initial_searcher, record, settings.depth).move;
        });
        std::cout << fmt::format("{:>6} {} {} {} {:>7.1f} {:>7.4f} {:>8.1f}", games,
                                 tally_text(against_greedy, settings.eval_games),
                                 tally_text(against_minimax, settings.eval_games),
                                 tally_text(against_initial, settings.eval_games), mean_actions, rms, seconds())
                  << std::endl;
    };
    curve_point(0, 0.0, 0.0);
    double squared_error = 0;
    long steps = 0, actions = 0, games_since = 0;
    for (int game = 0; game < settings.games; ++game) {
        const SelfPlay summary = self_play(weights, searcher, settings, random);
        squared_error += summary.squared_error;
        steps += summary.steps;
        actions += summary.actions;
        ++games_since;
        const bool point = settings.eval_every > 0 && (game + 1) % settings.eval_every == 0;
        if (point || game + 1 == settings.games) {
            curve_point(game + 1, steps ? std::sqrt(squared_error / steps) : 0.0,
                        static_cast<double>(actions) / games_since);
            squared_error = 0;
            steps = actions = games_since = 0;
        }
    }

    const std::string comment = fmt::format(
        "Command line: {}\n"
        "{} self-play games, alpha-beta depth {}, lambda {}, eta {}, epsilon {}, 0..{} random opening moves, seed "
        "{} ({:.0f} s on one core).\n"
        "At depth {} at the end: {:.1f}% against greedy, {:.1f}% against minimax2, {:.1f}% against the starting "
        "weights ({} games each).",
        command_line, settings.games, settings.depth, settings.lambda, settings.eta, settings.epsilon,
        settings.random_plies, settings.seed, seconds(), settings.depth,
        100.0 * (against_greedy.wins + 0.5 * against_greedy.draws) / settings.eval_games,
        100.0 * (against_minimax.wins + 0.5 * against_minimax.draws) / settings.eval_games,
        100.0 * (against_initial.wins + 0.5 * against_initial.draws) / settings.eval_games, settings.eval_games);
    for (std::size_t p = 0; p < phase_count; ++p)
        for (std::size_t i = 0; i < EvalFeatures::count; ++i)
            std::cout << fmt::format("# {:<10} {:<14} {:>9.4f}\n", phase_names[p], EvalFeatures::names[i],
                                     weights.by_phase[p][i]);
    if (!settings.out.empty() &&
        !bge::train::write_text_file("train_expendibots_tdleaf", settings.out, format_weights(weights, comment)))
        return 1;
    return 0;
}
