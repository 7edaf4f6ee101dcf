// The Gomoku pattern network (engines/gomoku/network.hpp on search/learning/nnue.hpp):
// - the accumulators SearchBoard keeps through plays and undos equal a full recomputation,
//   exactly, over random games of every rule;
// - the quantised logit stays close to the float network's over the training inputs;
// - games files round-trip and a broken line is refused with its reason; every shipped network
//   loads, and so do the shipped fitted weights (nets/RULE.eval);
// - `train_gomoku_eval selfplay --games-out` and `network` write a file the engine plays with,
//   and a bad file is reported while the engine keeps playing;
// - the move policy: feature names are unique, files round-trip and bad ones are refused,
//   `train_gomoku_eval policy` beats the uniform policy on held-out games and the engine orders
//   by its file.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "arbiter_run.hpp"
#include "core/random.hpp"
#include "engines/gomoku/board.hpp"
#include "engines/gomoku/evaluation.hpp"
#include "engines/gomoku/nets/embedded.hpp"
#include "engines/gomoku/network.hpp"
#include "engines/gomoku/policy.hpp"
#include "search/learning/nnue.hpp"
#include "tools/train/gomoku_games.hpp"

using namespace bge;
using namespace bge::gomoku;
using bge::search::learning::FeatureList;
using bge::search::learning::PerspectiveNetwork;
using bge::search::learning::QuantisedNetwork;
using bge::testing::run_arbiter;
using bge::testing::run_program;
using bge::testing::scratch;
using bge::testing::transcript;

namespace {

PerspectiveNetwork random_network(int hidden, std::uint64_t seed) {
    PerspectiveNetwork net(network::input_count, hidden);
    net.set_first_layer_limit(network::first_layer_limit);
    net.randomize(seed, 30);
    Random random(seed + 1);
    for (std::size_t i = net.b1_offset(); i < net.wo_offset(); ++i)
        net.parameters()[i] = static_cast<float>(random.unit() * 0.6 - 0.3);
    net.constrain(0, net.parameters().size());
    return net;
}

// The first `hidden` sums of both accumulators.
std::vector<std::int16_t> sums(const SearchBoard& board, int hidden) {
    std::vector<std::int16_t> out;
    for (const auto& accumulator : board.accumulators)
        out.insert(out.end(), accumulator.sums.begin(), accumulator.sums.begin() + hidden);
    return out;
}

// Black e8 f8 g8 (an open three), White h9 i9 j10, Black to move.
State testing_board() {
    Variant variant;
    State state = start_state(variant);
    for (const char* name : {"e8", "h9", "f8", "i9", "g8", "j10"}) {
        const auto move = parse_move(state, name);
        REQUIRE(move.ok());
        play(state, *move);
    }
    return state;
}

}  // namespace

TEST_CASE("gomoku network: incremental accumulators equal a recomputation through play and undo",
          "[gomoku][network]") {
    const PerspectiveNetwork net = random_network(32, 7);
    const auto quantised = QuantisedNetwork::from(net, network::max_cells);
    REQUIRE(quantised.ok());
    for (Rule rule : {Rule::freestyle, Rule::standard, Rule::renju}) {
        Variant variant;
        variant.rule = rule;
        Random random(static_cast<std::uint64_t>(rule) + 11);
        for (int game = 0; game < 6; ++game) {
            SearchBoard board(start_state(variant));
            board.use_network(&*quantised);
            std::vector<std::pair<Move, Undo>> played;
            std::vector<std::vector<std::int16_t>> before;
            while (board.rules.result == Result::ongoing && played.size() < 120) {
                MoveList<GomokuSearch> moves;
                generate_moves(board.rules, moves);  // every legal cell, not only the near ones
                const Move move = moves[random.below(static_cast<std::uint32_t>(moves.size()))];
                before.push_back(sums(board, 32));
                played.emplace_back(move, GomokuSearch::play(board, move));
                SearchBoard fresh(board.rules);
                fresh.use_network(&*quantised);
                INFO(rule_name(rule) << " game " << game << " ply " << played.size());
                REQUIRE(sums(board, 32) == sums(fresh, 32));
                // The quantised logit is near the float network's over the same inputs: each
                // first-layer sum is off by at most half a unit (1/255) per row in it, each
                // output weight by half of 1/64.
                FeatureList x;
                REQUIRE(network::sample_inputs(fresh, x));
                double rows = 1;
                for (int i = 0; i < x.size; ++i) rows += x.value[static_cast<std::size_t>(i)] / 2;
                double bound = 0;
                for (int h = 0; h < 64; ++h)
                    bound += std::abs(net.parameters()[net.wo_offset() + static_cast<std::size_t>(h)]) * rows * 0.5 / 255 +
                             0.5 / 64;
                CHECK(std::abs(fresh.network_logit() - net.logit(x)) <= bound);
                CHECK(std::abs(fresh.network_logit() - net.logit(x)) < 0.2);
            }
            // Taking every stone back restores every earlier accumulator exactly.
            while (!played.empty()) {
                GomokuSearch::undo(board, played.back().first, played.back().second);
                played.pop_back();
                REQUIRE(sums(board, 32) == before.back());
                before.pop_back();
            }
        }
    }
}

