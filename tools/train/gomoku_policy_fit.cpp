// train_gomoku_eval policy: fits the Gomoku move policy (engines/gomoku/policy.hpp) to the moves
// the search chose in self-play games (train_gomoku_eval selfplay --games-out), or to a teacher's
// moves (the `best` of `arbiter analyse` datasets: Rapfi's choice, say), or to both.
//
// Every position of the games with a choice to make is a sample: the search's candidate moves
// (candidate_moves, board.hpp) are the candidates, the move played (or the teacher's) is the
// target; a position whose target is not among them, or with one candidate only, is left out.
// Every n-th game is held out: of the teacher's games when there are any (then every self-play
// game trains, and the validation figure is the agreement with the teacher), else of the
// self-play games. The fit starts from zero weights or from a policy file (--init) and runs
// SoftmaxFit's epochs through the shared loop (tools/train/policy_training.hpp). For comparison
// the hand-written ordering (the cells' pattern values, order_hint, as a softmax of hint / 100)
// is scored on the same validation positions.

#include "tools/train/gomoku_policy_fit.hpp"

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <iostream>
#include <optional>

#include "core/random.hpp"
#include "engines/gomoku/board.hpp"
#include "engines/gomoku/evaluation.hpp"
#include "engines/gomoku/policy.hpp"
#include "search/learning/softmax_fit.hpp"
#include "tools/train/gomoku_games.hpp"
#include "tools/train/policy_training.hpp"
#include "tools/train/subcommand_options.hpp"

