// train_tak_eval network: fits a Tak value network (engines/tak/network.hpp) to self-play games.
//
// Every searched position of the games (not book or random plies, not a finished game, not one
// where the side to move has a road in one: the engine scores those without the network) is a
// sample. Its target blends the game's result and the search's score for the side to move:
//     target = (1 - w) * result + w * sigmoid(score / 200),
// the result being 1, 1/2 or 0. Every tenth game is held out for validation. Training positions
// may be added again turned by other symmetries of the square (--symmetries), which Tak's rules
// do not see.
//
// The fit is NetworkFit's (Adam over shuffled mini-batches, search/learning/network_fit.hpp); the
// output is the network file as the engine reads it (search/learning/nnue.hpp) and a learning
// curve; the file holds the network of the epoch with the lowest validation loss. For comparison the
// linear evaluation's loss on the same validation positions is printed.

#include "tools/train/tak_network_fit.hpp"

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <thread>

#include "core/random.hpp"
#include "engines/tak/evaluation.hpp"
#include "engines/tak/network.hpp"
#include "engines/tak/roads.hpp"
#include "search/learning/cross_entropy.hpp"
#include "search/learning/network_fit.hpp"
#include "search/learning/nnue.hpp"
#include "search/learning/schedule.hpp"
#include "tools/train/tak_games.hpp"
#include "tools/train/subcommand_options.hpp"
#include "tools/train/text_file.hpp"