TEST_CASE("gomoku network: files are checked and every shipped network loads", "[gomoku][network]") {
    network::NetworkSet set;
    const auto bytes = search::learning::format_network(random_network(16, 3));
    REQUIRE(set.add_bytes(bytes, "random", Rule::renju).ok());
    CHECK(set.for_rule(Rule::renju) != nullptr);
    CHECK(set.for_rule(Rule::freestyle) == nullptr);
    // A Tak-sized network, and weights beyond what 400 cells can sum in 16 bits, are refused.
    PerspectiveNetwork other(100, 16);
    const auto wrong = set.add_bytes(search::learning::format_network(other), "tak.nnue", std::nullopt);
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().find("100 inputs") != std::string::npos);
    PerspectiveNetwork large = random_network(16, 4);
    large.parameters()[5] = 1.0f;
    const auto overflow = set.add_bytes(search::learning::format_network(large), "large.nnue", std::nullopt);
    REQUIRE_FALSE(overflow.ok());
    CHECK(overflow.error().find("outside") != std::string::npos);
    const auto builtin = network::NetworkSet::builtin();
    for (const auto& file : nets::embedded_files()) {
        if (!file.name.ends_with(".nnue")) continue;
        INFO(file.name);
        const auto rule = parse_rule(file.name.substr(0, file.name.find('.')));
        REQUIRE(rule.ok());
        network::NetworkSet one;
        REQUIRE(one.add_bytes(file.bytes, file.name, *rule).ok());
        CHECK(builtin->for_rule(*rule) != nullptr);
    }
}

TEST_CASE("the shipped fitted weights: one file per rule, read as EvalFile reads it", "[gomoku][eval]") {
    int files = 0;
    for (const auto& file : nets::embedded_files()) {
        if (!file.name.ends_with(".eval")) continue;
        INFO(file.name);
        ++files;
        const auto parsed = parse_fitted_weights(file.bytes, file.name);
        REQUIRE(parsed.ok());
        const auto rule = parse_rule(file.name.substr(0, file.name.find('.')));
        REQUIRE(rule.ok());
        REQUIRE(builtin_fitted_weights(*rule) != nullptr);
        CHECK(builtin_fitted_weights(*rule)->weight == parsed->weight);
    }
    CHECK(files == 3);
    // The weights the engine compiled in before they became files, a few of each rule.
    const auto weight = [](Rule rule, int index) {
        return builtin_fitted_weights(rule)->weight[static_cast<std::size_t>(index)];
    };
    const int last = eval_feature_count - 2;  // opponent_cell_five_flex4
    REQUIRE(eval_feature_name(last) == "opponent_cell_five_flex4");
    CHECK(weight(Rule::freestyle, 0) == -61);
    CHECK(weight(Rule::freestyle, 7) == 16972);
    CHECK(weight(Rule::freestyle, last) == -84);
    CHECK(weight(Rule::standard, 0) == -68);
    CHECK(weight(Rule::standard, last) == 2991);
    CHECK(weight(Rule::renju, 0) == -73);
    CHECK(weight(Rule::renju, last) == -8948);

    // A broken file is refused with its line and reason.
    const auto bad_value = parse_fitted_weights("# comment\nmover_one 5\nmover_two x\n", "bad.eval");
    REQUIRE_FALSE(bad_value.ok());
    CHECK(bad_value.error() == "bad.eval line 3: expected 'name value' with an integer value");
    const auto missing = parse_fitted_weights("mover_one 5\n", "short.eval");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error() == "short.eval: no weight for 'mover_two'");
}

