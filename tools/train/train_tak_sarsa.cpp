// train_tak_sarsa: learns the sarsa player's weights by SARSA self-play (search/learning/sarsa.hpp)
// over the Tak features of engines/tak/sarsa_features.hpp, printing a learning curve (the greedy
// player against the uniform random player) as it goes. See docs/tak.md, "sarsa".

#include <fmt/format.h>

#include <array>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "core/tak/tak.hpp"
#include "core/version.hpp"
#include "engines/tak/sarsa_features.hpp"
#include "tools/train/text_file.hpp"

namespace po = boost::program_options;
using namespace bge;
using namespace bge::tak;

namespace {

struct Settings {
    int games = 4000;
    int size = 0;  // 0: sizes 3 to 6 in turn
    std::uint64_t seed = 1;
    double epsilon = 0.1;
    double alpha = 0.99;
    double gamma = 0.99;
    int eval_every = 500;
    int eval_games = 100;
    int max_plies = 400;
    int average_from = -1;  // -1: half of the games
    std::string out;
    std::string init;
};

int size_for(const Settings& settings, int game) { return settings.size != 0 ? settings.size : 3 + game % 4; }

struct Evaluation {
    int wins = 0, draws = 0, losses = 0;
    int wins_by_size[max_size + 1] = {}, games_by_size[max_size + 1] = {};
    long plies = 0;
};

// The greedy player (epsilon 0) against uniform random play, colours alternating; the same
// opponent moves every time (a fixed seed), so points on the curve compare.
Evaluation evaluate(const Settings& settings, const SarsaWeights& weights) {
    Evaluation result;
    Random random(0xE7A1'5EED);
    MoveList<Tak> moves;
    for (int game = 0; game < settings.eval_games; ++game) {
        Variant variant;
        variant.size = size_for(settings, game);
        // With mixed sizes, each size gets both colours in turn.
        const int round = settings.size != 0 ? game : game / 4;
        const Side learner = round % 2 == 0 ? Side::first : Side::second;
        State state = start_state(variant);
        Outcome end;
        for (int ply = 0; ply < settings.max_plies; ++ply) {
            generate_moves(state, moves);
            Move move = moves[0];
            if (state.side_to_move() == learner)
                move = TakSarsa::choose(state, moves, weights, 0.0, random).move;
            else
                move = moves[random.below(static_cast<std::uint32_t>(moves.size()))];
            play(state, move);
            ++result.plies;
            end = outcome(state);
            if (end.is_over()) break;
        }
        ++result.games_by_size[variant.size];
        if (end.is_win_for(learner)) {
            ++result.wins;
            ++result.wins_by_size[variant.size];
        } else if (end.kind == OutcomeKind::win)
            ++result.losses;
        else
            ++result.draws;
    }
    return result;
}

void print_curve_point(const Settings& settings, int episodes, const Evaluation& e, const Evaluation* averaged,
                       double mean_error, double seconds) {
    const double n = settings.eval_games;
    std::string line = fmt::format("{:>8} {:>6.1f} {:>6.1f} {:>6.1f} {:>7.1f}", episodes, 100.0 * e.wins / n,
                                   100.0 * e.draws / n, 100.0 * e.losses / n, e.plies / n);
    line += averaged ? fmt::format(" {:>6.1f}", 100.0 * averaged->wins / n) : fmt::format(" {:>6}", "-");
    if (settings.size == 0)
        for (int size = 3; size <= 6; ++size)
            line += fmt::format(" {:>6.1f}",
                                e.games_by_size[size] ? 100.0 * e.wins_by_size[size] / e.games_by_size[size] : 0.0);
    line += fmt::format(" {:>9.4f} {:>8.1f}", mean_error, seconds);
    std::cout << line << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
    if (bge::print_version_if_asked(argc, argv, "train_tak_sarsa")) return 0;
    Settings settings;
    po::options_description options(
        "train_tak_sarsa: SARSA self-play for the tak engine's sarsa player (docs/tak.md)\n\nOptions");
    // clang-format off
    options.add_options()
        ("help,h", "this help")
        ("games", po::value(&settings.games)->default_value(settings.games), "self-play games (episodes)")
        ("size", po::value(&settings.size)->default_value(settings.size), "board size 3..8; 0: sizes 3 to 6 in turn")
        ("seed", po::value(&settings.seed)->default_value(settings.seed), "random seed (same seed, same weights)")
        ("epsilon", po::value(&settings.epsilon)->default_value(settings.epsilon, "0.1"), "exploration in self-play")
        ("alpha", po::value(&settings.alpha)->default_value(settings.alpha, "0.99"), "NLMS step, 0 < alpha < 2")
        ("gamma", po::value(&settings.gamma)->default_value(settings.gamma, "0.99"), "discount per own move, 0..1")
        ("eval-every", po::value(&settings.eval_every)->default_value(settings.eval_every),
            "episodes between points of the learning curve (0: only at the start and the end)")
        ("eval-games", po::value(&settings.eval_games)->default_value(settings.eval_games),
            "games against the random player per point")
        ("max-plies", po::value(&settings.max_plies)->default_value(settings.max_plies),
            "a game still going after this many plies is cut (self-play: no terminal update; evaluation: a draw)")
        ("average-from", po::value(&settings.average_from)->default_value(settings.average_from),
            "average the weights over the episodes after this one and write the average "
            "(-1: the second half of the games; --games: no averaging, the last weights)")
        ("init", po::value(&settings.init), "start from this weights file (default: all zero)")
        ("out", po::value(&settings.out),
            "write the weights file here (for setoption name SarsaWeights; to ship it, copy it over "
            "the engine's nets/sarsa_weights.txt and rebuild)");
    // clang-format on
    po::variables_map values;
    try {
        po::store(po::parse_command_line(argc, argv, options), values);
        po::notify(values);
    } catch (const po::error& e) {
        std::cerr << "train_tak_sarsa: " << e.what() << "\n" << options << "\n";
        return 2;
    }
    if (values.count("help")) {
        std::cout << options << "\n";
        return 0;
    }
    auto refuse = [&](const std::string& why) {
        std::cerr << "train_tak_sarsa: " << why << "\n";
        return 2;
    };
    if (settings.games < 0) return refuse("--games must be 0 or more");
    if (settings.size != 0 && (settings.size < min_size || settings.size > max_size))
        return refuse("--size must be 0 or 3..8");
    if (!(settings.epsilon >= 0 && settings.epsilon <= 1)) return refuse("--epsilon must be within 0..1");
    if (!(settings.alpha > 0 && settings.alpha < 2)) return refuse("--alpha must be within (0, 2) (NLMS)");
    if (!(settings.gamma >= 0 && settings.gamma <= 1)) return refuse("--gamma must be within 0..1");
    if (settings.average_from < 0) settings.average_from = settings.games / 2;
    if (settings.average_from > settings.games) return refuse("--average-from must be at most --games");
    if (settings.eval_every < 0 || settings.eval_games < 1 || settings.max_plies < 1)
        return refuse("--eval-every must be 0 or more, --eval-games and --max-plies 1 or more");

    std::string command_line = "train_tak_sarsa";
    for (int i = 1; i < argc; ++i) command_line += std::string(" ") + argv[i];

    SarsaWeights weights;
    if (!settings.init.empty()) {
        auto loaded = load_sarsa_weights(settings.init);
        if (!loaded) return refuse("--init: " + loaded.error());
        weights = *loaded;
    }

    search::learning::SarsaParameters parameters{settings.epsilon, settings.alpha, settings.gamma};
    Random random(settings.seed);
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

    std::cout << "# " << command_line << "\n";
    std::cout << fmt::format(
        "# win/draw/loss: the greedy player with the current weights vs uniform random, {} games per point;\n"
        "# avg%: the same with the weights averaged since episode {} (what is written out){}\n",
        settings.eval_games, settings.average_from,
        settings.size == 0 ? ";\n# then the current weights' win % on 3x3 4x4 5x5 6x6" : "");
    std::string header =
        fmt::format("{:>8} {:>6} {:>6} {:>6} {:>7} {:>6}", "episodes", "win%", "draw%", "loss%", "plies", "avg%");
    if (settings.size == 0) header += fmt::format(" {:>6} {:>6} {:>6} {:>6}", "3x3", "4x4", "5x5", "6x6");
    header += fmt::format(" {:>9} {:>8}", "rms-error", "seconds");
    std::cout << header << std::endl;

    Evaluation last = evaluate(settings, weights);
    print_curve_point(settings, 0, last, nullptr, 0.0, seconds());
    // Polyak averaging: alpha near 1 makes every update nearly fit its one sample, so the weights
    // jump from game to game; their average over many games is what gets written.
    std::array<double, TakSarsaFeatures::count> sum{};
    long averaged_games = 0;
    auto average = [&] {
        if (averaged_games == 0) return weights;
        SarsaWeights mean;
        for (std::size_t i = 0; i < sum.size(); ++i) mean.weights[i] = sum[i] / static_cast<double>(averaged_games);
        return mean;
    };
    double squared_error = 0;
    long updates = 0;
    for (int game = 0; game < settings.games; ++game) {
        Variant variant;
        variant.size = size_for(settings, game);
        const auto episode = TakSarsa::self_play(start_state(variant), weights, parameters, random, settings.max_plies);
        squared_error += episode.squared_error;
        updates += episode.updates;
        if (game + 1 > settings.average_from) {
            for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += weights.weights[i];
            ++averaged_games;
        }
        const bool point = settings.eval_every > 0 && (game + 1) % settings.eval_every == 0;
        if (point || game + 1 == settings.games) {
            last = evaluate(settings, weights);
            std::optional<Evaluation> averaged;
            if (averaged_games > 0) averaged = evaluate(settings, average());
            print_curve_point(settings, game + 1, last, averaged ? &*averaged : nullptr,
                              updates ? std::sqrt(squared_error / updates) : 0.0, seconds());
            if (averaged) last = *averaged;
            squared_error = 0;
            updates = 0;
        }
    }
    const SarsaWeights final_weights = average();

    const std::string comment = fmt::format(
        "Command line: {}\n"
        "{} self-play games on {}, seed {}, epsilon {}, alpha {}, gamma {}; weights averaged over the last {} "
        "games ({:.0f} s on one core).\n"
        "Greedy against uniform random at the end: {}/{} won, {} drawn, {} lost.",
        command_line, settings.games,
        settings.size == 0 ? std::string("sizes 3 to 6 in turn") : fmt::format("{0}x{0}", settings.size), settings.seed,
        settings.epsilon, settings.alpha, settings.gamma, averaged_games, seconds(), last.wins, settings.eval_games,
        last.draws, last.losses);
    for (std::size_t i = 0; i < TakSarsaFeatures::count; ++i)
        std::cout << fmt::format("# {:<18} {:>10.4f}\n", TakSarsaFeatures::names[i], final_weights.weights[i]);
    if (!settings.out.empty() &&
        !bge::train::write_text_file("train_tak_sarsa", settings.out, format_sarsa_weights(final_weights, comment)))
        return 1;
    return 0;
}
