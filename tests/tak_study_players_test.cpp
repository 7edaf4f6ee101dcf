// The Tak study's agents (weighted-random, sarsa, mcts-study) through the Player interface, the
// study's score, the sarsa weights file and the shipped one (engines/tak/nets/sarsa_weights.txt),
// and the engine's protocol with them.

#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include "arbiter_run.hpp"
#include "core/tak/ptn_file.hpp"
#include "core/tak/scoring.hpp"
#include "engine_session.hpp"
#include "engines/tak/nets/embedded.hpp"
#include "engines/tak/players.hpp"
#include "engines/tak/sarsa_features.hpp"
#include "engines/tak/study_rollouts.hpp"
#include "protocol/engine_spec.hpp"
#include "protocol/text.hpp"
#include "search/weighted_random.hpp"
#include "tak_test_helpers.hpp"
#include "weights_file_checks.hpp"

using namespace bge;
using namespace bge::tak;
using bge::tak::testing::tps;
using bge::testing::EngineSession;
using bge::testing::words_of;

namespace {

const std::string tak_binary = BGE_TAK_BINARY;

struct PlayerBench {
    protocol::OptionRegistry options;
    std::vector<protocol::PlayerEntry<Tak>> entries;
    PlayerBench() {
        add_player_options(options);
        entries = tak_players();
    }
    void set(std::string_view name, std::string_view value) { REQUIRE(options.set(name, value)); }
    std::unique_ptr<search::Player<Tak>> make(const std::string& name) {
        for (const auto& entry : entries)
            if (entry.name == name) return entry.make(options);
        FAIL("no player " << name);
        return nullptr;
    }
};

search::SearchResult<Tak> ask(search::Player<Tak>& player, const State& position,
                              const std::vector<std::uint64_t>& history,
                              std::vector<search::Report<Tak>>* reports = nullptr) {
    search::SearchRequest<Tak> request;
    request.root = position;
    request.history = history;
    request.start = search::Clock::now();
    std::atomic<bool> stop{false};
    search::SearchControl<Tak> control;
    control.stop = &stop;
    if (reports) control.report = [reports](const search::Report<Tak>& report) { reports->push_back(report); };
    return player.search(request, control);
}

// Plays one game between two players and returns the final position; every move must be legal.
State play_game(search::Player<Tak>& white, search::Player<Tak>& black, int size, int max_plies = 600) {
    Variant variant;
    variant.size = size;
    State state = start_state(variant);
    std::vector<std::uint64_t> history{state.hash};
    white.new_game();
    black.new_game();
    for (int ply = 0; ply < max_plies && !outcome(state).is_over(); ++ply) {
        auto& player = state.side_to_move() == Side::first ? white : black;
        const auto result = ask(player, state, history);
        INFO(player.name() << " on " << format_tps(state));
        REQUIRE(result.has_move);
        REQUIRE(is_legal(state, result.best));
        play(state, result.best);
        history.push_back(state.hash);
    }
    return state;
}

bool is_bestmove(const std::string& line) { return line.rfind("bestmove ", 0) == 0; }

}  // namespace

TEST_CASE("study players: only legal moves through whole games", "[study]") {
    PlayerBench bench;
    bench.set("MctsIterations", "40");
    bench.set("RolloutRuns", "2");
    for (const std::string policy : {"random", "weighted", "sarsa"}) {
        bench.set("RolloutPolicy", policy);
        for (int size : {3, 4, 5}) {
            auto mcts = bench.make("mcts-study");
            auto weighted = bench.make("weighted-random");
            auto sarsa = bench.make("sarsa");
            auto random = bench.make("random");
            INFO("size " << size << ", rollouts " << policy);
            play_game(*mcts, *weighted, size);
            play_game(*sarsa, *mcts, size);
            play_game(*weighted, *sarsa, size);
            play_game(*sarsa, *random, size);
        }
    }
    // Larger boards, fewer games: the players do not depend on the size.
    auto weighted = bench.make("weighted-random");
    auto sarsa = bench.make("sarsa");
    for (int size : {6, 7, 8}) play_game(*weighted, *sarsa, size);
}