TEST_CASE("gomoku games files round-trip and broken lines are named", "[gomoku][network][learning]") {
    train::GomokuGame game;
    game.variant.rule = Rule::renju;
    State state = start_state(game.variant);
    for (const char* name : {"h8", "h9", "i8"}) {
        const auto move = parse_move(state, name);
        REQUIRE(move.ok());
        game.moves.push_back(*move);
        play(state, *move);
    }
    game.scores = {train::GomokuGame::no_score, -35, 120};
    game.opening_plies = 1;
    game.result = -1;
    CHECK(train::format_game(game) == "renju 15 15 5 -1 1 h8 h9/-35 i8/120");
    const std::string path = scratch().file("gomoku_training_games.txt");
    REQUIRE(train::write_games(path, {game, game}).ok());
    const auto read = train::read_games(path);
    REQUIRE(read.ok());
    REQUIRE(read->size() == 2);
    CHECK(train::format_game((*read)[1]) == train::format_game(game));
    for (const auto& [line, reason] :
         std::vector<std::pair<std::string, std::string>>{{"renju 15 15 5 -1 1 h8 h8", "move 2"},
                                                          {"renju 15 15 5 2 0 h8", "result"},
                                                          {"caro 15 15 5 0 0 h8", "rule"},
                                                          {"renju 15 15 5 0 0 h8/x", "score"},
                                                          {"renju 15 15 5 0 4 h8", "opening plies"},
                                                          {"renju 15", "expected"}}) {
        std::ofstream(path) << "bge-gomoku-games-1\n" << line << "\n";
        const auto broken = train::read_games(path);
        INFO(line);
        REQUIRE_FALSE(broken.ok());
        CHECK(broken.error().find("line 2") != std::string::npos);
        CHECK(broken.error().find(reason) != std::string::npos);
    }
    std::ofstream(path) << "not games\n";
    CHECK_FALSE(train::read_games(path).ok());
}

TEST_CASE("train_gomoku_eval network: a tiny fit lowers the loss and the engine plays with its file",
          "[gomoku][network][learning]") {
    const std::string trainer = BGE_TRAIN_GOMOKU_EVAL_BINARY;
    const std::string games = scratch().file("gomoku_network_games.txt");
    const auto played =
        run_program(trainer, {"selfplay", "--rule", "standard", "--games", "30", "--nodes", "300", "--threads", "2",
                              "--seed", "4", "--out", scratch().file("gomoku_network_games.bin"), "--games-out", games});
    INFO(transcript(played));
    REQUIRE(played.status == 0);
    const auto read = train::read_games(games);
    REQUIRE(read.ok());
    CHECK(read->size() == 30);
    const std::string file = scratch().file("gomoku_tiny.nnue");
    const auto fitted = run_program(trainer, {"network", "--games", games, "--rule", "standard", "--hidden", "16",
                                              "--epochs", "8", "--batch", "32", "--learning-rate", "0.003",
                                              "--validation-every", "5", "--out", file});
    INFO(transcript(fitted));
    REQUIRE(fitted.status == 0);
    REQUIRE(fitted.lines.size() == 11);  // the counts, the losses at the start, 8 epochs, the one kept
    const auto number_after = [](const std::string& line, const std::string& word) {
        const auto at = line.find(word);
        REQUIRE(at != std::string::npos);
        return std::stod(line.substr(at + word.size()));
    };
    const double start = number_after(fitted.lines[1], "network at the start ");
    const double end = number_after(fitted.lines.back(), "validation ");
    CHECK(end < start - 0.01);
    network::NetworkSet set;
    REQUIRE(set.add_file(file, Rule::standard).ok());
    // The weights depend on the seed and --shards, not on the threads that sum the shards.
    std::vector<std::string> bytes;
    for (const char* threads : {"1", "2"}) {
        const std::string sharded = scratch().file(std::string("gomoku_tiny_threads_") + threads + ".nnue");
        const auto run = run_program(trainer, {"network", "--games", games, "--rule", "standard", "--hidden", "16",
                                               "--epochs", "2", "--batch", "32", "--shards", "2", "--threads",
                                               threads, "--out", sharded});
        REQUIRE(run.status == 0);
        bytes.push_back(testing::read_file(sharded));
    }
    CHECK(!bytes[0].empty());
    CHECK(bytes[0] == bytes[1]);
    const auto no_shards = run_program(trainer, {"network", "--games", games, "--rule", "standard", "--shards", "0",
                                                 "--out", scratch().file("gomoku_no_shards.nnue")});
    CHECK(no_shards.status != 0);

    // The engine plays with it (and the trainer's self-play too); a bad file is reported and the
    // built-in networks (or the fitted evaluation) play on.
    const auto engine = run_program(BGE_GOMOKU_BINARY,
                                    {"setoption name Rule value standard", "setoption name Eval value network",
                                     "setoption name NnueFile value " + file, "position startpos moves h8 h9 i8",
                                     "go depth 3"});
    INFO(transcript(engine));
    CHECK(engine.status == 0);
    CHECK(engine.lines.back().rfind("bestmove ", 0) == 0);
    CHECK(engine.errors.empty());
    const auto broken = run_program(BGE_GOMOKU_BINARY,
                                    {"setoption name Eval value network", "setoption name NnueFile value " + games,
                                     "position startpos moves h8", "go depth 2"});
    CHECK(broken.status == 0);
    CHECK(broken.lines.back().rfind("bestmove ", 0) == 0);
    CHECK(broken.errors.find("NnueFile: ") != std::string::npos);
    CHECK(broken.errors.find("not a network file") != std::string::npos);
    const auto selfplay = run_program(trainer, {"selfplay", "--rule", "standard", "--games", "2", "--nodes", "200",
                                                "--network", file, "--out", scratch().file("gomoku_net_play.bin")});
    CHECK(selfplay.status == 0);
    CHECK(selfplay.errors.find("2 games") != std::string::npos);
}

