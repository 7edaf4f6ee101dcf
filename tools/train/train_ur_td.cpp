// train_ur_td: trains the ur engine's td network (engines/ur/td_network.hpp) by TD(lambda)
// self-play, as in TD-Gammon: each side picks the move whose afterstate the network likes best,
// the trainer rolls the dice, and after every move the network learns from the next afterstate
// (search/learning/td_network.hpp). Every --eval-every episodes it prints a learning-curve line:
// the network's 1-ply player against a fixed reference (greedy, the hand-written evaluation) over
// --eval-games seeded games with colours alternating. With --regret-table it instead measures the
// td player's regret (2-ply, as the engine plays) against a solver table. See docs/ur.md.

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "core/random.hpp"
#include "core/ur/ur.hpp"
#include "engines/ur/evaluation.hpp"
#include "engines/ur/solver.hpp"
#include "engines/ur/td_network.hpp"
#include "search/expectimax.hpp"
#include "search/learning/td_network.hpp"

namespace po = boost::program_options;
using namespace bge;
using namespace bge::ur;

namespace {

struct Settings {
    long episodes = 100'000;
    double alpha = 0.01;
    double lambda = 0.85;
    int hidden = 80;
    std::uint64_t seed = 1;
    long eval_every = 5'000;
    int eval_games = 1'000;
    std::string init;
    std::string out;
    std::string cpp;
    std::string curve;
    std::string regret_table;
    int regret_games = 1'000;
};

void roll(State& state, Random& dice) {
    const auto rolls = roll_outcomes(state.ruleset);
    double draw = dice.unit();
    int number = rolls[rolls.size() - 1].number;
    for (const Roll& r : rolls) {
        draw -= r.probability;
        if (draw < 0) {
            number = r.number;
            break;
        }
    }
    play(state, Move::make_roll(number));
}

// The move whose afterstate has the best value for the mover, by `value_of` (side-to-move view).
template <class Value>
Move best_afterstate(const State& state, Value&& value_of) {
    FixedVector<Move, max_legal_moves> moves;
    generate_moves(state, moves);
    Move best = moves[0];
    double best_value = -1e9;
    for (const Move& move : moves) {
        State next = state;
        play(next, move);
        const double v = value_of(next);
        const double mine = next.to_move == state.to_move ? v : -v;
        if (mine > best_value) {
            best_value = mine;
            best = move;
        }
    }
    return best;
}

double net_value(const TdNetwork& net, const State& s) { return 2 * net.win_probability(s) - 1; }

// One self-play game, learning as it goes. Returns the number of moves.
int train_episode(TdNetwork& net, search::learning::TdLambdaLearner& learner, Random& dice) {
    State state = start_state({});
    learner.start_game();
    float features[td_inputs];
    int moves = 0;
    while (!outcome(state).is_over()) {
        const State before = state;  // an afterstate: a roll is due
        roll(state, dice);
        play(state, best_afterstate(state, [&](const State& s) { return net_value(net, s); }));
        ++moves;
        td_features(before, features);
        double target;
        if (const Outcome o = outcome(state); o.is_over())
            target = o.winner == Side::first ? 1.0 : 0.0;
        else {
            const double p = net.win_probability(state);
            target = state.to_move == Side::first ? p : 1 - p;
        }
        learner.learn(features, before.to_move == Side::second, target);
    }
    return moves;
}

// The network's 1-ply player against greedy (hand evaluation, 1 ply), colours alternating.
double win_rate(const TdNetwork& net, int games, std::uint64_t seed) {
    int wins = 0;
    for (int game = 0; game < games; ++game) {
        Random dice(seed + static_cast<std::uint64_t>(game / 2));  // both colours see the same dice
        const Side td_side = game % 2 == 0 ? Side::first : Side::second;
        State state = start_state({});
        while (!outcome(state).is_over()) {
            roll(state, dice);
            const Move move = state.to_move == td_side
                                  ? best_afterstate(state, [&](const State& s) { return net_value(net, s); })
                                  : best_afterstate(state, [](const State& s) { return hand_evaluation(s); });
            play(state, move);
        }
        wins += outcome(state).winner == td_side ? 1 : 0;
    }
    return static_cast<double>(wins) / games;
}

struct TdLeafEvaluator {
    const TdNetwork* net;
    double evaluate(const State& s) const { return net_value(*net, s); }
};

// The td player as the engine plays it (2-ply expectimax over the network) in self-play: at each
// decision with a choice, the table's win probability of the best move minus that of its move.
int measure_regret(const TdNetwork& net, const SolverTable& table, int games, std::uint64_t seed) {
    search::Expectimax<Ur, TdLeafEvaluator> search(TdLeafEvaluator{&net});
    double regret_sum = 0, regret_choice_sum = 0;
    long decisions = 0, choices = 0, mistakes = 0;
    for (int game = 0; game < games; ++game) {
        Random dice(seed + static_cast<std::uint64_t>(game));
        State state = start_state({});
        while (!outcome(state).is_over()) {
            roll(state, dice);
            FixedVector<Move, max_legal_moves> moves;
            generate_moves(state, moves);
            const Move chosen = search.search(state, 2).best;
            double best = -1, mine = -1;
            for (const Move& move : moves) {
                State next = state;
                play(next, move);
                const double p = table.win_probability(next);
                const double v = next.to_move == state.to_move ? p : 1 - p;
                best = std::max(best, v);
                if (move == chosen) mine = v;
            }
            const double regret = best - mine;
            regret_sum += regret;
            ++decisions;
            if (moves.size() > 1) {
                regret_choice_sum += regret;
                ++choices;
                mistakes += regret > 1e-6 ? 1 : 0;
            }
            play(state, chosen);
        }
    }
    std::printf("regret games %d decisions %ld choices %ld\n", games, decisions, choices);
    std::printf("mean-regret-per-move %.6f\nmean-regret-per-choice %.6f\nnon-best-choices %.4f\n",
                regret_sum / decisions, regret_choice_sum / choices, static_cast<double>(mistakes) / choices);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Settings s;
    po::options_description options("train_ur_td options");
    options.add_options()("help,h", "this help")("episodes", po::value(&s.episodes)->default_value(s.episodes),
                                                 "self-play games")(
        "alpha", po::value(&s.alpha)->default_value(s.alpha), "learning rate")(
        "lambda", po::value(&s.lambda)->default_value(s.lambda), "trace decay")(
        "hidden", po::value(&s.hidden)->default_value(s.hidden), "hidden units")(
        "seed", po::value(&s.seed)->default_value(s.seed), "seed for the dice and the initial weights")(
        "eval-every", po::value(&s.eval_every)->default_value(s.eval_every), "episodes between curve points")(
        "eval-games", po::value(&s.eval_games)->default_value(s.eval_games), "games per curve point")(
        "init", po::value(&s.init), "start from this weights file")("out", po::value(&s.out),
                                                                    "write the weights file here")(
        "cpp", po::value(&s.cpp), "write the weights as engines/ur/td_weights.cpp source here")(
        "curve", po::value(&s.curve), "also write the learning curve as CSV here")(
        "regret-table", po::value(&s.regret_table), "measure the td player's regret against this solver table")(
        "regret-games", po::value(&s.regret_games)->default_value(s.regret_games), "games for --regret-table");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, options), vm);
        po::notify(vm);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "train_ur_td: error: %s\n", e.what());
        return 2;
    }
    if (vm.count("help")) {
        std::cout << options << '\n';
        return 0;
    }
    if (s.hidden < 1 || s.hidden > 1000 || s.episodes < 0 || s.eval_every < 1 || s.eval_games < 2) {
        std::fprintf(stderr, "train_ur_td: error: out-of-range setting\n");
        return 2;
    }
    TdNetwork net{search::learning::SigmoidNetwork::random(td_inputs, s.hidden, s.seed)};
    if (!s.init.empty()) {
        auto loaded = TdNetwork::load(s.init);
        if (!loaded) {
            std::fprintf(stderr, "train_ur_td: error: %s\n", loaded.error().c_str());
            return 2;
        }
        net = *loaded;
    } else if (!s.regret_table.empty()) {
        net = builtin_td_network();
    }
    if (!s.regret_table.empty()) {
        auto table = SolverTable::load(s.regret_table);
        if (!table) {
            std::fprintf(stderr, "train_ur_td: error: %s\n", table.error().c_str());
            return 2;
        }
        if (table->pieces() != 7) std::fprintf(stderr, "train_ur_td: note: the table has %d pieces\n", table->pieces());
        return measure_regret(net, *table, s.regret_games, s.seed);
    }
    std::ofstream curve;
    if (!s.curve.empty()) {
        curve.open(s.curve);
        curve << "episodes,win_rate_vs_greedy,eval_games\n";
    }
    search::learning::TdLambdaLearner learner(net.net, s.alpha, s.lambda);
    Random dice(s.seed * 0x9E3779B97F4A7C15ULL + 17);
    const auto start = std::chrono::steady_clock::now();
    long total_moves = 0;
    auto report = [&](long episode) {
        const double rate = win_rate(net, s.eval_games, 1'000'003);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("episodes %ld win-rate-vs-greedy %.4f (%d games) moves/episode %.1f %.0f s\n", episode, rate,
                    s.eval_games, episode ? static_cast<double>(total_moves) / episode : 0.0, seconds);
        std::fflush(stdout);
        if (curve.is_open()) curve << episode << ',' << rate << ',' << s.eval_games << '\n' << std::flush;
    };
    report(0);
    for (long episode = 1; episode <= s.episodes; ++episode) {
        total_moves += train_episode(net, learner, dice);
        if (episode % s.eval_every == 0) report(episode);
    }
    if (!s.out.empty())
        if (auto status = net.save(s.out); !status)
            std::fprintf(stderr, "train_ur_td: error: %s\n", status.error().c_str());
    if (!s.cpp.empty()) {
        std::ofstream source(s.cpp);
        source << net.to_cpp(fmt::format("{} self-play episodes, alpha {}, lambda {}, {} hidden units, seed {}.",
                                         s.episodes, s.alpha, s.lambda, s.hidden, s.seed));
    }
    return 0;
}