namespace bge::train {

namespace po = boost::program_options;
using namespace bge::gomoku;
using search::learning::ChoiceDataset;

namespace {

constexpr std::string_view program = "train_gomoku_eval policy";

// Which move of a game is the target: the one played, or the teacher's where it gave one.
enum class Target { played, teacher };

void add_game(const GomokuGame& game, Target target, ChoiceDataset& out, HandWrittenOrdering* reference) {
    SearchBoard board(start_state(game.variant));
    const GomokuEvaluator hints;
    MoveList<GomokuSearch> moves;
    std::vector<std::uint16_t> features;
    for (std::size_t ply = 0; ply < game.moves.size(); ++ply) {
        const Move played = game.moves[ply];
        std::optional<Move> wanted = played;
        if (target == Target::teacher) wanted = ply < game.teacher_best.size() ? game.teacher_best[ply] : std::nullopt;
        if (wanted && static_cast<int>(ply) >= game.opening_plies && board.rules.result == Result::ongoing) {
            candidate_moves(board, moves);
            int chosen = -1;
            for (std::size_t i = 0; i < moves.size(); ++i)
                if (moves[i] == *wanted) chosen = static_cast<int>(i);
            if (chosen >= 0 && moves.size() > 1) {
                out.begin_position(static_cast<std::uint32_t>(chosen));
                for (const Move move : moves) {
                    policy::move_features(board, move.square, features);
                    out.add_candidate(features);
                }
                if (reference) {
                    std::vector<double> logits;
                    for (const Move move : moves) logits.push_back(hints.order_hint(board, move) / 100.0);
                    reference->add(std::move(logits), static_cast<std::size_t>(chosen));
                }
            }
        }
        GomokuSearch::play(board, played);
    }
}

}  // namespace

int run_gomoku_policy_fit(const std::vector<std::string>& arguments) {
    std::vector<std::string> game_files, label_files;
    std::string rule_text = "freestyle", out, curve, origin, learning_rate, initial;
    int epochs = 8, validation_every = 10, threads = 2;
    std::size_t batch = 256;
    double l2 = 1e-5;
    std::uint64_t seed = 1;
    po::options_description described("train_gomoku_eval policy: fit the move policy to the moves played");
    described.add_options()("help", "this help")("games", po::value(&game_files)->multitoken(),
                                                 "games files (train_gomoku_eval selfplay --games-out)")(
        "labels", po::value(&label_files)->multitoken(),
        "arbiter analyse datasets: the teacher's moves are targets, and its held-out games the validation")(
        "init", po::value(&initial), "a policy file to start from (default: zero weights)")(
        "rule", po::value(&rule_text)->default_value("freestyle"), "the rule whose games are used")(
        "epochs", po::value(&epochs)->default_value(8), "passes over the data")(
        "batch", po::value(&batch)->default_value(256), "positions per step")(
        "learning-rate", po::value(&learning_rate)->default_value("cosine:0.05:0.002"),
        "Adam step size over epochs: a number, linear:A:B, cosine:A:B, step:A:F:N, inverse:A:N")(
        "l2", po::value(&l2)->default_value(1e-5), "L2 penalty")(
        "validation-every", po::value(&validation_every)->default_value(10), "hold out every n-th game")(
        "threads", po::value(&threads)->default_value(2), "threads")(
        "seed", po::value(&seed)->default_value(1), "seed of the batch order")(
        "origin", po::value(&origin), "how the policy was made, for the file's comment")(
        "out", po::value(&out), "policy file to write")("curve", po::value(&curve), "write the learning curve here (CSV)");
    if (const auto status = parse_subcommand(program, described, arguments)) return *status;
    const auto schedule = search::learning::Schedule::parse(learning_rate);
    const auto rule = parse_rule(rule_text);
    if (!schedule || !rule || (game_files.empty() && label_files.empty()) || out.empty() || epochs < 1 || batch < 1 ||
        threads < 1 || validation_every < 2) {
        std::cerr << program
                  << ": needs --games or --labels, --out, a rule (freestyle, standard, renju), a valid --learning-rate, "
                     "--epochs and --batch >= 1, --validation-every >= 2\n";
        return 2;
    }
    std::vector<double> start;
    if (!initial.empty()) {
        auto loaded = policy::Policy::load(initial);
        if (!loaded) {
            std::cerr << program << ": --init " << initial << ": " << loaded.error() << "\n";
            return 1;
        }
        start.assign(loaded->weights().begin(), loaded->weights().end());
    }
    ChoiceDataset train, validation;
    HandWrittenOrdering reference;
    // With a teacher, its held-out games validate and every self-play game trains.
    const bool teacher_validates = !label_files.empty();
    const auto games_used = for_each_game(game_files, *rule, teacher_validates ? 0 : validation_every,
                                          [&](const GomokuGame& game, bool held_out) {
                                              add_game(game, Target::played, held_out ? validation : train,
                                                       held_out ? &reference : nullptr);
                                          });
    if (!games_used) {
        std::cerr << program << ": " << games_used.error() << "\n";
        return 1;
    }
    long teacher_games = 0;
    if (teacher_validates) {
        const auto labelled = read_labelled_games(label_files);
        if (!labelled) {
            std::cerr << program << ": " << labelled.error() << "\n";
            return 1;
        }
        const auto converted = gomoku_games_from_labels(*labelled, TeacherScale{});
        for (const std::string& why : converted.skipped) std::cerr << program << ": left out " << why << "\n";
        for (const GomokuGame& game : converted.games) {
            if (game.variant.rule != *rule) continue;
            const bool held_out = teacher_games % validation_every == 0;
            add_game(game, Target::teacher, held_out ? validation : train, held_out ? &reference : nullptr);
            ++teacher_games;
        }
    }
    if (train.size() == 0 || validation.size() == 0) {
        std::cerr << program << ": no " << rule_text << " training or validation positions in the games\n";
        return 1;
    }
    std::cout << fmt::format("{}: {} self-play and {} teacher games, {} training and {} validation positions, {} features\n",
                             rule_text, *games_used, teacher_games, train.size(), validation.size(),
                             policy::feature_count());
    PolicyTraining training;
    training.program = program;
    training.epochs = epochs;
    training.batch = batch;
    training.schedule = *schedule;
    training.l2 = l2;
    training.threads = threads;
    training.out = out;
    training.curve = curve;
    training.hand_written = reference;
    training.initial = std::move(start);
    const std::string comment = origin.empty() ? "fitted by train_gomoku_eval policy" : origin;
    training.format = [&](std::vector<float> weights) { return policy::Policy(std::move(weights)).format(comment); };
    Random random(seed);
    return train_policy(static_cast<std::size_t>(policy::feature_count()), train, validation, training, random);
}

}  // namespace bge::train
