// train_tak_eval: fits the Tak evaluation (engines/tak/evaluation.hpp) to self-play results.
//
//   train_tak_eval selfplay ...   plays games with the engine's alpha-beta at fixed nodes or
//                                 depth from an opening book and writes them to a games file
//   train_tak_eval fit ...        logistic regression of the results on the features
//                                 (search/learning/logistic.hpp), per board size; writes the
//                                 weights file and the learning curve
//   train_tak_eval network ...   fits a value network (engines/tak/network.hpp) to the games
//                                 (tools/train/tak_network_fit.cpp)
//   train_tak_eval policy ...    fits the move policy (engines/tak/policy.hpp) to the moves
//                                 played (tools/train/tak_policy_fit.cpp)
//   train_tak_eval labels ...     turns a teacher's labels (`arbiter analyse` datasets) into a
//                                 games file that fit, network and policy read
//   train_tak_eval features ...   the features of a position, with their weights (for checking)
//
// tools/train/tak_eval_pipeline.sh runs the whole training; docs/tak.md, "Evaluation", and
// docs/experiments/tak-eval.md describe it.

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/shard.hpp"
#include "core/tak/tak.hpp"
#include "core/version.hpp"
#include "engines/tak/eval_features.hpp"
#include "engines/tak/evaluation.hpp"
#include "engines/tak/network.hpp"
#include "engines/tak/roads.hpp"
#include "search/learning/logistic.hpp"
#include "search/learning/sparse_dataset.hpp"
#include "tools/train/tak_games.hpp"
#include "tools/train/tak_network_fit.hpp"
#include "tools/train/tak_policy_fit.hpp"
#include "tools/train/subcommand_options.hpp"
#include "tools/train/text_file.hpp"

namespace po = boost::program_options;
using namespace bge;
using namespace bge::tak;
using bge::search::learning::LogisticFit;
using bge::search::learning::LogisticSettings;
using bge::search::learning::Schedule;
using bge::search::learning::SparseDataset;
using bge::search::learning::FeatureList;
using bge::train::parse_subcommand;