TEST_CASE("study players: each game is new, and a rerun repeats them", "[study]") {
    PlayerBench bench;
    bench.set("MctsIterations", "30");
    bench.set("Seed", "42");
    for (const std::string name : {"random", "weighted-random", "sarsa", "mcts-study"}) {
        INFO(name);
        auto games = [&] {
            auto white = bench.make(name);
            auto black = bench.make("weighted-random");
            std::vector<std::string> finals;
            for (int i = 0; i < 3; ++i) finals.push_back(format_tps(play_game(*white, *black, 4)));
            return finals;
        };
        const auto first = games();
        const auto second = games();
        CHECK(first == second);
        CHECK(first[0] != first[1]);
        CHECK(first[1] != first[2]);
    }
    // Another seed, other games.
    auto a = bench.make("random");
    auto b = bench.make("random");
    const std::string with_42 = format_tps(play_game(*a, *b, 5));
    bench.set("Seed", "43");
    CHECK(format_tps(play_game(*a, *b, 5)) != with_42);
}

TEST_CASE("weighted-random: placement frequency matches PlaceProbability", "[study]") {
    // White to move with 16 placements... and spreads of its stacks.
    const State position = tps("x4/x,1,2,x/x,21,1,x/x4 1 4");
    MoveList<Tak> moves;
    generate_moves(position, moves);
    int placements = 0;
    for (const auto& move : moves) placements += move.is_placement();
    REQUIRE(placements > 0);
    REQUIRE(placements < static_cast<int>(moves.size()));

    auto is_placement = [](const Move& move) { return move.is_placement(); };
    for (int percent : {0, 10, 30, 50, 90, 100}) {
        const double p = percent / 100.0;
        Random random(static_cast<std::uint64_t>(percent) + 5);
        constexpr int draws = 20000;
        int placed = 0;
        std::map<std::uint16_t, int> counts;
        for (int i = 0; i < draws; ++i) {
            const Move move = search::choose_by_kind<Tak>(moves, is_placement, p, random);
            placed += move.is_placement();
            ++counts[move.bits];
        }
        // Binomial: within 5 standard deviations (a false alarm about once in 3.5 million runs).
        const double sigma = std::sqrt(draws * p * (1 - p));
        INFO("PlaceProbability " << percent);
        CHECK(std::abs(placed - draws * p) <= 5 * sigma + 1e-9);
        // Uniform within each kind: every move of a kind that is chosen at all shows up about
        // equally often.
        for (const auto& move : moves) {
            const double kind_share = move.is_placement() ? p : 1 - p;
            const double kind_size = move.is_placement() ? placements : static_cast<double>(moves.size() - placements);
            const double expected = draws * kind_share / kind_size;
            const double spread = 5 * std::sqrt(expected) + 1e-9;
            CHECK(std::abs(counts[move.bits] - expected) <= spread);
        }
    }

    // Through the player, with the option.
    PlayerBench bench;
    bench.set("PlaceProbability", "20");
    auto player = bench.make("weighted-random");
    player->new_game();
    constexpr int searches = 4000;
    int placed = 0;
    for (int i = 0; i < searches; ++i) placed += ask(*player, position, {position.hash}).best.is_placement();
    CHECK(std::abs(placed - searches * 0.2) <= 5 * std::sqrt(searches * 0.2 * 0.8));

    // Only one kind legal (the opening places flats only): that kind, whatever the option says.
    bench.set("PlaceProbability", "0");
    const State start = start_state(Variant{5, 0, false});
    for (int i = 0; i < 50; ++i) CHECK(ask(*player, start, {start.hash}).best.is_placement());
    // And with PlaceProbability 0 a spread whenever one is legal.
    for (int i = 0; i < 50; ++i) CHECK_FALSE(ask(*player, position, {position.hash}).best.is_placement());
}

TEST_CASE("mcts-study finds a road in one", "[study][mcts-study]") {
    // White has a4 b4 c4; d4 completes the road. Black threatens nothing.
    const State position = tps("1,1,1,x/x4/x,2,2,x/2,x3 1 4");
    PlayerBench bench;
    bench.set("MctsIterations", "400");
    for (const std::string policy : {"random", "weighted", "sarsa"}) {
        bench.set("RolloutPolicy", policy);
        auto player = bench.make("mcts-study");
        player->new_game();
        std::vector<search::Report<Tak>> reports;
        const auto result = ask(*player, position, {position.hash}, &reports);
        INFO("rollouts " << policy);
        REQUIRE(result.has_move);
        CHECK(format_move(result.best) == "d4");
        CHECK(result.nodes == 400);
        REQUIRE_FALSE(reports.empty());
        CHECK(reports.back().nodes == 400);
        CHECK(reports.back().pv.front() == result.best);
        CHECK(reports.back().score > 500);  // a win rate near 1
    }
}