TEST_CASE("gomoku policy: names, files and the features of a move", "[gomoku][policy]") {
    std::set<std::string> names;
    for (int i = 0; i < policy::feature_count(); ++i) names.insert(policy::feature_name(i));
    CHECK(static_cast<int>(names.size()) == policy::feature_count());
    CHECK(names.count("cell:flex3+two:none") == 1);
    CHECK(names.count("threats:four:flex3") == 1);
    // Black to move with an open three e8-g8 on row 8 and White's stone on h9: d8 and h8 make an
    // open four for Black; one feature in each group.
    SearchBoard board(testing_board());
    std::vector<std::uint16_t> features;
    policy::move_features(board, Move::at(3, 7).square, features);
    REQUIRE(features.size() == 3);
    CHECK(policy::feature_name(features[1]) == "threats:flex4:none");
    CHECK(policy::feature_name(features[2]) == "last:5");  // j10 is six columns away
    // A file round-trips; a bad one names its line.
    std::vector<float> weights(static_cast<std::size_t>(policy::feature_count()), 0.0f);
    weights[features[1]] = 2.5f;
    const policy::Policy made(weights);
    const auto again = policy::Policy::parse(made.format("test"));
    REQUIRE(again.ok());
    CHECK(again->logit(board, Move::at(3, 7).square) == Approx(2.5));
    const auto bad = policy::Policy::parse("bge-gomoku-policy 1\ncell:none:none 1\nbogus 2\n");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error() == "policy line 3: no feature 'bogus'");
    CHECK_FALSE(policy::Policy::parse("bge-tak-policy 1\n").ok());
    for (const auto& file : nets::embedded_files()) {
        if (!file.name.ends_with(".policy")) continue;
        INFO(file.name);
        CHECK(policy::Policy::parse(file.bytes).ok());
        const auto rule = parse_rule(file.name.substr(0, file.name.find('.')));
        REQUIRE(rule.ok());
        CHECK(policy::builtin_policy(*rule) != nullptr);
    }
}

