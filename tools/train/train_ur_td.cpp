// train_ur_td: trains the ur engine's td networks (engines/ur/td_network.hpp), one per ruleset,
// and measures players' regret against a solver table. See docs/ur.md, "Training the td network".
//
// Training runs in rounds. In a round, --round-games self-play games are played with the weights
// fixed (each side picks the move whose afterstate the network likes best, or a random one with
// probability --explore; the trainer rolls the dice, seeded per game, so the games are the same
// for any --threads). Every position where a roll is due becomes a sample whose target is
//   td        the TD(lambda) return from the network's own values (self-play TD(lambda));
//   table     the solver table's exact value (--teacher; supervised);
//   td-table  the TD(lambda) return from the table's values ("TD with the table at the leaves").
// --siblings (table targets only) adds every other position a decision could have led to. Then
// the network takes Adam steps over the round's samples in shuffled mini-batches
// (search/learning/network_fit.hpp). Every --eval-every games a curve line reports the
// network's 1-ply player against greedy and, with a table, its regret at 1 and 2 plies.
//
// --out writes the weights file (binary by default; engines/ur/td_network_file.cpp). The engine
// ships exactly such files: engines/ur/nets/RULESET.net, built in at compile time.
//
// --regret-table FILE instead plays --regret-games self-play games with a player (the td network
// at --regret-depth plies by default) and prints its regret against the table.

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <cmath>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/random.hpp"
#include "core/ur/ur.hpp"
#include "core/version.hpp"
#include "engines/ur/evaluation.hpp"
#include "engines/ur/features.hpp"
#include "engines/ur/regret.hpp"
#include "engines/ur/solver.hpp"
#include "engines/ur/td_network.hpp"
#include "search/expectimax.hpp"
#include "search/learning/network_fit.hpp"
#include "search/learning/schedule.hpp"

namespace po = boost::program_options;
using namespace bge;
using namespace bge::ur;
using search::learning::FeatureList;
using search::learning::SparseDataset;
using search::learning::Schedule;

namespace {

enum class Target { td, table, td_table };

struct Settings {
    long episodes = 100'000;
    std::string alpha = "0.001";
    std::string lambda = "0.7";
    int hidden = 128;
    int hidden2 = 32;
    std::string activation = "relu";
    std::string features = "rich";
    std::string ruleset = "finkel";
    std::uint64_t seed = 1;
    long eval_every = 5'000;
    int eval_games = 1'000;
    int eval_regret_games = 200;
    std::string init;
    std::string out;
    std::string format = "binary";
    std::string curve;
    std::string teacher;
    std::string target = "td";
    bool siblings = false;
    double explore = 0;
    int round_games = 32;
    int batch = 256;
    int threads = 1;
    std::string regret_table;
    int regret_games = 1'000;
    int regret_depth = 2;
    std::string regret_player = "td";
};

void roll(State& state, Random& dice) { play(state, *drawn_chance_outcome<Ur>(state, dice.unit())); }

std::uint64_t game_seed(std::uint64_t seed, long game) {
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(game);
    return splitmix64(state);
}

// Runs job(i, t) for i in [0, count) on `threads` threads: thread t takes i = t, t + threads, ...
void parallel_for(int threads, long count, const std::function<void(long, int)>& job) {
    auto work = [&](int t) {
        for (long i = t; i < count; i += threads) job(i, t);
    };
    std::vector<std::thread> workers;
    for (int t = 1; t < threads; ++t) workers.emplace_back(work, t);
    work(0);
    for (auto& worker : workers) worker.join();
}

// The mover's winning chance after `move` in `decision`, by `value` (the side to move's chance
// of a position where a roll is due).
template <class Value>
double after(const State& decision, Move move, State& next, Value&& value) {
    next = decision;
    play(next, move);
    const double p = value(next);
    return next.to_move == decision.to_move ? p : 1.0 - p;
}

struct NetValue {
    const TdNetwork* net;
    mutable FeatureList x;
    double operator()(const State& s) const {
        if (const Outcome o = outcome(s); o.is_over()) return o.winner == s.to_move ? 1.0 : 0.0;
        encode_features(s, net->features, x);
        return net->net.probability(x);
    }
};

struct TdLeafEvaluator {
    const TdNetwork* net;
    double evaluate(const State& s) const { return 2 * net->win_probability(s) - 1; }
};

// One self-play game's samples (targets filled in after the game).
struct GameRecord {
    SparseDataset samples;
    long moves = 0;
};

struct Trainer {
    const Settings& s;
    Variant variant;
    TdNetwork& net;
    const SolverTable* table;  // may be null
    Target target;
    double lambda = 0.7;

