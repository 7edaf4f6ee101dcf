// train_tak_eval policy: fits the Tak move policy (engines/tak/policy.hpp) to the moves the search
// chose in self-play games.
//
// Every searched position of the games (not book or random plies, not one where the side to move
// has a road in one: the search plays that without asking the policy) is a sample: its legal moves
// are the candidates, the move played is the target. Every tenth game is held out. The fit is
// SoftmaxFit's (search/learning/softmax_fit.hpp) through the shared epoch loop
// (tools/train/policy_training.hpp); the output is the policy file the engine reads.
// For comparison the hand-written ordering (static_hint, as a softmax of hint / 25) is scored on
// the same validation positions.

#include "tools/train/tak_policy_fit.hpp"

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <iostream>

#include "core/random.hpp"
#include "engines/tak/evaluation.hpp"
#include "engines/tak/policy.hpp"
#include "engines/tak/roads.hpp"
#include "search/learning/schedule.hpp"
#include "search/learning/softmax_fit.hpp"
#include "tools/train/policy_training.hpp"
#include "tools/train/tak_games.hpp"
#include "tools/train/subcommand_options.hpp"

namespace bge::train {

namespace po = boost::program_options;
using namespace bge::tak;
using search::learning::ChoiceDataset;

namespace {

constexpr std::string_view program = "train_tak_eval policy";

struct PolicyOptions {
    std::vector<std::string> game_files;
    std::string out, curve, origin;
    int epochs = 8;
    std::size_t batch = 256;
    std::string learning_rate = "cosine:0.05:0.002";
    double l2 = 1e-5;
    double keep = 1.0;  // share of the training positions used
    int validation_every = 10;
    int threads = 2;
    std::uint64_t seed = 1;
};

void add_game(const TakGame& game, bool held_out, const PolicyOptions& options, Random& random, ChoiceDataset& out,
              HandWrittenOrdering* reference) {
    State state = start_state(game.variant);
    MoveList<Tak> moves;
    std::vector<std::uint16_t> features;
    const TakEvaluator hints;
    for (std::size_t ply = 0; ply < game.moves.size(); ++ply) {
        const Move played = game.moves[ply];
        const bool searched = static_cast<int>(ply) >= game.opening_plies;
        const bool kept = held_out || options.keep >= 1 || random.unit() < options.keep;
        if (searched && kept && !outcome(state).is_over() && !has_road_in_one(state, state.side_to_move())) {
            moves.clear();
            generate_moves(state, moves);
            std::uint32_t chosen = 0;
            for (std::size_t i = 0; i < moves.size(); ++i)
                if (moves[i] == played) chosen = static_cast<std::uint32_t>(i);
            const policy::Context context = policy::context_of(state);
            out.begin_position(chosen);
            for (const Move move : moves) {
                policy::move_features(state, context, move, features);
                out.add_candidate(features);
            }
            if (reference) {
                std::vector<double> logits;
                for (const Move move : moves) logits.push_back(hints.static_hint(state, move) / 25.0);
                reference->add(std::move(logits), chosen);
            }
        }
        play(state, played);
    }
}

}  // namespace

int run_policy_fit(const std::vector<std::string>& arguments) {
    PolicyOptions options;
    po::options_description described("train_tak_eval policy: fit the move policy to the moves played");
    described.add_options()("help", "this help")("games", po::value(&options.game_files)->multitoken(),
                                                 "games files (train_tak_eval selfplay)")(
        "epochs", po::value(&options.epochs)->default_value(8), "passes over the data")(
        "batch", po::value(&options.batch)->default_value(256), "positions per step")(
        "learning-rate", po::value(&options.learning_rate)->default_value("cosine:0.05:0.002"),
        "Adam step size over epochs: a number, linear:A:B, cosine:A:B, step:A:F:N, inverse:A:N")(
        "l2", po::value(&options.l2)->default_value(1e-5), "L2 penalty")(
        "keep", po::value(&options.keep)->default_value(1.0), "share of the training positions used (0..1]")(
        "validation-every", po::value(&options.validation_every)->default_value(10), "hold out every n-th game")(
        "threads", po::value(&options.threads)->default_value(2), "threads")(
        "seed", po::value(&options.seed)->default_value(1), "seed of the sampling and batch order")(
        "origin", po::value(&options.origin), "how the policy was made, for the file's comment")(
        "out", po::value(&options.out), "policy file to write")(
        "curve", po::value(&options.curve), "write the learning curve here (CSV)");
    if (const auto status = parse_subcommand(program, described, arguments)) return *status;
    const auto schedule = search::learning::Schedule::parse(options.learning_rate);
    if (!schedule || options.game_files.empty() || options.out.empty() || options.epochs < 1 || options.batch < 1 ||
        !(options.keep > 0 && options.keep <= 1) || options.threads < 1) {
        std::cerr << program
                  << ": needs --games, --out, a valid --learning-rate, --epochs and --batch >= 1, --keep in (0, 1]\n";
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    ChoiceDataset train, validation;
    HandWrittenOrdering reference;
    Random random(options.seed);
    long game_index = 0;
    for (const std::string& path : options.game_files) {
        auto games = read_games(path);
        if (!games) {
            std::cerr << program << ": " << games.error() << "\n";
            return 1;
        }
        for (const TakGame& game : *games) {
            const bool held_out = options.validation_every > 0 && game_index++ % options.validation_every == 0;
            add_game(game, held_out, options, random, held_out ? validation : train, held_out ? &reference : nullptr);
        }
    }
    if (train.size() == 0 || validation.size() == 0) {
        std::cerr << program << ": no training or validation positions in the games\n";
        return 1;
    }
    std::cout << fmt::format("{} games, {} training and {} validation positions, {} features; read in {:.1f} s\n",
                             game_index, train.size(), validation.size(), policy::feature_count(), seconds());
    PolicyTraining training;
    training.program = program;
    training.epochs = options.epochs;
    training.batch = options.batch;
    training.schedule = *schedule;
    training.l2 = options.l2;
    training.threads = options.threads;
    training.out = options.out;
    training.curve = options.curve;
    training.hand_written = reference;
    const std::string origin = options.origin.empty() ? "fitted by train_tak_eval policy" : options.origin;
    training.format = [&](std::vector<float> weights) { return policy::Policy(std::move(weights)).format(origin); };
    if (const int status =
            train_policy(static_cast<std::size_t>(policy::feature_count()), train, validation, training, random))
        return status;
    std::cerr << fmt::format("{}: done in {:.1f} s\n", program, seconds());
    return 0;
}

}  // namespace bge::train