TEST_CASE("train_gomoku_eval policy beats the uniform policy on held-out games, and the engine orders by it",
          "[gomoku][policy][learning]") {
    const std::string trainer = BGE_TRAIN_GOMOKU_EVAL_BINARY;
    const std::string games = scratch().file("gomoku_policy_games.txt");
    REQUIRE(run_program(trainer, {"selfplay", "--rule", "freestyle", "--games", "30", "--nodes", "300", "--threads",
                                  "2", "--seed", "6", "--out", scratch().file("gomoku_policy_games.bin"),
                                  "--games-out", games})
                .status == 0);
    const std::string file = scratch().file("gomoku_tiny.policy");
    const auto fitted = run_program(trainer, {"policy", "--games", games, "--epochs", "4", "--batch", "32",
                                              "--validation-every", "5", "--out", file});
    INFO(transcript(fitted));
    REQUIRE(fitted.status == 0);
    REQUIRE(fitted.lines.size() == 6);
    const auto number_after = [](const std::string& line, const std::string& word) {
        const auto at = line.find(word);
        REQUIRE(at != std::string::npos);
        return std::stod(line.substr(at + word.size()));
    };
    const double uniform = number_after(fitted.lines[1], "uniform policy loss ");
    CHECK(number_after(fitted.lines.back(), "validation ") < uniform - 0.1);
    REQUIRE(policy::Policy::load(file).ok());
    const auto engine = run_program(BGE_GOMOKU_BINARY, {"setoption name MovePolicy value true",
                                                        "setoption name PolicyFile value " + file,
                                                        "position startpos moves h8 h9 i8", "go depth 4"});
    INFO(transcript(engine));
    CHECK(engine.lines.back().rfind("bestmove ", 0) == 0);
    CHECK(engine.errors.empty());
    const auto broken = run_program(BGE_GOMOKU_BINARY, {"setoption name MovePolicy value true",
                                                        "setoption name PolicyFile value " + games,
                                                        "position startpos moves h8", "go depth 2"});
    CHECK(broken.lines.back().rfind("bestmove ", 0) == 0);
    CHECK(broken.errors.find("PolicyFile: ") != std::string::npos);
}

