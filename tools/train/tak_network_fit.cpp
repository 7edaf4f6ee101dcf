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
// The fit is the shared epoch loop (tools/train/network_training.hpp: NetworkFit's Adam over
// shuffled mini-batches); the output is the network file as the engine reads it
// (search/learning/nnue.hpp) and a learning curve; the file holds the network of the epoch with
// the lowest validation loss. For comparison the
// linear evaluation's loss on the same validation positions is printed.

#include "tools/train/tak_network_fit.hpp"

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <iostream>

#include "core/random.hpp"
#include "engines/tak/evaluation.hpp"
#include "engines/tak/network.hpp"
#include "engines/tak/roads.hpp"
#include "search/learning/cross_entropy.hpp"
#include "search/learning/nnue.hpp"
#include "search/learning/schedule.hpp"
#include "tools/train/network_training.hpp"
#include "tools/train/tak_games.hpp"
#include "tools/train/subcommand_options.hpp"

namespace bge::train {

namespace po = boost::program_options;
using namespace bge::tak;
using search::learning::FeatureList;
using search::learning::PerspectiveNetwork;
using search::learning::SparseDataset;

namespace {

constexpr std::string_view program = "train_tak_eval network";

struct NetworkOptions : NetworkCommand {
    NetworkOptions() { hidden = 128; }
    int size = 6;
    double scale = network::centiflats_per_logit;
    int symmetries = 1;
};

struct Samples {
    SparseDataset train, validation;
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

}  // namespace

int run_network_fit(const std::vector<std::string>& arguments) {
    NetworkOptions options;
    po::options_description described("train_tak_eval network: fit a value network to games");
    options.add_options(described, "games files (train_tak_eval selfplay)");
    described.add_options()("size", po::value(&options.size)->default_value(6), "the board size whose games are used")(
        "symmetries", po::value(&options.symmetries)->default_value(1),
        "training copies of each position, turned by distinct symmetries of the square (1..8)");
    if (const auto status = parse_subcommand(program, described, arguments)) return *status;
    if (!options.valid() || options.size < min_size || options.size > max_size || options.symmetries < 1 ||
        options.symmetries > 8) {
        std::cerr << program << ": needs " << NetworkCommand::requirements << ", a --size 3-8, --symmetries 1..8\n";
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
    auto started = options.start_network(inputs, 40, search::learning::nnue::first_layer_limit);
    if (!started) {
        std::cerr << program << ": " << started.error() << "\n";
        return 1;
    }
    PerspectiveNetwork net = std::move(*started);

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
    NetworkTraining training = options.training(program);
    training.reference_column = "linear_validation_loss";
    training.reference_loss = linear_loss;
    if (const int status = train_network(net, samples.train, samples.validation, training)) return status;
    std::cerr << fmt::format("{}: done in {:.1f} s\n", program, seconds());
    return 0;
}

}  // namespace bge::train
