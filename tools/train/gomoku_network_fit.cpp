// train_gomoku_eval network: fits a Gomoku pattern network (engines/gomoku/network.hpp) to
// self-play games (train_gomoku_eval selfplay --games-out).
//
// Every searched position of the games that the evaluation does not score by its threats alone
// (evaluation.hpp, scored_by_threats) is a sample. Its target blends the game's result and the
// search's score for the side to move:
//     target = (1 - w) * result + w * sigmoid(score / 200),
// the result being 1, 1/2 or 0. Every tenth game is held out for validation; the engine's fitted
// linear evaluation is scored on the same positions for comparison. The shapes are the same on
// every turn of the board, so no symmetries are added. The fit is the shared epoch loop
// (tools/train/network_training.hpp); the file keeps the network of the best validation loss.

#include "tools/train/gomoku_network_fit.hpp"

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <iostream>

#include "engines/gomoku/board.hpp"
#include "engines/gomoku/evaluation.hpp"
#include "engines/gomoku/network.hpp"
#include "search/learning/cross_entropy.hpp"
#include "search/learning/nnue.hpp"
#include "tools/train/gomoku_games.hpp"
#include "tools/train/network_training.hpp"
#include "tools/train/subcommand_options.hpp"

namespace bge::train {

namespace po = boost::program_options;
using namespace bge::gomoku;
using search::learning::FeatureList;
using search::learning::PerspectiveNetwork;
using search::learning::SparseDataset;

namespace {

constexpr std::string_view program = "train_gomoku_eval network";
constexpr double score_clamp = 2000;  // centi-units: 10 logits, a sure thing

struct Options : NetworkCommand {
    Options() {
        epochs = 20;
        batch = 512;
    }
    std::string rule = "freestyle";
};

struct Samples {
    SparseDataset train, validation;
    double linear_loss = 0;  // the fitted linear evaluation's, summed over the validation samples
};

void add_game(const GomokuGame& game, const Options& options, bool held_out, const GomokuEvaluator& linear,
              Samples& out) {
    SearchBoard board(start_state(game.variant));
    FeatureList x;
    for (std::size_t ply = 0; ply < game.moves.size(); ++ply) {
        const std::int16_t score = game.scores[ply];
        if (static_cast<int>(ply) >= game.opening_plies && board.rules.result == Result::ongoing &&
            !linear.scored_by_threats(board) && network::sample_inputs(board, x)) {
            const int sign = board.side_to_move() == Side::first ? 1 : -1;
            const double result = game.result == 0 ? 0.5 : (game.result * sign > 0 ? 1.0 : 0.0);
            double target = result;
            if (score != GomokuGame::no_score) {
                const double clamped = std::clamp<double>(score, -score_clamp, score_clamp);
                target = (1 - options.score_weight) * result +
                         options.score_weight / (1 + std::exp(-clamped / network::centi_units_per_logit));
            }
            if (held_out) {
                out.validation.add(x, static_cast<float>(target));
                const double logit = linear.evaluate(board) / network::centi_units_per_logit;
                out.linear_loss += search::learning::cross_entropy(1 / (1 + std::exp(-logit)), target);
            } else {
                out.train.add(x, static_cast<float>(target));
            }
        }
        GomokuSearch::play(board, game.moves[ply]);
    }
}

}  // namespace

int run_gomoku_network_fit(const std::vector<std::string>& arguments) {
    Options options;
    po::options_description described("train_gomoku_eval network: fit a pattern network to games");
    options.add_options(described, "games files (train_gomoku_eval selfplay --games-out)");
    described.add_options()("rule", po::value(&options.rule)->default_value("freestyle"), "the rule whose games are used");
    if (const auto status = parse_subcommand(program, described, arguments)) return *status;
    const auto rule = parse_rule(options.rule);
    if (!options.valid() || !rule) {
        std::cerr << program << ": needs " << NetworkCommand::requirements << ", a --rule freestyle, standard or renju\n";
        return 2;
    }
    GomokuEvaluator linear;
    const FittedWeights* fitted = builtin_fitted_weights(*rule);
    linear.set_fitted({fitted, fitted, fitted});
    Samples samples;
    const auto games_used = for_each_game(options.game_files, *rule, options.validation_every,
                                          [&](const GomokuGame& game, bool held_out) {
                                              add_game(game, options, held_out, linear, samples);
                                          });
    if (!games_used) {
        std::cerr << program << ": " << games_used.error() << "\n";
        return 1;
    }
    if (samples.train.size() == 0 || samples.validation.size() == 0) {
        std::cerr << program << ": no " << options.rule << " training or validation positions in the games\n";
        return 1;
    }
    // About a hundred cells carry a shape in a middle game.
    auto started = options.start_network(network::input_count, 100, network::first_layer_limit);
    if (!started) {
        std::cerr << program << ": " << started.error() << "\n";
        return 1;
    }
    PerspectiveNetwork net = std::move(*started);
    const double linear_loss = samples.linear_loss / static_cast<double>(samples.validation.size());
    std::cout << fmt::format(
        "{}: {} games, {} training and {} validation positions, {} inputs, {} hidden\n"
        "validation loss: fitted linear evaluation {:.5f}, network at the start {:.5f}\n",
        options.rule, *games_used, samples.train.size(), samples.validation.size(), network::input_count,
        options.hidden, linear_loss, mean_loss(net, samples.validation, options.threads));
    NetworkTraining training = options.training(program);
    training.reference_column = "linear_validation_loss";
    training.reference_loss = linear_loss;
    return train_network(net, samples.train, samples.validation, training);
}

}  // namespace bge::train