TEST_CASE("study score: the winner's board area plus unplayed pieces", "[study][score]") {
    // White's road up the a file on 3x3: 3 White pieces played, 7 left: 9 + 7.
    const State road = tps("1,x2/1,2,x/1,2,x 2 3");
    REQUIRE(outcome(road) == Outcome::win(Side::first, "road"));
    CHECK(study_score(road, outcome(road)) == 16);
    CHECK(study_score_text(road, outcome(road)) == "W+16");

    // A full 3x3 board, no road: Black 4 flats to White's 2; Black played 5 pieces, 5 left.
    const State flats = tps("1,2,1S/2,2S,1/1S,2,2 2 5");
    REQUIRE(outcome(flats) == Outcome::win(Side::second, "flats"));
    CHECK(study_score(flats, outcome(flats)) == -14);
    CHECK(study_score_text(flats, outcome(flats)) == "B+14");

    // The same board with 2 flats of komi for White (HalfKomi -4): a draw scores 0.
    const State drawn = tps("1,2,1S/2,2S,1/1S,2,2 2 5", -4);
    REQUIRE(outcome(drawn).kind == OutcomeKind::draw);
    CHECK(study_score(drawn, outcome(drawn)) == 0);
    CHECK(study_score_text(drawn, outcome(drawn)) == "0");

    // Black's road on 5x5 with the capstone still in hand: 25 + 16 stones + 1 capstone.
    const State black_road = tps("x5/2,2,2,2,2/1,1,1,1,x/x5/x5 1 6");
    REQUIRE(outcome(black_road) == Outcome::win(Side::second, "road"));
    CHECK(study_score(black_road, outcome(black_road)) == -(25 + 16 + 1));

    // A game still going, and a win the referee gave (time forfeit): the same formula.
    const State going = tps("x5/x5/x2,1,x2/x5/x4,2 1 2");
    CHECK(study_score(going, outcome(going)) == 0);
    CHECK(study_score(going, Outcome::win(Side::first, "time forfeit")) == 25 + 20 + 1);  // c3 came from White
}

TEST_CASE("sarsa weights: the file format round-trips and bad files are refused", "[study][sarsa]") {
    SarsaWeights weights;
    for (std::size_t i = 0; i < weights.weights.size(); ++i) weights.weights[i] = 0.1 * static_cast<double>(i) - 0.7;
    weights.weights[3] = 1.0 / 3;
    const std::string text = format_sarsa_weights(weights, "a test\nsecond line");
    auto parsed = parse_sarsa_weights(text);
    REQUIRE(parsed);
    CHECK(parsed->weights == weights.weights);  // exact: 17 significant digits
    CHECK(parse_sarsa_weights(format_sarsa_weights(builtin_sarsa_weights(), ""))->weights ==
          builtin_sarsa_weights().weights);

    auto refused = [](const std::string& bad, const std::string& mentions) {
        const auto result = parse_sarsa_weights(bad);
        INFO(bad);
        REQUIRE_FALSE(result);
        CHECK_THAT(result.error(), Catch::Contains(mentions));
    };
    refused("", "no 'bge-tak-sarsa-weights 1' line");
    refused("bge-tak-sarsa-weights 2\n", "expected 'bge-tak-sarsa-weights 1'");
    refused("bge-tak-sarsa-weights 1\nbias 1\nwin x\n", "line 3: feature 'win' needs a finite number, got 'x'");
    refused("bge-tak-sarsa-weights 1\nbias 1\nloss 1\n", "line 3: expected feature 'win', got 'loss'");
    refused("bge-tak-sarsa-weights 1\nbias nan\n", "finite");
    refused("bge-tak-sarsa-weights 1\nbias 1\n", "only 1 of the 18 features (next: 'win')");
    refused(text + "bias 1\n", "more lines than the 18 features");
    CHECK_FALSE(load_sarsa_weights("/nonexistent/weights.txt"));
}

TEST_CASE("sarsa weights: the built-in set is nets/sarsa_weights.txt, byte for byte what train_tak_sarsa writes",
          "[study][sarsa][nets]") {
    const std::string_view shipped = find_embedded_file(nets::embedded_files(), builtin_sarsa_file);
    REQUIRE_FALSE(shipped.empty());
    const auto parsed = parse_sarsa_weights(shipped);
    REQUIRE(parsed);
    CHECK(parsed->weights == builtin_sarsa_weights().weights);
    // Weights of the table compiled in before the file (engines/tak/sarsa_weights.cpp).
    CHECK(builtin_sarsa_weights().weights.front() == -0.064092454281864525);  // bias
    CHECK(builtin_sarsa_weights().weights.back() == -0.043108375505617226);   // spread
    const auto comment = bge::testing::leading_comment_lines(shipped);
    REQUIRE(comment.size() == 3);
    CHECK(format_sarsa_weights(*parsed, bge::testing::joined_lines(comment)) == shipped);
}

