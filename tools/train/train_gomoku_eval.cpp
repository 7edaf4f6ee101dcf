// train_gomoku_eval: fits the Gomoku engine's evaluation (engines/gomoku/evaluation.hpp, the
// "fitted" weights over SearchBoard's incremental pattern and threat counts) to self-play results,
// on the learning core every trainer shares (search/learning: SparseDataset, LogisticFit,
// Schedule).
//
//   train_gomoku_eval selfplay --rule R --games N --nodes K --threads T --seed S --out data.bin
//       plays games with the engine's alpha-beta at K nodes a move from random openings near the
//       centre (3 stones within 3 cells, as `arbiter book -radius 3`), and writes every position
//       after the opening: its features from the side to move's view, and the game's result for
//       that side (1 win, 0.5 draw, 0 loss)
//       with --games-out, also the games (moves and search scores) for the network's fit; with
//       --network FILE, the players evaluate with that pattern network
//   train_gomoku_eval network --games g.txt [...] --rule R --out RULE.nnue [--hidden H] ...
//       fits the pattern network (engines/gomoku/network.hpp) to those games
//       (gomoku_network_fit.cpp)
//   train_gomoku_eval policy --games g.txt [...] --rule R --out RULE.policy [--epochs E] ...
//       fits the move policy (engines/gomoku/policy.hpp) to the moves played (gomoku_policy_fit.cpp)
//   train_gomoku_eval fit --data a.bin [b.bin ...] --out RULE.eval [--epochs E] ...
//       logistic regression of the results on the features; writes the weights file (centi-units
//       per count, what the engine's EvalFile reads, and what engines/gomoku/nets/RULE.eval ships)
//       and prints the learning curve as CSV
//   train_gomoku_eval labels --data labels.jsonl [...] --out g.txt [--teacher logistic:200]
//       turns a teacher's judgement (`arbiter analyse` datasets: Rapfi's, say) into a games file
//       whose scores are the teacher's, for `network --score-weight 1` (gomoku_games.hpp)
//   train_gomoku_eval builtin RULE
//       prints the engine's built-in weights for a rule as a weights file
//
// tools/train/gomoku_eval_pipeline.sh runs the whole training for the three rules.

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/gomoku/gomoku.hpp"
#include "core/random.hpp"
#include "core/shard.hpp"
#include "core/version.hpp"
#include "engines/gomoku/board.hpp"
#include "engines/gomoku/evaluation.hpp"
#include "engines/gomoku/network.hpp"
#include "search/alphabeta.hpp"
#include "search/learning/logistic.hpp"
#include "search/learning/sparse_dataset.hpp"
#include "tools/train/gomoku_games.hpp"
#include "tools/train/gomoku_network_fit.hpp"
#include "tools/train/gomoku_policy_fit.hpp"
#include "tools/train/subcommand_options.hpp"

namespace po = boost::program_options;
using namespace bge;
using namespace bge::gomoku;
using bge::search::learning::LogisticFit;
using bge::search::learning::LogisticSettings;
using bge::search::learning::Schedule;
using bge::train::parse_subcommand;
using bge::search::learning::SparseDataset;
using bge::search::learning::FeatureList;