namespace {

constexpr std::string_view program = "train_tak_eval";
constexpr std::size_t phase_count = 2;  // opening, endgame

// A weights file, "" for the built-in weights, or "zero" for all weights zero on every size.
std::shared_ptr<const EvalWeightSet> load_weights_or_builtin(const std::string& path) {
    if (path.empty()) return std::make_shared<EvalWeightSet>(builtin_eval_weights());
    if (path == "zero") {
        auto zero = std::make_shared<EvalWeightSet>();
        zero->present.fill(true);
        return zero;
    }
    auto loaded = load_eval_weights(path);
    if (!loaded) {
        std::cerr << program << ": " << loaded.error() << "\n";
        std::exit(1);
    }
    return std::make_shared<EvalWeightSet>(*loaded);
}

// ---------------------------------------------------------------------------------------------
// selfplay

int run_selfplay(const std::vector<std::string>& arguments) {
    train::SelfPlaySettings settings;
    std::string book_path, weights_path, network_path, out, shard_text = "1/1";
    bool append = false;
    po::options_description options("train_tak_eval selfplay: play training games");
    options.add_options()("help", "this help")("size", po::value(&settings.size)->default_value(6),
                                               "board size, 3 to 8")(
        "half-komi", po::value(&settings.half_komi)->default_value(4), "komi in half flats")(
        "games", po::value(&settings.games)->default_value(1000), "games to play")(
        "nodes", po::value(&settings.nodes)->default_value(20000), "nodes per move (0: use --depth)")(
        "depth", po::value(&settings.depth)->default_value(0), "depth per move, when --nodes is 0")(
        "min-random-plies", po::value(&settings.min_random_plies)->default_value(1),
        "after the book line, at least this many random plies")("random-plies",
                                                                po::value(&settings.random_plies)->default_value(2),
                                                                "after the book line, up to this many random plies")(
        "max-plies", po::value(&settings.max_plies)->default_value(400), "a longer game stops as a draw")(
        "threads", po::value(&settings.threads)->default_value(2), "games played at once")(
        "seed", po::value(&settings.seed)->default_value(1), "seed of the random plies")(
        "shard", po::value(&shard_text)->default_value("1/1"),
        "play only block k of K of the --games (a cluster task); the shards' files, read in order, are the "
        "games of the whole run")(
        "book", po::value(&book_path), "opening book, a line of PTN moves per opening (arbiter book)")(
        "weights", po::value(&weights_path), "evaluation weights file (default: the built-in weights)")(
        "network", po::value(&network_path),
        "play with a value network: a file of train_tak_eval network, or 'builtin' (the engine's UseNnue)")(
        "out", po::value(&out), "games file to write")("append", po::bool_switch(&append),
                                                       "add to the games file instead of replacing it");
    if (const auto status = parse_subcommand(program, options, arguments)) return *status;
    if (out.empty() || settings.size < min_size || settings.size > max_size || settings.games < 1 ||
        settings.threads < 1 || settings.half_komi < -20 || settings.half_komi > 20 ||
        (settings.nodes == 0 && settings.depth < 1)) {
        std::cerr << program
                  << ": selfplay needs --out, a size 3-8, --games and --threads >= 1, |half-komi| <= 20, "
                     "and nodes or a depth\n";
        return 2;
    }
    const auto shard = parse_shard(shard_text);
    if (!shard) {
        std::cerr << program << ": --shard: " << shard.error() << "\n";
        return 2;
    }
    const auto [first_game, end_game] = shard->block(settings.games);
    const int total_games = settings.games;
    settings.first_game = static_cast<int>(first_game);
    settings.games = static_cast<int>(end_game - first_game);
    if (!book_path.empty()) {
        auto book = train::read_book(book_path);
        if (!book) {
            std::cerr << program << ": " << book.error() << "\n";
            return 1;
        }
        settings.book = std::move(*book);
    }
    if (network_path == "builtin") {
        settings.networks = network::NetworkSet::builtin();
    } else if (!network_path.empty()) {
        auto networks = std::make_shared<network::NetworkSet>();
        if (const auto added = networks->add_file(network_path); !added) {
            std::cerr << program << ": " << added.error() << "\n";
            return 1;
        }
        settings.networks = std::move(networks);
    }
    if (settings.networks && !settings.networks->for_size(settings.size))
        std::cerr << program << ": no network for size " << settings.size << "; the linear evaluation plays\n";
    const auto weights = load_weights_or_builtin(weights_path);
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    if (shard->count > 1)
        std::cerr << fmt::format("{}: shard {}/{}: games {} to {} of {}\n", program, shard->index, shard->count,
                                 first_game + 1, end_game, total_games);
    const auto games = train::play_self_games(settings, weights, [&](int done) {
        if (done % 500 == 0 || done == settings.games)
            std::cerr << fmt::format("{}: {} of {} games, {:.0f} s\n", program, done, settings.games, seconds());
    });
    long positions = 0;
    int white = 0, black = 0, draws = 0;
    for (const auto& game : games) {
        positions += static_cast<long>(game.moves.size()) - game.opening_plies;
        (game.result > 0 ? white : game.result < 0 ? black : draws)++;
    }
    if (auto written = train::write_games(out, games, append); !written) {
        std::cerr << program << ": " << written.error() << "\n";
        return 1;
    }
    std::cout << fmt::format(
        "{}x{} komi {}: {} games ({} White, {} Black, {} drawn), {} searched positions, {:.1f} s\n", settings.size,
        settings.size, settings.half_komi / 2.0, games.size(), white, black, draws, positions, seconds());
    return 0;
}

// ---------------------------------------------------------------------------------------------
// labels

int run_labels(const std::vector<std::string>& arguments) {
    std::vector<std::string> data_files;
    std::string teacher_text = "tiltak", out;
    double scale = 200;
    bool append = false;
    po::options_description options("train_tak_eval labels: a games file from a teacher's analysis");
    options.add_options()("help", "this help")("data", po::value(&data_files)->multitoken(),
                                               "datasets of arbiter analyse (JSON lines)")(
        "teacher", po::value(&teacher_text)->default_value("tiltak"),
        "how the teacher's score cp reads as an expected score: tiltak (200 p - 100) or logistic:S")(
        "scale", po::value(&scale)->default_value(200),
        "centi-flats per unit of logit of the games file's scores (the --scale of fit)")(
        "out", po::value(&out), "games file to write")("append", po::bool_switch(&append),
                                                       "add to the games file instead of replacing it");
    if (const auto status = parse_subcommand(program, options, arguments)) return *status;
    const auto teacher = train::TeacherScale::parse(teacher_text);
    if (data_files.empty() || out.empty() || scale <= 0 || !teacher) {
        std::cerr << program << ": labels needs --data, --out, --scale > 0"
                  << (teacher ? "" : " and a teacher: " + teacher.error()) << "\n";
        return 2;
    }
    auto labelled = train::read_labelled_games(data_files);
    if (!labelled) {
        std::cerr << program << ": " << labelled.error() << "\n";
        return 1;
    }
    const train::LabelledGames converted = train::games_from_labels(*labelled, *teacher, scale);
    for (const std::string& skipped : converted.skipped) std::cerr << program << ": " << skipped << "\n";
    if (auto written = train::write_games(out, converted.games, append); !written) {
        std::cerr << program << ": " << written.error() << "\n";
        return 1;
    }
    long positions = 0, scored = 0;
    for (const auto& game : converted.games) {
        positions += static_cast<long>(game.moves.size());
        for (const auto score : game.scores) scored += score != train::TakGame::no_score;
    }
    std::cout << fmt::format("{} games ({} positions, {} with the teacher's score) written to {}; {} left out\n",
                             converted.games.size(), positions, scored, out, labelled->size() - converted.games.size());
    return 0;
}

// ---------------------------------------------------------------------------------------------
// fit

struct FitOptions {
    std::vector<std::string> game_files;
    std::vector<std::string> validation_files;  // when given, the validation positions, and no game of game_files is held out
    std::string init, out, curve, origin;
    std::vector<int> sizes;
    std::vector<std::string> drop;    // blocks kept at zero
    std::vector<std::string> freeze;  // blocks kept at their starting weights
    double scale = 200;         // centi-flats per unit of logit
    double score_weight = 0;    // target = (1 - w) * result + w * sigmoid(score / scale)
    int validation_every = 10;  // every n-th game is held out
    int threads = 2;
    LogisticSettings fit;
    std::string learning_rate = "cosine:0.02:0.0005";
};

struct Datasets {
    SparseDataset train{phase_count}, validation{phase_count};
    std::vector<bool> seen = std::vector<bool>(features::count, false);
};

// The training positions of one game: every searched position (not the book or random plies)
// where the side to move cannot finish a road at once, labelled with the game's result for the
// side to move.
void add_game(const train::TakGame& game, const FitOptions& options, SparseDataset& data, std::vector<bool>& seen) {
    struct Collect {
        std::map<int, int> values;
        void add(int index, int value) { values[index] += value; }
    };
    State state = start_state(game.variant);
    FeatureList row;
    for (std::size_t ply = 0; ply < game.moves.size(); ++ply) {
        const bool searched = static_cast<int>(ply) >= game.opening_plies;
        if (searched && !outcome(state).is_over() && !has_road_in_one(state, state.side_to_move())) {
            Collect collect;
            features::extract(state, collect);
            row.clear();
            for (const auto& [index, value] : collect.values) {
                if (value == 0) continue;
                row.add(index, static_cast<float>(value));
                seen[static_cast<std::size_t>(index)] = true;
            }
            const float phase = static_cast<float>(features::phase(state)) / 256.0f;
            const float phases[phase_count] = {1.0f - phase, phase};
            const int sign = state.side_to_move() == Side::first ? 1 : -1;
            const double result = game.result == 0 ? 0.5 : (game.result * sign > 0 ? 1.0 : 0.0);
            double target = result;
            if (options.score_weight > 0 && game.scores[ply] != train::TakGame::no_score)
                target = (1 - options.score_weight) * result +
                         options.score_weight * LogisticFit::sigmoid(game.scores[ply] / options.scale);
            data.add(row, static_cast<float>(target), phases);
        }
        play(state, game.moves[ply]);
    }
}

// Games from `training_games` on are the validation files' games.
std::map<int, Datasets> build_datasets(const std::vector<train::TakGame>& games, std::size_t training_games,
                                       const FitOptions& options) {
    // The datasets do not depend on the thread count.
    const int threads = std::max(1, options.threads);
    std::vector<std::map<int, Datasets>> parts(static_cast<std::size_t>(threads));
    std::vector<std::thread> workers;
    // Thread t takes a contiguous block of games, so joining the parts in thread order keeps the
    // games' order (which the fit's shuffle starts from).
    auto work = [&](int t) {
        const std::size_t first = games.size() * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads);
        const std::size_t last = games.size() * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(threads);
        for (std::size_t i = first; i < last; ++i) {
            const auto& game = games[i];
            Datasets& data = parts[static_cast<std::size_t>(t)][game.variant.size];
            const bool held_out =
                i >= training_games || (options.validation_files.empty() && options.validation_every > 0 &&
                                        i % static_cast<std::size_t>(options.validation_every) == 0);
            add_game(game, options, held_out ? data.validation : data.train, data.seen);
        }
    };
    for (int t = 1; t < threads; ++t) workers.emplace_back(work, t);
    work(0);
    for (auto& worker : workers) worker.join();
    std::map<int, Datasets> merged;
    for (auto& part : parts)
        for (auto& [size, data] : part) {
            Datasets& into = merged[size];
            into.train.append(data.train);
            into.validation.append(data.validation);
            for (int i = 0; i < features::count; ++i)
                if (data.seen[static_cast<std::size_t>(i)]) into.seen[static_cast<std::size_t>(i)] = true;
        }
    return merged;
}