namespace bge::train {

namespace po = boost::program_options;
using namespace bge::tak;
using search::learning::FeatureList;
using search::learning::PerspectiveNetwork;
using search::learning::SampleBuffer;

namespace {

constexpr std::string_view program = "train_tak_eval network";

struct NetworkOptions {
    std::vector<std::string> game_files;
    std::string init, out, curve, description;
    int size = 6;
    int hidden = 128;
    int epochs = 10;
    std::size_t batch = 1024;
    std::string learning_rate = "cosine:0.002:0.0001";
    double score_weight = 0.5;
    double scale = network::centiflats_per_logit;
    int symmetries = 1;
    int validation_every = 10;
    int threads = 2;
    std::uint64_t seed = 1;
};

struct Samples {
    SampleBuffer train, validation;
    // The linear evaluation's probabilities for the validation samples, in the same order.
    std::vector<float> linear_validation;
};

void add_game(const TakGame& game, const NetworkOptions& options, bool held_out, Random& random, Samples& out) {
    State state = start_state(game.variant);
    FeatureList x, turned;
    const EvalWeights& linear = builtin_eval_weights().for_size(game.variant.size);
    for (std::size_t ply = 0; ply < game.moves.size(); ++ply) {
        const bool searched = static_cast<int>(ply) >= game.opening_plies;
        const std::int16_t score = game.scores[ply];
        if (searched && !outcome(state).is_over() && !has_road_in_one(state, state.side_to_move())) {
            const int sign = state.side_to_move() == Side::first ? 1 : -1;
            const double result = game.result == 0 ? 0.5 : (game.result * sign > 0 ? 1.0 : 0.0);
            double target = result;
            if (score != TakGame::no_score) {
                const double clamped = std::clamp<double>(score, -TakEvaluator::road_in_one_score,
                                                          TakEvaluator::road_in_one_score);
                target = (1 - options.score_weight) * result +
                         options.score_weight / (1 + std::exp(-clamped / options.scale));
            }
            network::sample_inputs(state, x);
            if (held_out) {
                out.validation.add(x, static_cast<float>(target));
                const double logit = linear_eval(linear, state) / options.scale;
                out.linear_validation.push_back(static_cast<float>(1 / (1 + std::exp(-logit))));
            } else {
                // The identity, then other symmetries drawn without repetition.
                int order[8] = {0, 1, 2, 3, 4, 5, 6, 7};
                for (int k = 1; k < 8; ++k) std::swap(order[k], order[k + static_cast<int>(random.below(8 - k))]);
                const int inputs = network::input_count(state.size);
                for (int k = 0; k < options.symmetries; ++k) {
                    turned.clear();
                    for (int i = 0; i < x.size; ++i) {
                        const int index = x.index[static_cast<std::size_t>(i)];
                        const int half = index >= inputs ? inputs : 0;
                        turned.add(half + network::transformed_input(index - half, state.size, order[k]), 1.0f);
                    }
                    out.train.add(turned, static_cast<float>(target));
                }
            }
        }
        play(state, game.moves[ply]);
    }
}

double mean_loss(const PerspectiveNetwork& net, const SampleBuffer& samples, int threads) {
    std::vector<double> parts(static_cast<std::size_t>(threads), 0.0);
    std::vector<std::thread> workers;
    auto work = [&](int t) {
        FeatureList x;
        for (std::size_t i = static_cast<std::size_t>(t); i < samples.size(); i += static_cast<std::size_t>(threads)) {
            samples.row(i, x);
            parts[static_cast<std::size_t>(t)] += search::learning::cross_entropy(net.probability(x), samples.target(i));
        }
    };
    for (int t = 1; t < threads; ++t) workers.emplace_back(work, t);
    work(0);
    for (auto& worker : workers) worker.join();
    return samples.size() ? std::accumulate(parts.begin(), parts.end(), 0.0) / static_cast<double>(samples.size()) : 0;
}

}  // namespace

int run_network_fit(const std::vector<std::string>& arguments) {
    NetworkOptions options;
    po::options_description described("train_tak_eval network: fit a value network to games");
    described.add_options()("help", "this help")("games", po::value(&options.game_files)->multitoken(),
                                                 "games files (train_tak_eval selfplay)")(
        "size", po::value(&options.size)->default_value(6), "the board size whose games are used")(
        "hidden", po::value(&options.hidden)->default_value(128), "hidden units per perspective (16..1024, steps of 16)")(
        "init", po::value(&options.init), "start from this network file instead of random weights")(
        "epochs", po::value(&options.epochs)->default_value(10), "passes over the data")(
        "batch", po::value(&options.batch)->default_value(1024), "positions per step")(
        "learning-rate", po::value(&options.learning_rate)->default_value("cosine:0.002:0.0001"),
        "Adam step size over epochs: a number, linear:A:B, cosine:A:B, step:A:F:N, inverse:A:N")(
        "score-weight", po::value(&options.score_weight)->default_value(0.5),
        "blend of the search score into the target, 0 (result only) to 1")(
        "symmetries", po::value(&options.symmetries)->default_value(1),
        "training copies of each position, turned by distinct symmetries of the square (1..8)")(
        "validation-every", po::value(&options.validation_every)->default_value(10), "hold out every n-th game")(
        "threads", po::value(&options.threads)->default_value(2), "threads")(
        "seed", po::value(&options.seed)->default_value(1), "seed of the initial weights, symmetries and batch order")(
        "description", po::value(&options.description), "how the network was made, kept in its file")(
        "out", po::value(&options.out), "network file to write")(
        "curve", po::value(&options.curve), "write the learning curve here (CSV)");
    if (const auto status = parse_subcommand(program, described, arguments)) return *status;
    const auto schedule = search::learning::Schedule::parse(options.learning_rate);
    if (!schedule || options.game_files.empty() || options.out.empty() || options.size < min_size ||
        options.size > max_size || options.hidden < 16 || options.hidden > search::learning::nnue::max_hidden ||
        options.hidden % 16 != 0 || options.epochs < 1 || options.batch < 1 || options.score_weight < 0 ||
        options.score_weight > 1 || options.symmetries < 1 || options.symmetries > 8 || options.threads < 1) {
        std::cerr << program
                  << ": needs --games, --out, a size 3-8, --hidden 16..1024 in steps of 16, a valid --learning-rate, "
                     "--epochs and --batch >= 1, --score-weight 0..1, --symmetries 1..8\n";
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

    Samples samples;
    Random random(options.seed);
    long games_used = 0, game_index = 0;
    for (const std::string& path : options.game_files) {
        auto games = read_games(path);
        if (!games) {
            std::cerr << program << ": " << games.error() << "\n";
            return 1;
        }
        for (const TakGame& game : *games) {
            if (game.variant.size != options.size) continue;
            const bool held_out = options.validation_every > 0 && game_index++ % options.validation_every == 0;
            add_game(game, options, held_out, random, samples);
            ++games_used;
        }
    }
    if (samples.train.size() == 0 || samples.validation.size() == 0) {
        std::cerr << program << ": no " << options.size << "x" << options.size
                  << " training or validation positions in the games\n";
        return 1;
    }
    const int inputs = network::input_count(options.size);
    PerspectiveNetwork net(inputs, options.hidden);
    if (!options.init.empty()) {
        std::ifstream in(options.init, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        auto loaded = search::learning::parse_network(bytes);
        if (!in.good() && bytes.empty()) loaded = make_error("cannot read " + options.init);
        if (!loaded || loaded->inputs() != inputs || loaded->hidden() != options.hidden) {
            std::cerr << program << ": --init " << options.init << ": "
                      << (loaded ? "its shape differs from --size and --hidden" : loaded.error()) << "\n";
            return 1;
        }
        net = std::move(*loaded);
    } else {
        net.randomize(options.seed, 40);
    }
    net.description = options.description;

    double linear_loss = 0;
    for (std::size_t i = 0; i < samples.validation.size(); ++i)
        linear_loss += search::learning::cross_entropy(samples.linear_validation[i], samples.validation.target(i));
    linear_loss /= static_cast<double>(samples.validation.size());
    const double before = mean_loss(net, samples.validation, options.threads);
    std::cout << fmt::format(
        "{}x{}: {} games, {} training samples ({} symmetries), {} validation positions, {} inputs, {} hidden; "
        "read in {:.1f} s\nvalidation loss: linear evaluation {:.5f}, network at the start {:.5f}\n",
        options.size, options.size, games_used, samples.train.size(), options.symmetries, samples.validation.size(),
        inputs, options.hidden, seconds(), linear_loss, before);
    std::string curve = "epoch,learning_rate,train_loss,validation_loss,linear_validation_loss\n";
    curve += fmt::format("0,0,,{:.6f},{:.6f}\n", before, linear_loss);

    search::learning::NetworkFit fit(net, options.threads, 2 * options.threads);
    std::vector<std::uint32_t> order(samples.train.size());
    std::iota(order.begin(), order.end(), 0u);
    Random shuffle(options.seed ^ 0x5DEECE66DULL);
    double best_validation = before;
    int best_epoch = 0;
    if (!write_text_file(program, options.out + ".part", search::learning::format_network(net))) return 1;
    std::filesystem::rename(options.out + ".part", options.out);
    for (int epoch = 1; epoch <= options.epochs; ++epoch) {
        for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[shuffle.below(static_cast<std::uint32_t>(i))]);
        const double rate = schedule->at(epoch - 1, options.epochs);
        const auto train = fit.train(samples.train, order, options.batch, rate);
        const double validation = mean_loss(net, samples.validation, options.threads);
        std::cout << fmt::format("epoch {:3d}  rate {:.6f}  train {:.5f}  validation {:.5f}  ({:.0f} s)\n", epoch,
                                 rate, train.cross_entropy, validation, seconds());
        std::cout.flush();
        curve += fmt::format("{},{:.7f},{:.6f},{:.6f},{:.6f}\n", epoch, rate, train.cross_entropy, validation,
                             linear_loss);
        // The network of the best validation loss so far is kept (self-play positions of one game
        // share its result, so a network can learn games by heart); written at once, a stopped run
        // loses nothing, and a rename replaces the file whole.
        if (validation < best_validation) {
            best_validation = validation;
            best_epoch = epoch;
            if (!write_text_file(program, options.out + ".part", search::learning::format_network(net))) return 1;
            std::filesystem::rename(options.out + ".part", options.out);
        }
    }
    if (!options.curve.empty() && !write_text_file(program, options.curve, curve)) return 1;
    std::cout << fmt::format("kept the network of epoch {} (validation {:.5f})\n", best_epoch, best_validation);
    std::cerr << fmt::format("{}: done in {:.1f} s\n", program, seconds());
    return 0;
}

}  // namespace bge::train