namespace {

constexpr std::string_view program = "train_gomoku_eval";
// Scores are centi-units: one logit (a factor e in the odds) is this many; weights are stored in
// 1/eval_weight_scale of a centi-unit, so small per-count weights keep their precision.
constexpr double centi_units_per_logit = 200.0;

struct SelfplayOptions {
    std::string rule = "freestyle";
    int games = 1000;
    std::uint64_t nodes = 3000;
    int threads = 1;
    std::uint64_t seed = 1;
    int opening_plies = 3;
    int radius = 3;
    std::string weights;  // start from these fitted weights ("" : the hand-made evaluation)
    std::string network;  // evaluate with this pattern network ("": the weights above)
    std::string out;
    std::string games_out;
    std::string shard = "1/1";
};

// One game: random opening near the centre, then alpha-beta at fixed nodes; every position after
// the opening goes into `data` with the result for its side to move.
void play_game(const Variant& variant, const SelfplayOptions& options, Random& random,
               search::AlphaBeta<GomokuSearch, GomokuEvaluator>& engine,
               const search::learning::QuantisedNetwork* network, SparseDataset& data, train::GomokuGame& game) {
    SearchBoard board(start_state(variant));
    game.variant = variant;
    const int centre_x = variant.width / 2, centre_y = variant.height / 2;
    for (int ply = 0; ply < options.opening_plies; ++ply) {
        std::vector<Move> near;
        for (int y = centre_y - options.radius; y <= centre_y + options.radius; ++y)
            for (int x = centre_x - options.radius; x <= centre_x + options.radius; ++x)
                if (board.rules.on_board(x, y) && board.rules.cells[static_cast<std::size_t>(square_at(x, y))] == empty)
                    near.push_back(Move::at(x, y));
        const Move move = near[random.below(static_cast<std::uint32_t>(near.size()))];
        GomokuSearch::play(board, move);
        game.moves.push_back(move);
        game.scores.push_back(train::GomokuGame::no_score);
        ++game.opening_plies;
        if (GomokuSearch::outcome(board).is_over()) return;
    }
    board.use_network(network);
    engine.clear();
    std::vector<std::pair<EvalFeatures, Side>> positions;
    while (!GomokuSearch::outcome(board).is_over()) {
        EvalFeatures features;
        eval_features(board, features);
        positions.emplace_back(features, board.side_to_move());
        search::SearchRequest<GomokuSearch> request;
        request.root = board;
        request.history = {GomokuSearch::hash(board)};
        request.limits.nodes = options.nodes;
        const auto result = engine.search(request, {});
        if (!result.has_move) break;
        GomokuSearch::play(board, result.best);
        game.moves.push_back(result.best);
        game.scores.push_back(static_cast<std::int16_t>(std::clamp(result.score, -32000, 32000)));
    }
    const Outcome outcome = GomokuSearch::outcome(board);
    game.result = outcome.kind != OutcomeKind::win ? 0 : outcome.winner == Side::first ? 1 : -1;
    const float phase = 1.0f;
    for (const auto& [features, side] : positions) {
        FeatureList row;
        for (int i = 0; i < eval_feature_count; ++i)
            row.add(i, static_cast<float>(std::min(features[static_cast<std::size_t>(i)], 32000)));
        const float target = outcome.kind == OutcomeKind::win ? (outcome.winner == side ? 1.0f : 0.0f) : 0.5f;
        data.add(row, target, &phase);
    }
}

int run_selfplay(const std::vector<std::string>& arguments) {
    SelfplayOptions options;
    po::options_description described("train_gomoku_eval selfplay: play training games");
    described.add_options()("rule", po::value(&options.rule), "freestyle, standard or renju")(
        "games", po::value(&options.games), "games to play")("nodes", po::value(&options.nodes),
                                                             "alpha-beta nodes a move")(
        "threads", po::value(&options.threads), "games played at once")("seed", po::value(&options.seed),
                                                                         "seed of the openings")(
        "opening-plies", po::value(&options.opening_plies), "random stones before the engine plays")(
        "radius", po::value(&options.radius), "random stones within this many cells of the centre")(
        "weights", po::value(&options.weights),
        "play with these fitted weights, or 'builtin' for the engine's own for the rule (default: hand-made values)")(
        "network", po::value(&options.network), "play with this pattern network (train_gomoku_eval network)")(
        "out", po::value(&options.out), "the dataset file to write")(
        "games-out", po::value(&options.games_out), "also write the games here (for train_gomoku_eval network)")(
        "shard", po::value(&options.shard)->default_value("1/1"),
        "play only block k of K of the --games (a cluster task); the shards' files, read in order, are the "
        "whole run's");
    po::variables_map values;
    try {
        po::store(po::command_line_parser(arguments).options(described).run(), values);
        po::notify(values);
    } catch (const std::exception& error) {
        std::cerr << program << " selfplay: " << error.what() << "\n" << described;
        return 2;
    }
    auto rule = parse_rule(options.rule);
    if (!rule || options.out.empty() || options.games < 1 || options.threads < 1 || options.nodes < 1 ||
        options.opening_plies < 0 || options.radius < 0 || options.radius > 10) {
        std::cerr << program << " selfplay: needs --out, a rule (freestyle, standard, renju), --games >= 1, "
                  << "--nodes >= 1, --threads >= 1 and --radius 0-10\n";
        return 2;
    }
    const auto shard = parse_shard(options.shard);
    if (!shard) {
        std::cerr << program << " selfplay: --shard: " << shard.error() << "\n";
        return 2;
    }
    // A game depends only on the seed and its number, so a shard's block is the whole run's games.
    const auto [first_game, end_game] = shard->block(options.games);
    const auto count = static_cast<std::size_t>(end_game - first_game);
    Variant variant;
    variant.rule = *rule;
    std::optional<FittedWeights> fitted;
    if (options.weights == "builtin") {
        if (const FittedWeights* builtin = builtin_fitted_weights(*rule)) fitted = *builtin;
    } else if (!options.weights.empty()) {
        auto loaded = load_fitted_weights(options.weights);
        if (!loaded) {
            std::cerr << program << " selfplay: " << loaded.error() << "\n";
            return 1;
        }
        fitted = *loaded;
    }
    std::optional<search::learning::QuantisedNetwork> pattern_network;
    if (!options.network.empty()) {
        network::NetworkSet nets;
        if (auto added = nets.add_file(options.network, *rule); !added) {
            std::cerr << program << " selfplay: " << added.error() << "\n";
            return 1;
        }
        pattern_network = *nets.for_rule(*rule);
    }
    // One dataset per game, joined in game order: the file is the same for any thread count.
    std::vector<SparseDataset> parts(count, SparseDataset(1));
    std::vector<train::GomokuGame> games(count);
    const auto started = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (int t = 0; t < options.threads; ++t)
        workers.emplace_back([&, t] {
            GomokuEvaluator evaluator;
            if (fitted) evaluator.set_fitted({&*fitted, &*fitted, &*fitted});
            search::AlphaBeta<GomokuSearch, GomokuEvaluator> engine(evaluator, 4);
            for (std::size_t i = static_cast<std::size_t>(t); i < count; i += static_cast<std::size_t>(options.threads)) {
                const auto number = static_cast<std::uint64_t>(first_game) + i;
                Random random(options.seed * 1'000'003ULL + number);
                play_game(variant, options, random, engine, pattern_network ? &*pattern_network : nullptr, parts[i],
                          games[i]);
            }
        });
    for (auto& worker : workers) worker.join();
    SparseDataset data(1);
    for (const auto& part : parts) data.append(part);
    if (auto saved = data.save(options.out); !saved) {
        std::cerr << program << " selfplay: " << saved.error() << "\n";
        return 1;
    }
    if (!options.games_out.empty())
        if (auto written = train::write_games(options.games_out, games); !written) {
            std::cerr << program << " selfplay: " << written.error() << "\n";
            return 1;
        }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cerr << fmt::format("{} games{}, {} positions in {:.1f} s -> {}\n", count,
                             shard->count > 1 ? fmt::format(" (shard {}/{}: games {} to {} of {})", shard->index,
                                                            shard->count, first_game + 1, end_game, options.games)
                                              : std::string(),
                             data.size(), seconds, options.out);
    return 0;
}

// Positions the evaluation scores by rule before the fitted weights are asked (a five to make or
// to block, an open four to make): the weights never score them, so the fit leaves them out.
// (Black's open four under renju is left out too; the data does not say who is Black.)
bool is_decided_by_rule(std::uint16_t feature) {
    static const std::vector<bool> decided = [] {
        std::vector<bool> flags(eval_feature_count);
        for (int i = 0; i < eval_feature_count; ++i) {
            const std::string name = eval_feature_name(i);
            flags[static_cast<std::size_t>(i)] =
                name == "mover_threat_five" || name == "opponent_threat_five" || name == "mover_threat_flex4";
        }
        return flags;
    }();
    return feature < decided.size() && decided[feature];
}

// A threat on the board: the mover can make a four or better, or the opponent has an open three
// (a cell making an open four) or a five to make.
bool is_threat(std::uint16_t feature) {
    static const std::vector<bool> threats = [] {
        std::vector<bool> flags(eval_feature_count);
        for (const char* name : {"mover_threat_four", "mover_threat_four_three", "mover_threat_double_four",
                                 "mover_threat_flex4", "mover_threat_five", "opponent_threat_flex4",
                                 "opponent_threat_five"})
            for (int i = 0; i < eval_feature_count; ++i)
                if (eval_feature_name(i) == name) flags[static_cast<std::size_t>(i)] = true;
        return flags;
    }();
    return feature < threats.size() && threats[feature];
}

int run_fit(const std::vector<std::string>& arguments) {
    std::vector<std::string> inputs;
    std::string out, learning_rate = "cosine:0.05:0.001", start, feature_set = "all", positions = "all";
    // Positions: all of them (the default); undecided leaves out those the evaluation decides by
    // rule; quiet keeps only those without a four to make or an open three to answer. Measured:
    // all fits play best (docs/experiments/gomoku-eval.md).
    LogisticSettings settings;
    int validation_every = 10;
    po::options_description described("train_gomoku_eval fit: fit the evaluation to games");
    described.add_options()("data", po::value(&inputs)->multitoken(), "dataset files (train_gomoku_eval selfplay)")(
        "out", po::value(&out), "the weights file to write")(
        "epochs", po::value(&settings.epochs)->default_value(30), "passes over the data")(
        "batch", po::value(&settings.batch_size)->default_value(4096), "positions per step")(
        "learning-rate", po::value(&learning_rate), "schedule: R, linear:A:B, cosine:A:B, step:R:F:N or inverse:R:N")(
        "l2", po::value(&settings.l2)->default_value(1e-6), "L2 penalty per position")(
        "validation-every", po::value(&validation_every), "every Nth position is held out (0: none)")(
        "threads", po::value(&settings.threads)->default_value(1), "threads for the gradient")(
        "seed", po::value(&settings.seed)->default_value(1), "seed of the batch order")(
        "features", po::value(&feature_set), "all, or classic: the 32 features before shape classes (an ablation)")(
        "positions", po::value(&positions),
        "all; undecided (not those the evaluation decides by rule: a five to make or block, an open four to make); quiet (undecided, and the mover has no four to make and the opponent no open three)")(
        "start", po::value(&start),
        "start from these weights: a weights file, or builtin:RULE for the engine's own (default: zeros)");
    po::variables_map values;
    try {
        po::store(po::command_line_parser(arguments).options(described).run(), values);
        po::notify(values);
    } catch (const std::exception& error) {
        std::cerr << program << " fit: " << error.what() << "\n" << described;
        return 2;
    }
    std::vector<double> initial(eval_feature_count, 0.0);
    if (!start.empty()) {
        std::optional<FittedWeights> weights;
        if (start.rfind("builtin:", 0) == 0) {
            const auto rule = parse_rule(start.substr(8));
            if (rule && builtin_fitted_weights(*rule)) weights = *builtin_fitted_weights(*rule);
        } else if (auto loaded = load_fitted_weights(start)) {
            weights = *loaded;
        } else {
            std::cerr << program << " fit: " << loaded.error() << "\n";
            return 1;
        }
        if (!weights) {
            std::cerr << program << " fit: --start " << start << ": no such built-in weights\n";
            return 2;
        }
        for (int i = 0; i < eval_feature_count; ++i)
            initial[static_cast<std::size_t>(i)] =
                weights->weight[static_cast<std::size_t>(i)] / (centi_units_per_logit * eval_weight_scale);
    }
    auto schedule = Schedule::parse(learning_rate);
    if (inputs.empty() || out.empty() || !schedule || settings.epochs < 1 || settings.batch_size < 1 ||
        settings.threads < 1 || validation_every < 0) {
        std::cerr << program << " fit: needs --data, --out, a valid --learning-rate, --epochs >= 1\n";
        return 2;
    }
    settings.learning_rate = *schedule;
    if (positions != "all" && positions != "quiet" && positions != "undecided") {
        std::cerr << program << " fit: --positions is all, undecided or quiet\n";
        return 2;
    }
    const bool quiet_only = positions == "quiet";
    SparseDataset train(1), validation(1);
    std::size_t skipped = 0;
    std::size_t position = 0;  // across the files, so shards read in order split as their whole run does
    for (const auto& input : inputs) {
        auto loaded = SparseDataset::load(input);
        if (!loaded) {
            std::cerr << program << " fit: " << loaded.error() << "\n";
            return 1;
        }
        if (loaded->phase_count() != 1) {
            std::cerr << program << " fit: " << input << " is not a Gomoku dataset (phases)\n";
            return 1;
        }
        for (std::size_t i = 0; i < loaded->size(); ++i) {
            const std::size_t number = position++;
            FeatureList entries;
            loaded->row(i, entries);
            bool bad = false, decided = false;
            for (int k = 0; k < entries.size; ++k) {
                const std::uint16_t index = entries.index[static_cast<std::size_t>(k)];
                bad = bad || index >= eval_feature_count;
                decided = decided || (positions != "all" && is_decided_by_rule(index)) ||
                          (quiet_only && is_threat(index));
            }
            if (bad) {
                std::cerr << program << " fit: " << input << " has a feature index out of range\n";
                return 1;
            }
            if (decided) {
                ++skipped;
                continue;
            }
            const bool held_out = validation_every > 0 && number % static_cast<std::size_t>(validation_every) == 0;
            (held_out ? validation : train).add(entries, loaded->target(i), loaded->phases(i));
        }
    }
    if (skipped > 0)
        std::cerr << fmt::format("{}: {} positions left out ({})\n", program, skipped,
                                 quiet_only ? "decided by rule, or with a threat" : "decided by rule");
    std::cout << "epoch,learning_rate,train_loss,validation_loss\n";
    if (feature_set != "all" && feature_set != "classic") {
        std::cerr << program << " fit: --features is all or classic\n";
        return 2;
    }
    std::vector<bool> frozen(eval_feature_count, false);
    if (feature_set == "classic")
        for (int i = eval_classic_feature_count; i < eval_feature_count; ++i) {
            frozen[static_cast<std::size_t>(i)] = true;
            initial[static_cast<std::size_t>(i)] = 0.0;
        }
    LogisticFit fit(eval_feature_count, initial, frozen);
    const double before = search::learning::logistic_loss(validation, fit.weights(), eval_feature_count);
    std::cout << fmt::format("0,0,,{:.6f}\n", before);
    fit.run(train, validation, settings, [](const auto& epoch) {
        std::cout << fmt::format("{},{:.6f},{:.6f},{:.6f}\n", epoch.epoch, epoch.learning_rate, epoch.train_loss,
                                 epoch.validation_loss);
    });
    std::ofstream file(out);
    if (!file) {
        std::cerr << program << " fit: cannot write '" << out << "'\n";
        return 1;
    }
    file << fmt::format("# train_gomoku_eval fit: {} training and {} held-out positions; 1/{} centi-unit per count\n",
                        train.size(), validation.size(), eval_weight_scale);
    for (int i = 0; i < eval_feature_count; ++i)
        file << fmt::format("{} {}\n", eval_feature_name(i),
                            std::llround(fit.weights()[static_cast<std::size_t>(i)] * centi_units_per_logit *
                                         eval_weight_scale));
    std::cerr << fmt::format("{}: {} train, {} validation positions; validation loss {:.4f} -> {:.4f}; wrote {}\n",
                             program, train.size(), validation.size(), before,
                             search::learning::logistic_loss(validation, fit.weights(), eval_feature_count), out);
    return 0;
}

// Prints the engine's built-in weights for a rule (engines/gomoku/nets/RULE.eval, built in) as a
// weights file (what EvalFile and --weights read).
int run_builtin(const std::vector<std::string>& arguments) {
    const FittedWeights* weights = nullptr;
    if (arguments.size() == 1)
        if (const auto rule = parse_rule(arguments[0])) weights = builtin_fitted_weights(*rule);
    if (!weights) {
        std::cerr << program << " builtin: needs a rule with built-in weights: freestyle, standard or renju\n";
        return 2;
    }
    std::cout << fmt::format("# the engine's built-in {} weights; 1/{} centi-unit per count\n", arguments[0],
                             eval_weight_scale);
    for (int i = 0; i < eval_feature_count; ++i)
        std::cout << fmt::format("{} {}\n", eval_feature_name(i), weights->weight[static_cast<std::size_t>(i)]);
    return 0;
}

// ---------------------------------------------------------------------------------------------
// labels

int run_labels(const std::vector<std::string>& arguments) {
    std::vector<std::string> data_files;
    std::string teacher_text = "logistic:200", out;
    po::options_description options("train_gomoku_eval labels: a games file from a teacher's analysis");
    options.add_options()("help", "this help")("data", po::value(&data_files)->multitoken(),
                                               "datasets of arbiter analyse (JSON lines)")(
        "teacher", po::value(&teacher_text)->default_value(teacher_text),
        "how the teacher's score cp reads as an expected score: logistic:S, 1 / (1 + e^(-cp / S)) (Rapfi: S = 200)")(
        "out", po::value(&out), "games file to write");
    if (const auto status = parse_subcommand(program, options, arguments)) return *status;
    const auto teacher = train::TeacherScale::parse(teacher_text);
    if (data_files.empty() || out.empty() || !teacher) {
        std::cerr << program << ": labels needs --data and --out" << (teacher ? "" : " and a teacher: " + teacher.error())
                  << "\n";
        return 2;
    }
    auto labelled = train::read_labelled_games(data_files);
    if (!labelled) {
        std::cerr << program << ": " << labelled.error() << "\n";
        return 1;
    }
    const train::LabelledGomokuGames converted = train::gomoku_games_from_labels(*labelled, *teacher);
    for (const std::string& skipped : converted.skipped) std::cerr << program << ": " << skipped << "\n";
    if (auto written = train::write_games(out, converted.games); !written) {
        std::cerr << program << ": " << written.error() << "\n";
        return 1;
    }
    long positions = 0, scored = 0;
    for (const auto& game : converted.games) {
        positions += static_cast<long>(game.moves.size());
        for (const auto score : game.scores) scored += score != train::GomokuGame::no_score;
    }
    std::cout << fmt::format("{} games ({} positions, {} with the teacher's score) written to {}; {} left out\n",
                             converted.games.size(), positions, scored, out, labelled->size() - converted.games.size());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (bge::print_version_if_asked(argc, argv, "train_gomoku_eval")) return 0;
    std::vector<std::string> arguments(argv + 1, argv + argc);
    const std::string usage = fmt::format(
        "Usage: {0} selfplay --rule R --games N --nodes K --threads T --out data.bin\n"
        "  or:  {0} network --games g.txt [...] --rule R --out RULE.nnue\n"
        "  or:  {0} policy --games g.txt [...] --rule R --out RULE.policy\n"
        "  or:  {0} fit --data a.bin [b.bin ...] --out RULE.eval\n"
        "  or:  {0} labels --data labels.jsonl [...] --out g.txt\n"
        "  or:  {0} builtin RULE > RULE.eval\n"
        "Plays Gomoku self-play games and fits the engine's pattern evaluation, network and policy to\n"
        "them ({0} COMMAND --help for a command's options; docs/gomoku.md).\n",
        program);
    if (arguments.empty() || arguments[0] == "--help" || arguments[0] == "-h") {
        std::cout << usage;
        return arguments.empty() ? 2 : 0;
    }
    const std::string command = arguments[0];
    arguments.erase(arguments.begin());
    if (command == "selfplay") return run_selfplay(arguments);
    if (command == "fit") return run_fit(arguments);
    if (command == "network") return train::run_gomoku_network_fit(arguments);
    if (command == "policy") return train::run_gomoku_policy_fit(arguments);
    if (command == "labels") return run_labels(arguments);
    if (command == "builtin") return run_builtin(arguments);
    std::cerr << program << ": unknown command '" << command << "'\n" << usage;
    return 2;
}