int run_fit(const std::vector<std::string>& arguments) {
    FitOptions options;
    po::options_description described("train_tak_eval fit: fit the evaluation to games");
    described.add_options()("help", "this help")("games", po::value(&options.game_files)->multitoken(),
                                                 "games files (train_tak_eval selfplay)")(
        "sizes", po::value(&options.sizes)->multitoken(), "board sizes to fit (default: every size in the games)")(
        "init", po::value(&options.init), "starting weights file, or 'zero' (default: the built-in weights)")(
        "epochs", po::value(&options.fit.epochs)->default_value(20), "passes over the data")(
        "batch", po::value(&options.fit.batch_size)->default_value(16384), "positions per step")(
        "learning-rate", po::value(&options.learning_rate)->default_value("cosine:0.02:0.0005"),
        "Adam step size schedule over epochs: a number, linear:A:B, cosine:A:B, step:A:F:N, inverse:A:N")(
        "l2", po::value(&options.fit.l2)->default_value(1e-6), "L2 penalty per position")(
        "scale", po::value(&options.scale)->default_value(200), "centi-flats per unit of logit")(
        "score-weight", po::value(&options.score_weight)->default_value(0.0),
        "blend of the search score into the target, 0 (result only) to 1")(
        "drop", po::value(&options.drop)->multitoken(), "feature blocks kept at zero (ablation)")(
        "freeze", po::value(&options.freeze)->multitoken(),
        "feature blocks kept at their --init weights (fit the rest to a teacher without moving these)")(
        "validation-every", po::value(&options.validation_every)->default_value(10), "hold out every n-th game")(
        "validation-games", po::value(&options.validation_files)->multitoken(),
        "validate on these games files instead (e.g. games the candidate did not play); no game of --games is "
        "held out")(
        "threads", po::value(&options.threads)->default_value(2), "threads")(
        "seed", po::value(&options.fit.seed)->default_value(1), "seed of the batch order")(
        "out", po::value(&options.out),
        "weights file to write (for EvalFile; to ship it, copy it over the engine's nets/eval_weights.txt "
        "and rebuild)")(
        "curve", po::value(&options.curve), "write the learning curve here (CSV)")(
        "origin", po::value(&options.origin), "how the weights were made, for the files' comments");
    if (const auto status = parse_subcommand(program, described, arguments)) return *status;
    auto schedule = Schedule::parse(options.learning_rate);
    if (!schedule || options.game_files.empty() || options.scale <= 0 || options.score_weight < 0 ||
        options.score_weight > 1 || options.fit.epochs < 1 || options.fit.batch_size < 1) {
        std::cerr << program
                  << ": fit needs --games, a valid --learning-rate, --scale > 0, --score-weight 0..1, "
                     "--epochs and --batch >= 1\n";
        return 2;
    }
    options.fit.learning_rate = *schedule;
    options.fit.threads = options.threads;
    // Feature blocks named by --drop or --freeze; false and a message for a bad name.
    auto blocks_named = [](const std::vector<std::string>& names, const char* flag, std::set<int>& ids) {
        for (const std::string& name : names) {
            const features::BlockId block = features::find_block(name);
            if (block == features::block_count) {
                std::cerr << program << ": " << flag << ": no feature block '" << name << "'\n";
                return false;
            }
            ids.insert(block);
        }
        return true;
    };
    std::set<int> dropped, kept;
    if (!blocks_named(options.drop, "--drop", dropped) || !blocks_named(options.freeze, "--freeze", kept)) return 2;

    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    std::vector<train::TakGame> games;
    std::size_t training_games = 0;
    for (const auto* files : {&options.game_files, &options.validation_files}) {
        for (const std::string& path : *files) {
            auto read = train::read_games(path);
            if (!read) {
                std::cerr << program << ": " << read.error() << "\n";
                return 1;
            }
            games.insert(games.end(), read->begin(), read->end());
        }
        if (files == &options.game_files) training_games = games.size();
    }
    auto datasets = build_datasets(games, training_games, options);
    std::cerr << fmt::format("{}: {} games read, positions extracted in {:.1f} s\n", program, games.size(), seconds());

    auto result = std::make_shared<EvalWeightSet>(*load_weights_or_builtin(options.init));
    std::string curve_csv = "size,epoch,learning_rate,train_loss,validation_loss\n";
    for (auto& [size, data] : datasets) {
        if (!options.sizes.empty() &&
            std::find(options.sizes.begin(), options.sizes.end(), size) == options.sizes.end())
            continue;
        const EvalWeights& init = result->for_size(size);
        const std::size_t n = features::count;
        std::vector<double> weights(phase_count * n);
        std::vector<bool> frozen(phase_count * n, false);
        for (std::size_t i = 0; i < n; ++i) {
            // An unseen feature cannot be fitted: it stays at zero unless frozen at its weight.
            const int block = features::block_of(static_cast<int>(i));
            const bool keep = kept.contains(block);
            const bool drop = dropped.contains(block) || (!data.seen[i] && !keep);
            const double unit = weight_unit * options.scale;
            weights[i] = drop ? 0 : init.opening[i] / unit;
            weights[n + i] = drop ? 0 : init.endgame[i] / unit;
            frozen[i] = frozen[n + i] = drop || keep;
        }
        LogisticFit fit(n, weights, frozen);
        const double before = bge::search::learning::logistic_loss(data.validation, fit.weights(), n);
        std::cout << fmt::format(
            "{}x{}: {} training and {} validation positions; validation loss {:.5f} at the start\n", size, size,
            data.train.size(), data.validation.size(), before);
        curve_csv += fmt::format("{},0,0,,{:.6f}\n", size, before);
        fit.run(data.train, data.validation, options.fit, [&](const auto& epoch) {
            std::cout << fmt::format("{}x{} epoch {:3d}  rate {:.5f}  train {:.5f}  validation {:.5f}  ({:.0f} s)\n",
                                     size, size, epoch.epoch, epoch.learning_rate, epoch.train_loss,
                                     epoch.validation_loss, seconds());
            curve_csv += fmt::format("{},{},{:.6f},{:.6f},{:.6f}\n", size, epoch.epoch, epoch.learning_rate,
                                     epoch.train_loss, epoch.validation_loss);
        });
        EvalWeights fitted;
        for (std::size_t i = 0; i < n; ++i) {
            const double unit = weight_unit * options.scale;
            fitted.opening[i] = static_cast<std::int32_t>(std::lround(fit.weights()[i] * unit));
            fitted.endgame[i] = static_cast<std::int32_t>(std::lround(fit.weights()[n + i] * unit));
        }
        result->by_size[size] = fitted;
        result->present[size] = true;
    }

    const std::string origin = options.origin.empty() ? "fitted by train_tak_eval" : options.origin;
    if (!options.out.empty() && !train::write_text_file(program, options.out, format_eval_weights(*result, origin)))
        return 1;
    if (!options.curve.empty() && !train::write_text_file(program, options.curve, curve_csv)) return 1;
    std::cerr << fmt::format("{}: done in {:.1f} s\n", program, seconds());
    return 0;
}