TEST_CASE("protocol: a copy of the shipped sarsa weights plays as the built-in set, a broken one is refused",
          "[study][protocol][sarsa][nets]") {
    using namespace bge::testing;
    const std::string shipped(find_embedded_file(nets::embedded_files(), builtin_sarsa_file));
    const std::string copy = scratch_copy("sarsa_weights_copy.txt", shipped);
    const std::string broken =
        scratch_copy("sarsa_weights_broken.txt", with_replaced(shipped, "win 0.43378696357410401", "win 0.43.37"));
    SarsaWeights zero;
    const std::string other = scratch_copy("sarsa_weights_zero.txt", format_sarsa_weights(zero, ""));
    check_weights_option({tak_binary, "SarsaWeights", "tak: SarsaWeights", {"setoption name Player value sarsa"}, "bench"},
                         copy, other, broken,
                         "tak: SarsaWeights: '" + broken +
                             "': line 6: feature 'win' needs a finite number, got '0.43.37'; using the built-in weights");
}

TEST_CASE("sarsa features: from the mover's view, on the position after the move", "[study][sarsa]") {
    // White places d4 and wins by road on 4x4.
    State state = tps("1,1,1,x/x4/x,2,2,x/2,x3 1 4");
    const Move win = parse_move(state, "d4").value();
    const auto phi = TakSarsa::features(state, win);
    CHECK(format_tps(state) == "1,1,1,x/x4/x,2,2,x/2,x3 1 4");  // restored
    CHECK(phi[0] == 1.0);
    CHECK(phi[1] == 1.0);                    // win
    CHECK(phi[2] == 0.0);                    // loss
    CHECK(phi[3] == Approx((4 - 3) / 4.0));  // flat lead
    CHECK(phi[5] == 1.0);                    // own span 4/4
    CHECK(phi[6] == Approx(0.5));            // Black's widest group: b2 c2
    CHECK(phi[14] == 1.0);                   // a flat placement
    CHECK(phi[17] == 0.0);
    // Black's view of a quiet move: White can still place d4, a threat against Black.
    const State black_to_move = tps("1,1,1,x/x4/x,2,2,x/2,x3 2 4");
    State copy = black_to_move;
    const auto quiet = TakSarsa::features(copy, parse_move(copy, "a1>").value());
    CHECK(quiet[9] == 1.0);   // their threat
    CHECK(quiet[17] == 1.0);  // a spread
    CHECK(quiet[3] == Approx((3 - 3) / 4.0));
}

TEST_CASE("sarsa player: plays the road in one and learns when asked", "[study][sarsa]") {
    PlayerBench bench;
    bench.set("SarsaEpsilon", "0");
    auto player = bench.make("sarsa");
    player->new_game();
    const State position = tps("1,1,1,x/x4/x,2,2,x/2,x3 1 4");
    std::vector<search::Report<Tak>> reports;
    const auto result = ask(*player, position, {position.hash}, &reports);
    REQUIRE(result.has_move);
    REQUIRE(reports.size() == 1);
    CHECK(reports[0].pv == std::vector<Move>{result.best});
    // With the shipped weights a win is worth more than anything else on this board.
    CHECK(format_move(result.best) == "d4");

    // A weights file that cannot be read: the built-in weights, and the game goes on.
    bench.set("SarsaWeights", "/nonexistent/weights.txt");
    CHECK(format_move(ask(*player, position, {position.hash}).best) == "d4");
}