TEST_CASE("train_gomoku_eval labels: a teacher's analysis of match records becomes a games file to fit",
          "[gomoku][network][learning][teacher]") {
    // The chain Rapfi teaches through, with our own engine as the teacher: a match's records,
    // `arbiter analyse` with a fixed limit, `labels`, then a fit on the teacher's scores alone.
    const std::string records = scratch().file("teacher_games.txt");
    const auto match = run_arbiter({"-game", "gomoku", "-rule", "standard", "-engine", std::string("cmd=") + BGE_GOMOKU_BINARY,
                                    "name=a", "-engine", std::string("cmd=") + BGE_GOMOKU_BINARY, "name=b",
                                    "option.Player=random", "-each", "nodes=200", "-games", "2", "-pgnout", records});
    INFO(transcript(match));
    REQUIRE(match.status == 0);
    const std::string labels = scratch().file("teacher_labels.jsonl");
    const auto analysed = run_arbiter({"analyse", "-game", "gomoku", "-rule", "standard", "-engine",
                                       std::string("cmd=") + BGE_GOMOKU_BINARY, "name=teacher", "nodes=300", "-data",
                                       labels, records});
    INFO(transcript(analysed));
    REQUIRE(analysed.status == 0);
    // A line from a game of another start and one of an unknown variant are left out, with why.
    {
        std::ofstream extra(labels, std::ios::app);
        extra << R"({"file":"x.txt","game":9,"ply":0,"variant":"15x15, standard, 5 in a row",)"
              << R"("position":"15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 o","side":"white","score_cp":10,"mate":null,)"
              << R"("depth":3,"best":"h9","pv":[],"played":"h9","result":"*","outcome":"none","engine":"t","limit":"nodes=1"})"
              << "\n"
              << R"({"file":"y.txt","game":1,"ply":0,"variant":"15x15, gomoku, 5 in a row",)"
              << R"("position":"15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x","side":"black","score_cp":0,"mate":null,)"
              << R"("depth":3,"best":"h8","pv":[],"played":"h8","result":"*","outcome":"none","engine":"t","limit":"nodes=1"})"
              << "\n";
    }
    const std::string trainer = BGE_TRAIN_GOMOKU_EVAL_BINARY;
    const std::string games = scratch().file("teacher_games_file.txt");
    const auto converted = run_program(trainer, {"labels", "--data", labels, "--out", games});
    INFO(transcript(converted));
    REQUIRE(converted.status == 0);
    CHECK(converted.errors.find("x.txt game 9: it does not start from the empty board") != std::string::npos);
    CHECK(converted.errors.find("y.txt game 1: its variant '15x15, gomoku, 5 in a row'") != std::string::npos);
    const auto read = train::read_games(games);
    REQUIRE(read.ok());
    REQUIRE(read->size() == 2);
    // Every move of the records, each scored with the teacher's score for its mover: with the
    // logistic scale of 200 (our engines' and Rapfi's) 200 logit(p) gives back the centi-units,
    // and a mate is +-1842 (p clamped to 1e-4).
    std::map<std::pair<int, int>, nlohmann::json> by_place;  // (game, ply) -> the teacher's line
    {
        std::ifstream lines(labels);
        for (std::string line; std::getline(lines, line);) {
            const auto json = nlohmann::json::parse(line);
            if (json["file"].get<std::string>() == std::filesystem::absolute(records).string())
                by_place[{json["game"].get<int>(), json["ply"].get<int>()}] = json;
        }
    }
    int checked = 0;
    for (std::size_t g = 0; g < read->size(); ++g) {
        const auto& game = (*read)[g];
        CHECK(game.variant.rule == Rule::standard);
        CHECK(game.result != 0);
        for (std::size_t ply = 0; ply < game.scores.size(); ++ply) {
            const auto& label = by_place.at({static_cast<int>(g) + 1, static_cast<int>(ply)});
            if (label["score_cp"].is_null()) {
                CHECK(game.scores[ply] == train::GomokuGame::no_score);
            } else if (!label["mate"].is_null()) {
                CHECK(game.scores[ply] == (label["mate"].get<int>() > 0 ? 1842 : -1842));
            } else {
                CHECK(std::abs(game.scores[ply] - std::clamp(label["score_cp"].get<int>(), -1842, 1842)) <= 1);
            }
            ++checked;
        }
    }
    CHECK(checked > 20);
    const auto fitted = run_program(trainer, {"network", "--games", games, "--rule", "standard", "--hidden", "16",
                                              "--epochs", "2", "--batch", "16", "--score-weight", "1",
                                              "--validation-every", "2", "--out", scratch().file("teacher.nnue")});
    INFO(transcript(fitted));
    CHECK(fitted.status == 0);

    // The teacher's moves are kept by ply for the policy fit, each the label's `best`.
    const auto labelled = train::read_labelled_games({labels});
    REQUIRE(labelled.ok());
    const auto with_best = train::gomoku_games_from_labels(*labelled, train::TeacherScale{});
    REQUIRE(with_best.games.size() == 2);
    int bests = 0;
    for (std::size_t g = 0; g < with_best.games.size(); ++g) {
        const auto& game = with_best.games[g];
        REQUIRE(game.teacher_best.size() == game.moves.size());
        State state = start_state(game.variant);
        for (std::size_t ply = 0; ply < game.moves.size(); ++ply) {
            const auto best = by_place.at({static_cast<int>(g) + 1, static_cast<int>(ply)})["best"].get<std::string>();
            REQUIRE(game.teacher_best[ply].has_value());
            CHECK(format_move(state, *game.teacher_best[ply]) == best);
            play(state, game.moves[ply]);
            ++bests;
        }
    }
    CHECK(bests == checked);
    // The policy fitted to them, from the shipped policy: one game trains, one validates.
    const std::string start = scratch().file("teacher_start.policy");
    std::ofstream(start) << policy::builtin_policy(Rule::standard)->format("the shipped standard policy");
    const std::string refitted = scratch().file("teacher.policy");
    const auto policy_fit = run_program(trainer, {"policy", "--labels", labels, "--rule", "standard", "--init", start,
                                                  "--epochs", "2", "--batch", "16", "--validation-every", "2", "--out",
                                                  refitted});
    INFO(transcript(policy_fit));
    REQUIRE(policy_fit.status == 0);
    auto printed = [&](const std::string& text) {
        return std::any_of(policy_fit.lines.begin(), policy_fit.lines.end(),
                           [&](const std::string& line) { return line.find(text) != std::string::npos; });
    };
    CHECK(printed("0 self-play and 2 teacher games"));
    CHECK(printed("starting policy loss"));
    const auto loaded = policy::Policy::load(refitted);
    REQUIRE(loaded.ok());
    const auto& before = policy::builtin_policy(Rule::standard)->weights();
    REQUIRE(loaded->weights().size() == before.size());
    CHECK(loaded->weights() != before);  // it moved from where it started
    // A starting policy that is not one names itself.
    std::ofstream(scratch().file("broken.policy")) << "not a policy\n";
    const auto broken = run_program(trainer, {"policy", "--labels", labels, "--rule", "standard", "--init",
                                              scratch().file("broken.policy"), "--out", scratch().file("never.policy")});
    CHECK(broken.status == 1);
    CHECK(broken.errors.find("--init " + scratch().file("broken.policy")) != std::string::npos);
}