    // Plays game `game` with the current weights and returns its samples with their targets.
    GameRecord play_game(long game) const {
        GameRecord record;
        Random dice(game_seed(s.seed, game));
        Random explore(game_seed(s.seed ^ 0xE7037ED1A0B428DBULL, game));
        NetValue value{&net, {}};
        State state = start_state(variant);
        std::vector<FeatureList> positions;
        std::vector<float> light_value;  // P(light wins) of each position: the network's or the table's
        std::vector<bool> light_to_move;
        FeatureList x;
        auto add_position = [&](const State& position, double mover_value) {
            positions.emplace_back();
            encode_features(position, net.features, positions.back());
            light_to_move.push_back(position.to_move == Side::first);
            light_value.push_back(static_cast<float>(position.to_move == Side::first ? mover_value : 1 - mover_value));
        };
        add_position(state, target == Target::td ? value(state) : table->win_probability(state));
        FixedVector<Move, max_legal_moves> moves;
        State next;
        while (!outcome(state).is_over()) {
            roll(state, dice);
            generate_moves(state, moves);
            std::size_t chosen = 0;
            double best = -1;
            double values[max_legal_moves];
            for (std::size_t i = 0; i < moves.size(); ++i) {
                values[i] = after(state, moves[i], next, value);
                if (values[i] > best) {
                    best = values[i];
                    chosen = i;
                }
            }
            if (s.explore > 0 && moves.size() > 1 && explore.unit() < s.explore)
                chosen = explore.below(static_cast<std::uint32_t>(moves.size()));
            if (s.siblings && table) {
                for (std::size_t i = 0; i < moves.size(); ++i) {
                    if (i == chosen) continue;
                    next = state;
                    play(next, moves[i]);
                    if (outcome(next).is_over()) continue;
                    encode_features(next, net.features, x);
                    record.samples.add(x, static_cast<float>(table->win_probability(next)));
                }
            }
            const State decision = state;
            play(state, moves[chosen]);
            ++record.moves;
            if (outcome(state).is_over()) break;
            // values[] are the decision's mover's view; add_position wants the new mover's.
            if (target == Target::td)
                add_position(state, state.to_move == decision.to_move ? values[chosen] : 1 - values[chosen]);
            else
                add_position(state, table->win_probability(state));
        }
        const double light_result = outcome(state).winner == Side::first ? 1.0 : 0.0;
        std::vector<float> light_target;
        if (target == Target::table)
            light_target = light_value;
        else
            light_target = search::learning::lambda_returns(light_value, light_result, lambda);
        for (std::size_t t = 0; t < positions.size(); ++t)
            record.samples.add(positions[t], light_to_move[t] ? light_target[t] : 1 - light_target[t]);
        return record;
    }
};

// The network's 1-ply player against greedy (the hand evaluation, 1 ply), colours alternating,
// both colours of a pair seeing the same dice.
double win_rate_vs_greedy(const TdNetwork& net, const Variant& variant, int games, int threads) {
    std::vector<int> won(static_cast<std::size_t>(games), 0);
    parallel_for(threads, games, [&](long game, int) {
        Random dice(1'000'003 + static_cast<std::uint64_t>(game / 2));
        const Side td_side = game % 2 == 0 ? Side::first : Side::second;
        NetValue value{&net, {}};
        auto hand = [](const State& s) { return (hand_evaluation(s) + 1) / 2; };
        State state = start_state(variant), next;
        FixedVector<Move, max_legal_moves> moves;
        while (!outcome(state).is_over()) {
            roll(state, dice);
            generate_moves(state, moves);
            Move best = moves[0];
            double best_value = -1;
            for (const Move& move : moves) {
                const double v = state.to_move == td_side ? after(state, move, next, value) : after(state, move, next, hand);
                if (v > best_value) {
                    best_value = v;
                    best = move;
                }
            }
            play(state, best);
        }
        won[static_cast<std::size_t>(game)] = outcome(state).winner == td_side ? 1 : 0;
    });
    long wins = 0;
    for (int w : won) wins += w;
    return static_cast<double>(wins) / games;
}

using Chooser = std::function<Move(const State&)>;
using ChooserFactory = std::function<Chooser()>;  // one per thread: searches keep state

// Self-play games by the chooser with seeded dice (game g uses seed + g), each decision recorded
// against the table.
RegretCounter measure_regret(const SolverTable& table, const ChooserFactory& factory, int games, std::uint64_t seed,
                             int threads) {
    std::vector<RegretCounter> per_game(static_cast<std::size_t>(games));
    std::vector<Chooser> choosers;
    for (int t = 0; t < threads; ++t) choosers.push_back(factory());
    parallel_for(threads, games, [&](long game, int t) {
        RegretCounter& counter = per_game[static_cast<std::size_t>(game)];
        Random dice(seed + static_cast<std::uint64_t>(game));
        State state = start_state(table.variant());
        while (!outcome(state).is_over()) {
            roll(state, dice);
            const Move chosen = choosers[static_cast<std::size_t>(t)](state);
            counter.record(table, state, chosen);
            play(state, chosen);
        }
        counter.count_game();
    });
    RegretCounter total;
    for (const auto& counter : per_game) total.merge(counter);
    return total;
}

ChooserFactory td_chooser(const TdNetwork& net, int depth) {
    return [&net, depth]() -> Chooser {
        auto search = std::make_shared<search::Expectimax<Ur, TdLeafEvaluator>>(TdLeafEvaluator{&net});
        return [search, depth](const State& s) { return search->search(s, depth).best; };
    };
}

ChooserFactory hand_chooser(int depth) {
    return [depth]() -> Chooser {
        auto search = std::make_shared<search::Expectimax<Ur, HandEvaluator>>();
        return [search, depth](const State& s) { return search->search(s, depth).best; };
    };
}

Expected<Ruleset> parse_ruleset(const std::string& name) {
    if (name == "finkel") return Ruleset::finkel;
    if (name == "masters") return Ruleset::masters;
    if (name == "blitz") return Ruleset::blitz;
    return make_error(fmt::format("--ruleset {}: finkel, masters or blitz", name));
}

int fail(const std::string& message) {
    std::fprintf(stderr, "train_ur_td: error: %s\n", message.c_str());
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (bge::print_version_if_asked(argc, argv, "train_ur_td")) return 0;
    Settings s;
    po::options_description options("train_ur_td options");
    auto add = options.add_options();
    add("help,h", "this help");
    add("episodes", po::value(&s.episodes)->default_value(s.episodes), "self-play games");
    add("alpha", po::value(&s.alpha)->default_value(s.alpha),
        "Adam's learning rate, or a schedule over the games: linear:A:B, cosine:A:B, step:A:F:N, inverse:A:N");
    add("lambda", po::value(&s.lambda)->default_value(s.lambda), "TD(lambda)'s trace decay, or a schedule");
    add("hidden", po::value(&s.hidden)->default_value(s.hidden), "units in the first hidden layer");
    add("hidden2", po::value(&s.hidden2)->default_value(s.hidden2), "units in the second hidden layer (0: none)");
    add("activation", po::value(&s.activation)->default_value(s.activation), "hidden units: relu or sigmoid");
    add("features", po::value(&s.features)->default_value(s.features), "network inputs: rich or basic");
    add("ruleset", po::value(&s.ruleset)->default_value(s.ruleset), "finkel, masters or blitz (7, 7, 5 pieces)");
    add("seed", po::value(&s.seed)->default_value(s.seed), "seed for the dice and the initial weights");
    add("eval-every", po::value(&s.eval_every)->default_value(s.eval_every), "games between curve points");
    add("eval-games", po::value(&s.eval_games)->default_value(s.eval_games), "games against greedy per curve point");
    add("eval-regret-games", po::value(&s.eval_regret_games)->default_value(s.eval_regret_games),
        "with a table: self-play games per curve point for the regret");
    add("init", po::value(&s.init), "start from this weights file");
    add("out", po::value(&s.out),
        "write the weights file here; to ship it, copy it over engines/ur/nets/RULESET.net and rebuild");
    add("format", po::value(&s.format)->default_value(s.format),
        "--out's format: binary (what the engine ships) or text (one number a line); both load");
    add("curve", po::value(&s.curve), "also write the learning curve as CSV here");
    add("teacher", po::value(&s.teacher), "a solver table: targets for --target table and td-table, and the curve's regret");
    add("target", po::value(&s.target)->default_value(s.target), "td, table or td-table");
    add("siblings", po::bool_switch(&s.siblings), "table targets: also learn every position a decision could reach");
    add("explore", po::value(&s.explore)->default_value(s.explore), "self-play: chance of a random move");
    add("round-games", po::value(&s.round_games)->default_value(s.round_games), "games played per round");
    add("batch", po::value(&s.batch)->default_value(s.batch), "samples per Adam step");
    add("threads", po::value(&s.threads)->default_value(s.threads), "threads (the result does not depend on it)");
    add("regret-table", po::value(&s.regret_table), "measure a player's regret against this solver table");
    add("regret-games", po::value(&s.regret_games)->default_value(s.regret_games), "games for --regret-table");
    add("regret-player", po::value(&s.regret_player)->default_value(s.regret_player),
        "for --regret-table: td, expectimax or perfect");
    add("regret-depth", po::value(&s.regret_depth)->default_value(s.regret_depth),
        "for --regret-table: plies the player searches");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, options), vm);
        po::notify(vm);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    if (vm.count("help")) {
        std::cout << options << '\n';
        return 0;
    }
    const auto alpha = Schedule::parse(s.alpha);
    const auto lambda = Schedule::parse(s.lambda);
    if (!alpha) return fail("--alpha: a number or a schedule such as cosine:0.002:0.0001");
    if (!lambda) return fail("--lambda: a number or a schedule such as linear:0.9:0.5");
    if (s.hidden < 1 || s.hidden > search::learning::ValueNetwork::max_hidden || s.hidden2 < 0 ||
        s.hidden2 > search::learning::ValueNetwork::max_hidden || s.episodes < 0 || s.eval_every < 1 ||
        s.eval_games < 2 || s.eval_regret_games < 0 || s.round_games < 1 || s.batch < 1 || s.threads < 1 ||
        s.threads > 64 || s.regret_games < 1 || s.regret_depth < 1 || s.regret_depth > 6 || s.explore < 0 ||
        s.explore > 1)
        return fail("out-of-range setting");
    if (s.activation != "relu" && s.activation != "sigmoid") return fail("--activation: relu or sigmoid");
    if (s.format != "binary" && s.format != "text") return fail("--format: binary or text");
    const auto feature_set = parse_feature_set(s.features);
    if (!feature_set) return fail(feature_set.error());
    const auto ruleset = parse_ruleset(s.ruleset);
    if (!ruleset) return fail(ruleset.error());
    Target target = Target::td;
    if (s.target == "table")
        target = Target::table;
    else if (s.target == "td-table")
        target = Target::td_table;
    else if (s.target != "td")
        return fail("--target: td, table or td-table");

    TdNetwork net = TdNetwork::random(*ruleset, *feature_set, s.hidden, s.hidden2,
                                      s.activation == "relu" ? search::learning::Activation::relu
                                                             : search::learning::Activation::sigmoid,
                                      s.seed);
    const bool ruleset_given = !vm["ruleset"].defaulted();
    if (!s.init.empty()) {
        auto loaded = TdNetwork::load(s.init);
        if (!loaded) return fail(loaded.error());
        net = std::move(*loaded);
    }

    if (!s.regret_table.empty()) {
        auto table = SolverTable::load(s.regret_table);
        if (!table) return fail(table.error());
        if (ruleset_given && table->ruleset() != *ruleset)
            return fail(fmt::format("the table solves {}, not {}", ruleset_name(table->ruleset()), s.ruleset));
        if (s.init.empty()) net = builtin_td_network(table->ruleset());
        if (net.ruleset != table->ruleset())
            std::fprintf(stderr, "train_ur_td: note: the network was trained for %s, the table is %s\n",
                         std::string(ruleset_name(net.ruleset)).c_str(),
                         std::string(ruleset_name(table->ruleset())).c_str());
        if (table->pieces() != default_pieces(table->ruleset()))
            std::fprintf(stderr, "train_ur_td: note: the table has %d pieces\n", table->pieces());
        ChooserFactory factory;
        if (s.regret_player == "td")
            factory = td_chooser(net, s.regret_depth);
        else if (s.regret_player == "expectimax")
            factory = hand_chooser(s.regret_depth);
        else if (s.regret_player == "perfect")
            factory = [&table]() -> Chooser {
                return [&table](const State& state) {
                    FixedVector<Move, max_legal_moves> moves;
                    generate_moves(state, moves);
                    Move best = moves[0];
                    double best_value = -1;
                    for (const Move& move : moves)
                        if (const double v = table->move_value(state, move); v > best_value) {
                            best_value = v;
                            best = move;
                        }
                    return best;
                };
            };
        else
            return fail("--regret-player: td, expectimax or perfect");
        const auto start = std::chrono::steady_clock::now();
        const RegretCounter counter = measure_regret(*table, factory, s.regret_games, s.seed, s.threads);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("player %s depth %d ruleset %s\n%s", s.regret_player.c_str(), s.regret_depth,
                    std::string(ruleset_name(table->ruleset())).c_str(), counter.report().c_str());
        std::printf("seconds %.1f\n", seconds);
        return 0;
    }

    if (net.ruleset != *ruleset)
        return fail(fmt::format("--init: the network was trained for {}, not {}", ruleset_name(net.ruleset), s.ruleset));
    std::optional<SolverTable> table;
    if (!s.teacher.empty()) {
        auto loaded = SolverTable::load(s.teacher);
        if (!loaded) return fail(loaded.error());
        if (loaded->ruleset() != *ruleset || loaded->pieces() != default_pieces(*ruleset))
            return fail(fmt::format("--teacher solves {} with {} pieces, not {} with {}", ruleset_name(loaded->ruleset()),
                                    loaded->pieces(), s.ruleset, default_pieces(*ruleset)));
        table = std::move(*loaded);
    }
    if (target != Target::td && !table) return fail("--target table and td-table need --teacher TABLE");
    if (s.siblings && target != Target::table) return fail("--siblings needs --target table");

    const Variant variant{*ruleset, default_pieces(*ruleset)};
    std::ofstream curve;
    if (!s.curve.empty()) {
        curve.open(s.curve);
        curve << "episodes,win_rate_vs_greedy,eval_games,regret_1ply,best_share_1ply,regret_2ply,best_share_2ply,"
                 "regret_games,moves_per_cpu_second,seconds\n";
    }
    Trainer trainer{s, variant, net, table ? &*table : nullptr, target};
    search::learning::NetworkFit fit(net.net, s.threads);
    const auto start = std::chrono::steady_clock::now();
    // Speed is moves per CPU second (all threads' CPU time): the machine may be shared, and a
    // core's speed is what the budget is about. Wall time is reported beside it.
    double play_seconds = 0, fit_seconds = 0, cpu_seconds = 0;
    long total_moves = 0;
    search::learning::FitLoss last_loss;
    auto report = [&](long episode) {
        const double rate = win_rate_vs_greedy(net, variant, s.eval_games, s.threads);
        std::optional<RegretCounter> one, two;
        if (table && s.eval_regret_games > 0) {
            one = measure_regret(*table, td_chooser(net, 1), s.eval_regret_games, 77'000'000, s.threads);
            two = measure_regret(*table, td_chooser(net, 2), s.eval_regret_games, 77'000'000, s.threads);
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double speed = cpu_seconds > 0 ? total_moves / cpu_seconds : 0;
        std::printf("episodes %ld win-rate-vs-greedy %.4f (%d games) moves/episode %.1f", episode, rate, s.eval_games,
                    episode ? static_cast<double>(total_moves) / episode : 0.0);
        if (one)
            std::printf(" regret-1ply %.6f best %.4f regret-2ply %.6f best %.4f (%d games)", one->total().per_decision(),
                        one->total().best_share(), two->total().per_decision(), two->total().best_share(),
                        s.eval_regret_games);
        std::printf(" rms-error %.5f moves/cpu-s %.0f (cpu %.0f s; wall: play %.0f s, fit %.0f s) %.0f s\n",
                    std::sqrt(last_loss.squared_error), speed, cpu_seconds, play_seconds, fit_seconds, seconds);
        std::fflush(stdout);
        if (curve.is_open()) {
            curve << episode << ',' << rate << ',' << s.eval_games << ',';
            if (one)
                curve << one->total().per_decision() << ',' << one->total().best_share() << ','
                      << two->total().per_decision() << ',' << two->total().best_share() << ',' << s.eval_regret_games;
            else
                curve << ",,,,";
            curve << ',' << speed << ',' << seconds << '\n' << std::flush;
        }
    };
    report(0);
    std::vector<GameRecord> records;
    SparseDataset samples;
    std::vector<std::uint32_t> order;
    Random shuffle(game_seed(s.seed, -1));
    long next_report = s.eval_every;
    for (long first = 0; first < s.episodes; first += s.round_games) {
        const long count = std::min<long>(s.round_games, s.episodes - first);
        trainer.lambda = lambda->at(static_cast<double>(first), static_cast<double>(s.episodes));
        const std::clock_t c0 = std::clock();
        const auto t0 = std::chrono::steady_clock::now();
        records.assign(static_cast<std::size_t>(count), {});
        parallel_for(s.threads, count,
                     [&](long i, int) { records[static_cast<std::size_t>(i)] = trainer.play_game(first + i); });
        samples.clear();
        for (const auto& record : records) {
            samples.append(record.samples);
            total_moves += record.moves;
        }
        const auto t1 = std::chrono::steady_clock::now();
        order.resize(samples.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
        std::shuffle(order.begin(), order.end(), shuffle);
        last_loss = fit.train(samples, order, static_cast<std::size_t>(s.batch),
                              alpha->at(static_cast<double>(first), static_cast<double>(s.episodes)));
        const auto t2 = std::chrono::steady_clock::now();
        play_seconds += std::chrono::duration<double>(t1 - t0).count();
        fit_seconds += std::chrono::duration<double>(t2 - t1).count();
        cpu_seconds += static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
        if (first + count >= next_report) {
            report(first + count);
            while (next_report <= first + count) next_report += s.eval_every;
        }
    }
    if (!s.out.empty()) {
        net.description = fmt::format(
            "train_ur_td: {}: {} self-play games, target {}, alpha {}, lambda {}, "
            "{} features, layers {} {} {}, seed {}{}.",
            s.ruleset, s.episodes, s.target, s.alpha, s.lambda, s.features, net.net.inputs(), net.net.hidden1(),
            net.net.hidden2(), s.seed, s.init.empty() ? "" : ", from " + s.init);
        const auto format = s.format == "text" ? WeightsFormat::text : WeightsFormat::binary;
        if (auto status = net.save(s.out, format); !status) return fail(status.error());
    }
    return 0;
}