TEST_CASE("sarsa player: SarsaLearn applies the study's updates during play", "[study][sarsa]") {
    PlayerBench bench;
    bench.set("SarsaEpsilon", "0");
    const State road_in_one = tps("1,1,1,x/x4/x,2,2,x/2,x3 1 4");
    auto first_score = [&](search::Player<Tak>& player) {
        std::vector<search::Report<Tak>> reports;
        ask(player, road_in_one, {road_in_one.hash}, &reports);
        REQUIRE(reports.size() == 1);
        return reports[0].score;
    };
    // Without learning the player never changes.
    auto fixed = bench.make("sarsa");
    const int before = first_score(*fixed);
    CHECK(first_score(*fixed) == before);
    CHECK(before < 798);

    // With learning, playing d4 ends the game: its pair is updated towards +1 at once (alpha
    // 0.99), so Q(d4) ends near 1, shown as the largest score (a win rate of 99 %).
    bench.set("SarsaLearn", "true");
    auto learner = bench.make("sarsa");
    CHECK(first_score(*learner) == before);
    CHECK(first_score(*learner) == 798);

    // A non-terminal update happens only when the position follows from the player's last move.
    auto chain = bench.make("sarsa");
    const State start = tps("x4/x4/x4/x,1,2,x 1 2");
    ask(*chain, start, {start.hash});
    const auto unrelated = tps("x4/x4/x,2,x2/x,1,2,x 1 3");
    std::vector<search::Report<Tak>> reports;
    ask(*chain, unrelated, {start.hash, unrelated.hash}, &reports);  // does not follow: no update
    ask(*chain, start, {start.hash}, &reports);
    REQUIRE(reports.size() == 2);
    // Nothing learned yet: the same position scores as a fresh player sees it.
    std::vector<search::Report<Tak>> fresh;
    ask(*bench.make("sarsa"), start, {start.hash}, &fresh);
    CHECK(reports[1].score == fresh[0].score);
    // Now a position that does follow from the last move (Black answered): the pending pair is
    // updated.
    State after = start;
    play(after, reports[1].pv[0]);
    State answered = after;
    MoveList<Tak> replies;
    generate_moves(answered, replies);
    play(answered, replies[0]);
    ask(*chain, answered, {start.hash, after.hash, answered.hash});
    std::vector<search::Report<Tak>> later;
    ask(*chain, start, {start.hash}, &later);
    CHECK(later[0].score != fresh[0].score);
}

// ---------------------------------------------------------------------------------------------
// The engine binary

TEST_CASE("protocol: the study's players and options in the handshake", "[study][protocol]") {
    EngineSession engine(tak_binary);
    engine.send("tei");
    const auto lines = engine.until([](const std::string& line) { return line == "teiok"; });
    auto declared = [&](const std::string& line) { return std::find(lines.begin(), lines.end(), line) != lines.end(); };
    CHECK(declared("option name PlaceProbability type spin default 50 min 0 max 100"));
    CHECK(declared("option name SarsaEpsilon type spin default 100 min 0 max 1000"));
    CHECK(declared("option name SarsaAlpha type spin default 990 min 0 max 1000"));
    CHECK(declared("option name SarsaGamma type spin default 990 min 0 max 1000"));
    CHECK(declared("option name SarsaLearn type check default false"));
    CHECK(declared("option name SarsaWeights type string default <empty>"));
    CHECK(declared("option name MctsEpsilon type spin default 100 min 0 max 1000"));
    CHECK(declared("option name MctsDepth type spin default 10 min 1 max 1000"));
    CHECK(declared("option name MctsIterations type spin default 1000 min 1 max 1000000000"));
    CHECK(declared("option name RolloutRuns type spin default 4 min 1 max 256"));
    CHECK(declared("option name RolloutPolicy type combo default random var random var weighted var sarsa"));
    CHECK(declared("option name RolloutThreads type spin default 2 min 1 max 64"));
    bool players_listed = false;
    for (const auto& line : lines)
        if (line.rfind("option name Player type combo", 0) == 0) {
            players_listed = true;
            for (const std::string name : {"random", "weighted-random", "sarsa", "mcts-study"})
                CHECK_THAT(line, Catch::Contains(" var " + name));
        }
    CHECK(players_listed);
    engine.expect_error("setoption name MctsEpsilon value 1001", "MctsEpsilon");
    engine.expect_error("setoption name RolloutPolicy value greedy", "random, weighted, sarsa");
    engine.finish();
}