// ---------------------------------------------------------------------------------------------
// features

int run_features(const std::vector<std::string>& arguments) {
    std::string tps, weights_path;
    int half_komi = 0;
    po::options_description described("train_tak_eval features: the features of a position");
    described.add_options()("help", "this help")("tps", po::value(&tps), "the position (TPS)")(
        "half-komi", po::value(&half_komi)->default_value(0), "komi in half flats")(
        "weights", po::value(&weights_path), "weights file (default: the built-in weights)");
    po::variables_map values;
    try {
        po::store(po::command_line_parser(arguments).options(described).run(), values);
        po::notify(values);
    } catch (const std::exception& error) {
        std::cerr << program << ": " << error.what() << "\n";
        return 2;
    }
    if (values.count("help") || tps.empty()) {
        std::cout << described << "\n";
        return tps.empty() && !values.count("help") ? 2 : 0;
    }
    Variant variant;
    variant.half_komi = half_komi;
    auto state = parse_tps(tps, variant);
    if (!state) {
        std::cerr << program << ": " << state.error() << "\n";
        return 2;
    }
    const auto weights = load_weights_or_builtin(weights_path);
    const EvalWeights& w = weights->for_size(state->size);
    struct Collect {
        std::map<int, int> values;
        void add(int index, int value) { values[index] += value; }
    } collect;
    features::extract(*state, collect);
    const int phase = features::phase(*state);
    std::cout << fmt::format("phase {}/256\n", phase);
    for (const auto& [index, value] : collect.values) {
        const double blended = (256.0 - phase) / 256 * w.opening[index] + phase / 256.0 * w.endgame[index];
        std::cout << fmt::format("{:24} {:5}  x {:8.2f} = {:9.2f}\n", features::name_of(index), value,
                                 blended / weight_unit, value * blended / weight_unit);
    }
    std::cout << fmt::format("linear evaluation {} (side to move)\n", linear_eval(w, *state));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (bge::print_version_if_asked(argc, argv, "train_tak_eval")) return 0;
    const std::vector<std::string> arguments(argv + 1, argv + argc);
    const std::string usage =
        "Usage: train_tak_eval selfplay|labels|fit|network|policy|features [OPTION]...\n"
        "Plays Tak self-play games and fits the engine's evaluation, network and policy to them\n"
        "(train_tak_eval COMMAND --help for a command's options; docs/tak.md).\n";
    if (arguments.empty() || arguments[0] == "--help" || arguments[0] == "-h" || arguments[0] == "help") {
        std::cout << usage;
        return arguments.empty() ? 2 : 0;
    }
    const std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
    if (arguments[0] == "selfplay") return run_selfplay(rest);
    if (arguments[0] == "labels") return run_labels(rest);
    if (arguments[0] == "fit") return run_fit(rest);
    if (arguments[0] == "network") return train::run_network_fit(rest);
    if (arguments[0] == "policy") return train::run_policy_fit(rest);
    if (arguments[0] == "features") return run_features(rest);
    std::cerr << program << ": unknown command '" << arguments[0] << "'\n" << usage;
    return 2;
}