TEST_CASE("protocol: mcts-study answers go movetime with a legal move", "[study][protocol]") {
    EngineSession engine(tak_binary);
    engine.send("tei");
    engine.until([](const std::string& line) { return line == "teiok"; });
    engine.send("setoption name Player value mcts-study");
    engine.send("setoption name MctsIterations value 1000000");  // the time limit stops it
    engine.send("teinewgame 5");
    engine.send("position startpos moves a1 e5 c3");
    engine.send("go movetime 200");
    const auto lines = engine.until(is_bestmove);
    const auto words = words_of(lines.back());
    REQUIRE(words.size() == 2);
    State position = start_state(Variant{5, 0, false});
    for (const char* move : {"a1", "e5", "c3"}) play(position, parse_move(position, move).value());
    CHECK(parse_move(position, words[1]));
    REQUIRE(lines.size() >= 2);
    const auto info = words_of(lines[lines.size() - 2]);
    REQUIRE(info.size() >= 14);
    CHECK(info[0] == "info");
    // A score in centipawns. It may be 0: under load a few hundred playouts can split evenly.
    CHECK(info[5] == "score");
    CHECK(info[6] == "cp");
    CHECK(protocol::parse_integer(info[7], -100000, 100000, "score"));
    CHECK(std::stoll(info[9]) > 10);     // nodes: iterations
    CHECK(std::stoll(info[13]) < 2000);  // time: stopped by movetime, not by the iterations
    CHECK(info[14] == "pv");
    CHECK(info[15] == words[1]);

    // go nodes: exactly that many iterations.
    engine.send("go nodes 50");
    const auto counted = engine.until(is_bestmove);
    const auto last = words_of(counted[counted.size() - 2]);
    CHECK(last[8] == "nodes");
    CHECK(last[9] == "50");
    engine.finish();
}

TEST_CASE("protocol: query score gives the study's score from White's side", "[study][protocol][score]") {
    EngineSession engine(tak_binary);
    engine.send("ugi");
    engine.until([](const std::string& line) { return line == "ugiok"; });
    engine.send("uginewgame");
    engine.send("position fen 1,x2/1,2,x/1,2,x 2 3");
    engine.send("query score");
    CHECK(engine.next() == "response 16");
    engine.send("query result");
    CHECK(engine.next() == "response p1win");  // unchanged
    engine.send("position fen 1,2,1S/2,2S,1/1S,2,2 2 5");
    engine.send("query score");
    CHECK(engine.next() == "response -14");
    engine.send("position startpos");
    engine.send("query score");
    CHECK(engine.next() == "response none");
    engine.expect_error("query scores", "p1turn, gameover, result, score");
    engine.finish();
}

TEST_CASE("protocol: a bad SarsaWeights file falls back to the built-in weights", "[study][protocol][sarsa]") {
    const auto path = std::filesystem::temp_directory_path() / "bge_study_weights_test.txt";
    {
        std::ofstream file(path);
        file << format_sarsa_weights(builtin_sarsa_weights(), "test copy");
    }
    EngineSession engine(tak_binary);
    engine.send("tei");
    engine.until([](const std::string& line) { return line == "teiok"; });
    engine.send("setoption name Player value sarsa");
    engine.send("setoption name SarsaWeights value " + path.string());
    engine.send("teinewgame 4");
    engine.send("position tps 1,1,1,x/x4/x,2,2,x/2,x3 1 4");
    engine.send("setoption name SarsaEpsilon value 0");
    engine.send("go");
    CHECK(engine.until(is_bestmove).back() == "bestmove d4");
    // Nothing on stdout for the bad file (stderr says why); the player goes on with the built-in set.
    engine.send("setoption name SarsaWeights value /nonexistent/weights.txt");
    CHECK(engine.sync().empty());
    engine.send("go");
    CHECK(engine.until(is_bestmove).back() == "bestmove d4");
    engine.finish();
    std::filesystem::remove(path);
}

TEST_CASE("arbiter: Tak records carry the study's score", "[study][score][arbiter]") {
    const std::string records = bge::testing::scratch().file("study_score.ptn");
    const auto run =
        bge::testing::run_arbiter({"-size", "3", "-engine", "cmd=" + tak_binary, "name=w",
                                   "option.Player=weighted-random", "-engine", "cmd=" + tak_binary, "name=r",
                                   "option.Player=random", "-each", "nodes=1", "-rounds", "4", "-pgnout", records});
    INFO(bge::testing::transcript(run));
    REQUIRE(run.status == 0);
    auto games = parse_ptn_games(bge::testing::read_file(records));
    REQUIRE(games);
    REQUIRE(games->size() == 8);
    for (const auto& game : *games) {
        State position = game.start;
        for (const auto& move : game.moves) play(position, move);
        const Outcome end = outcome(position);
        REQUIRE(end.is_over());  // nothing but the rules ends these games
        CHECK(game.tag("StudyScore") == std::optional<std::string>(study_score_text(position, end)));
    }
}
