// The arbiter: time-control parsing and clocks, then whole matches run through the real binary
// with real engine processes (the tak engine and the fake engines in tests/fixtures).

#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/tak/notation.hpp"
#include "core/tak/ptn_file.hpp"
#include "protocol/engine_process.hpp"
#include "tools/arbiter/command_line.hpp"
#include "tools/arbiter/game_runner.hpp"
#include "tools/arbiter/engine_player.hpp"
#include "tools/arbiter/time_control.hpp"
#include "protocol/info.hpp"
#include "arbiter_run.hpp"

using namespace bge;
using namespace bge::arbiter;
namespace fs = std::filesystem;

namespace {

using bge::testing::ArbiterRun;
using bge::testing::read_file;
using bge::testing::run_arbiter;
using bge::testing::scratch;
using bge::testing::transcript;

const std::string tak_binary = BGE_TAK_BINARY;
const std::string fixtures = BGE_TEST_FIXTURES_DIR;

// Two tak engines, one playing randomly, at a fixed node count on 5x5.
std::vector<std::string> alphabeta_vs_random(const std::string& record_file, int rounds) {
    return {"-game",
            "tak",
            "-size",
            "5",
            "-engine",
            "cmd=" + tak_binary,
            "name=ab",
            "-engine",
            "cmd=" + tak_binary,
            "name=rnd",
            "option.Player=random",
            "-each",
            "nodes=2000",
            "stderr=/dev/null",
            "option.Hash=4",
            "-rounds",
            std::to_string(rounds),
            "-games",
            "2",
            "-pgnout",
            record_file};
}

std::vector<tak::PtnGame> read_records(const std::string& path) {
    auto games = tak::parse_ptn_games(read_file(path));
    INFO((games ? std::string() : games.error()));
    REQUIRE(games);
    return *games;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Time controls and clocks

TEST_CASE("engines send proven results as mate scores, and the arbiter reads them", "[arbiter][protocol]") {
    using bge::protocol::format_score;
    using bge::search::win_score;
    CHECK(format_score(31) == "cp 31");
    CHECK(format_score(-4000) == "cp -4000");
    CHECK(format_score(win_score - 1) == "mate 1");    // wins with this move
    CHECK(format_score(win_score - 3) == "mate 2");    // three plies: this move, theirs, ours
    CHECK(format_score(-(win_score - 2)) == "mate -1"); // their next move wins
    CHECK(format_score(-(win_score - 4)) == "mate -2");
    CHECK(format_score(-win_score) == "mate 0");        // already lost

    using bge::arbiter::parse_search_info;
    const auto win = parse_search_info("info depth 7 seldepth 9 score mate 3 nodes 10 pv a1");
    REQUIRE(win);
    CHECK(win->score_cp == 100000 - 5);
    CHECK(win->mate == 3);
    const auto loss = parse_search_info("info depth 4 score mate -2 nodes 1");
    REQUIRE(loss);
    CHECK(loss->score_cp == -(100000 - 4));
    const auto plain = parse_search_info("info depth 4 score cp -31");
    REQUIRE(plain);
    CHECK(plain->score_cp == -31);
    CHECK(!plain->mate);
    CHECK(!parse_search_info("info depth 4 score mate x"));
    // pbrain engines report in MESSAGE lines: ours carry an info line, Rapfi its own fields (as
    // Rapfi v0.43 prints them).
    const auto ours = parse_search_info("MESSAGE depth 6 score cp 42 nodes 1000 pv h8");
    REQUIRE(ours);
    CHECK(ours->score_cp == 42);
    CHECK(ours->depth == 6);
    const auto rapfi = parse_search_info("MESSAGE Speed 605K | Depth 19-38 | Eval 136 | Node 587K | Time 970ms");
    REQUIRE(rapfi);
    CHECK(rapfi->score_cp == 136);
    CHECK(rapfi->depth == 19);
    const auto status = bge::arbiter::parse_pbrain_status("MESSAGE Speed 605K | Depth 19-38 | Eval -7 | Node 1.5M | Time 970ms");
    REQUIRE(status);
    CHECK(status->seldepth == 38);
    CHECK(status->score_cp == -7);
    CHECK(status->nps == 605000);
    CHECK(status->time_ms == 970);
    CHECK(!status->nodes);  // 1.5M is no whole number: left out, not guessed
    // Rapfi's mate scores count plies: +M3 is a win in 2 moves (3 plies), -M4 a loss in 2.
    const auto rapfi_win = parse_search_info("MESSAGE Speed 10000 | Depth 6-2 | Eval +M3 | Node 10 | Time 0ms");
    REQUIRE(rapfi_win);
    CHECK(rapfi_win->mate == 2);
    CHECK(rapfi_win->score_cp == bge::arbiter::mate_cp - 3);
    const auto rapfi_loss = parse_search_info("MESSAGE Speed 1M | Depth 20-33 | Eval -M4 | Node 2M | Time 500ms");
    REQUIRE(rapfi_loss);
    CHECK(rapfi_loss->mate == -2);
    CHECK(rapfi_loss->score_cp == -(bge::arbiter::mate_cp - 4));
    CHECK(!parse_search_info("MESSAGE Depth 6-2 | Eval +Mx"));
    CHECK(!parse_search_info("MESSAGE Bestline H7 G9 I8"));
    CHECK(!parse_search_info("MESSAGE Load config from config.toml"));

    bge::arbiter::EngineReply reply;
    reply.info = win;
    CHECK(bge::arbiter::move_comment(reply, false) == "+M3/7");
    reply.info = loss;
    CHECK(bge::arbiter::move_comment(reply, false) == "-M2/4");
    reply.info = plain;
    CHECK(bge::arbiter::move_comment(reply, false) == "-0.31/4");
}

TEST_CASE("arbiter: a warning when the games at once ask for more cores than the machine has", "[arbiter][threads]") {
    using bge::arbiter::EngineConfig;
    EngineConfig one;
    one.name = "one";
    EngineConfig four;
    four.name = "four";
    four.options = {{"Hash", "64"}, {"threads", "4"}};
    CHECK_FALSE(bge::arbiter::threads_warning({one, one}, 2, 2));
    CHECK_FALSE(bge::arbiter::threads_warning({one, four}, 1, 4));
    const auto warning = bge::arbiter::threads_warning({one, four}, 2, 4);
    REQUIRE(warning);
    CHECK(*warning ==
          "2 games at once with Threads 4 (four) ask for 8 cores and this machine has 4: the searches will share "
          "cores, so timed games are played weaker than their settings say");
    CHECK(bge::arbiter::threads_warning({one}, 3, 2));
}

TEST_CASE("arbiter time control: cutechess syntax", "[arbiter]") {
    auto tc = parse_time_control("40/1:00+0.5");
    REQUIRE(tc);
    CHECK(*tc == TimeControl{false, 40, 60'000, 500});
    tc = parse_time_control("10+0.1");
    REQUIRE(tc);
    CHECK(*tc == TimeControl{false, 0, 10'000, 100});
    tc = parse_time_control("0.5");
    REQUIRE(tc);
    CHECK(*tc == TimeControl{false, 0, 500, 0});
    tc = parse_time_control("2:30.25+1");
    REQUIRE(tc);
    CHECK(*tc == TimeControl{false, 0, 150'250, 1'000});
    tc = parse_time_control("inf");
    REQUIRE(tc);
    CHECK(tc->infinite);
    CHECK(format_time_control(*parse_time_control("40/1:00+0.5")) == "40/60+0.500");

    for (const char* bad : {"", "abc", "10+", "0", "/10", "0/10", "10+x", "1.2345", "1:2:3", "-5", "x/10"}) {
        INFO(bad);
        CHECK_FALSE(parse_time_control(bad));
    }
}

TEST_CASE("arbiter clock: increments, periods and the flag", "[arbiter]") {
    PlayerClock clock(*parse_time_control("2/1+0.1"));  // 2 moves in 1 s, +0.1 s a move
    CHECK(clock.remaining_ms() == 1000);
    CHECK(clock.moves_to_go() == 2);
    REQUIRE(clock.charge_move(300, 0));
    CHECK(clock.remaining_ms() == 800);
    CHECK(clock.moves_to_go() == 1);
    REQUIRE(clock.charge_move(700, 0));
    CHECK(clock.remaining_ms() == 1000 + 100 + 100);  // a new period adds the base time
    CHECK(clock.moves_to_go() == 2);

    PlayerClock tight(*parse_time_control("1"));
    CHECK(tight.moves_to_go() == 0);
    CHECK(tight.charge_move(1040, 50));  // within the allowance: overdrawn but not flagged
    CHECK(tight.remaining_ms() == -40);
    CHECK_FALSE(tight.charge_move(20, 50));  // the allowance is for the whole game
}

// ---------------------------------------------------------------------------------------------
// Whole matches

TEST_CASE("arbiter: alpha-beta beats the random player, cutechess-style output", "[arbiter][match]") {
    const std::string record_file = scratch().file("ab_vs_random.ptn");
    const ArbiterRun run = run_arbiter(alphabeta_vs_random(record_file, 2));
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    for (int game = 1; game <= 4; ++game) {
        const bool ab_white = game % 2 == 1;
        CHECK(run.has_line(fmt::format("Started game {} of 4 ({})", game, ab_white ? "ab vs rnd" : "rnd vs ab")));
    }
    const std::regex finished(R"(Finished game ([1-4]) \((ab vs rnd|rnd vs ab)\): (1-0|0-1|1/2-1/2) \{(.*)\})");
    const std::regex score(R"(Score of ab vs rnd: (\d+) - (\d+) - (\d+)  \[(\d\.\d{3})\] (\d+))");
    int finished_count = 0, score_count = 0;
    std::smatch match, last_score;
    for (const auto& line : run.lines) {
        if (std::regex_match(line, match, finished)) ++finished_count;
        if (std::regex_match(line, match, score)) {
            ++score_count;
            CHECK(std::stoi(match[5]) == score_count);  // one Score line after each game
            last_score = match;
        }
    }
    CHECK(finished_count == 4);
    REQUIRE(score_count == 4);
    const int wins = std::stoi(last_score[1]), losses = std::stoi(last_score[2]);
    CHECK(wins >= 3);
    CHECK(wins > losses);
    CHECK(run.count_prefix("Elo difference: ") == 1);
    CHECK(run.lines.back() == "Finished match");

    // The records parse back, with the tags and results the Finished lines gave.
    const auto games = read_records(record_file);
    REQUIRE(games.size() == 4);
    for (std::size_t i = 0; i < games.size(); ++i) {
        const auto& game = games[i];
        const bool ab_white = i % 2 == 0;
        CHECK(game.tag("Player1") == std::optional<std::string>(ab_white ? "ab" : "rnd"));
        CHECK(game.tag("Player2") == std::optional<std::string>(ab_white ? "rnd" : "ab"));
        CHECK(game.tag("Size") == std::optional<std::string>("5"));
        CHECK(game.tag("Komi") == std::optional<std::string>("0"));
        CHECK(game.tag("Round") == std::optional<std::string>(i < 2 ? "1" : "2"));
        CHECK(game.tag("Date"));
        CHECK(game.tag("Termination"));
        CHECK(game.tag("Result") == std::optional<std::string>(game.result));
        CHECK_FALSE(game.moves.empty());
        // The record's moves reach the recorded result.
        tak::State position = game.start;
        for (const auto& move : game.moves) tak::play(position, move);
        if (game.tag("Termination") == std::optional<std::string>("road"))
            CHECK(tak::result_text(tak::outcome(position)) == game.result);
    }
    // Alpha-beta's moves carry "score/depth" comments; without a clock there is no time in them.
    CHECK(std::regex_match(games[0].comments[0], std::regex(R"([+-]\d+\.\d\d/\d+)")));
}

TEST_CASE("arbiter: fixed-node matches are reproducible byte for byte", "[arbiter][match]") {
    const std::string first = scratch().file("repro_1.ptn"), second = scratch().file("repro_2.ptn");
    const ArbiterRun a = run_arbiter(alphabeta_vs_random(first, 1));
    const ArbiterRun b = run_arbiter(alphabeta_vs_random(second, 1));
    REQUIRE(a.status == 0);
    REQUIRE(b.status == 0);
    CHECK(a.lines == b.lines);
    const std::string text = read_file(first);
    CHECK_FALSE(text.empty());
    CHECK(text == read_file(second));
}

TEST_CASE("arbiter: an illegal move loses the game", "[arbiter][match]") {
    const std::string record_file = scratch().file("illegal.ptn");
    const ArbiterRun run = run_arbiter({"-size", "5", "-engine", "cmd=" + fixtures + "/arbiter_illegal_engine.sh",
                                        "name=bad", "-engine", "cmd=" + tak_binary, "name=tak", "-each", "nodes=500",
                                        "stderr=/dev/null", "-pgnout", record_file});
    INFO(transcript(run));
    CHECK(run.status == 0);
    CHECK(run.has_line("Finished game 1 (bad vs tak): 0-1 {White makes an illegal move: zz9}"));
    CHECK(run.has_line("Finished game 2 (tak vs bad): 1-0 {Black makes an illegal move: zz9}"));
    CHECK(run.has_line("Score of bad vs tak: 0 - 2 - 0  [0.000] 2"));
    const auto games = read_records(record_file);
    REQUIRE(games.size() == 2);
    CHECK(games[0].tag("Termination") == std::optional<std::string>("illegal move"));
    CHECK(games[0].result == "0-1");
    CHECK(games[1].moves.size() == 1);  // tak's first move, then the illegal reply
}

TEST_CASE("arbiter: a crash loses by disconnect and stops the match without -recover", "[arbiter][match]") {
    const std::vector<std::string> engines = {"-size",
                                              "5",
                                              "-engine",
                                              "cmd=" + fixtures + "/arbiter_crashing_engine.sh",
                                              "args=" + tak_binary + " 3",
                                              "name=crashy",
                                              "-engine",
                                              "cmd=" + tak_binary,
                                              "name=tak",
                                              "-each",
                                              "nodes=500",
                                              "stderr=/dev/null"};

    const ArbiterRun stopped = run_arbiter(engines);
    INFO(transcript(stopped));
    CHECK(stopped.status == 1);
    CHECK(stopped.has_line("Finished game 1 (crashy vs tak): 0-1 {White disconnects}"));
    CHECK(stopped.count_prefix("Started game 2") == 0);
    CHECK(stopped.has_line("Score of crashy vs tak: 0 - 1 - 0  [0.000] 1"));
    CHECK(stopped.lines.back() == "Finished match");
    CHECK_THAT(stopped.errors, Catch::Contains("crashy"));

    auto with_recover = engines;
    with_recover.push_back("-recover");
    const ArbiterRun recovered = run_arbiter(with_recover);
    INFO(transcript(recovered));
    CHECK(recovered.status == 0);
    CHECK(recovered.has_line("Finished game 1 (crashy vs tak): 0-1 {White disconnects}"));
    CHECK(recovered.has_line("Finished game 2 (tak vs crashy): 1-0 {Black disconnects}"));
    CHECK(recovered.lines.back() == "Finished match");
}

TEST_CASE("arbiter: an engine that never answers loses on time and is killed", "[arbiter][match]") {
    const ArbiterRun run =
        run_arbiter({"-size", "5", "-engine", "cmd=" + fixtures + "/arbiter_hanging_engine.sh", "name=hang", "-engine",
                     "cmd=" + tak_binary, "name=tak", "-each", "tc=0.5+0.05", "stderr=/dev/null", "-recover"});
    INFO(transcript(run));
    CHECK(run.status == 0);
    CHECK(run.has_line("Finished game 1 (hang vs tak): 0-1 {White loses on time}"));
    CHECK(run.has_line("Finished game 2 (tak vs hang): 1-0 {Black loses on time}"));
    CHECK(run.lines.back() == "Finished match");
    // 0.55 s of clock and 1 s of waiting for `stop` per game: nowhere near the 60 s stall timeout.
    CHECK(run.took < std::chrono::seconds(15));
}

TEST_CASE("arbiter: openings are shared by both games of a pair", "[arbiter][match]") {
    const std::string book = scratch().file("book.txt"), record_file = scratch().file("book.ptn");
    std::ofstream(book) << "# two openings\na1 e5\n\nb2 d4 c3\n";
    const ArbiterRun run = run_arbiter({"-size",
                                        "5",
                                        "-engine",
                                        "cmd=" + tak_binary,
                                        "name=a",
                                        "-engine",
                                        "cmd=" + tak_binary,
                                        "name=b",
                                        "-each",
                                        "depth=1",
                                        "stderr=/dev/null",
                                        "option.Hash=1",
                                        "-rounds",
                                        "3",
                                        "-openings",
                                        "file=" + book,
                                        "format=moves",
                                        "-maxmoves",
                                        "6",
                                        "-pgnout",
                                        record_file});
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    const auto games = read_records(record_file);
    REQUIRE(games.size() == 6);
    const std::vector<std::vector<std::string>> expected = {{"a1", "e5"}, {"b2", "d4", "c3"}, {"a1", "e5"}};
    for (std::size_t i = 0; i < games.size(); ++i) {
        const auto& opening = expected[i / 2];
        REQUIRE(games[i].moves.size() >= opening.size());
        for (std::size_t m = 0; m < opening.size(); ++m) {
            CHECK(tak::format_move(games[i].moves[m]) == opening[m]);
            CHECK(games[i].comments[m] == "book");
        }
        CHECK(games[i].moves.size() <= 12);  // -maxmoves 6
    }
}

TEST_CASE("arbiter: komi needs engines that declare HalfKomi", "[arbiter][match]") {
    const ArbiterRun run =
        run_arbiter({"-komi", "2", "-engine", "cmd=" + fixtures + "/arbiter_illegal_engine.sh", "name=bad", "-engine",
                     "cmd=" + tak_binary, "-each", "nodes=100", "stderr=/dev/null"});
    CHECK(run.status == 1);
    CHECK_THAT(run.errors, Catch::Contains("HalfKomi") && Catch::Contains("-komi 2"));
    CHECK(run.count_prefix("Finished game") == 0);
}

TEST_CASE("arbiter: bad command lines name the flag and exit with status 2", "[arbiter]") {
    const std::vector<std::string> two = {"-engine", "cmd=" + tak_binary, "nodes=10",
                                          "-engine", "cmd=" + tak_binary, "nodes=10"};
    auto with = [&](std::vector<std::string> extra) {
        auto arguments = two;
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        return arguments;
    };
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"-engine", "cmd=" + tak_binary, "nodes=10"}, "need at least two engines"},
        {with({"-bogus"}), "'-bogus'"},
        {with({"-size", "9"}), "-size 9"},
        {with({"-size"}), "-size needs a value"},
        {with({"-komi", "1.3"}), "-komi 1.3"},
        {with({"-games", "3"}), "-games"},
        {with({"-rounds", "zero"}), "-rounds"},
        {with({"-game", "chess"}), "-game chess"},
        {with({"-ruleset", "finkel"}), "-ruleset has no meaning in tak"},
        {with({"-pieces", "3"}), "-pieces has no meaning in tak"},
        {with({"-rule", "renju"}), "-rule has no meaning in tak"},
        {with({"-each", "tc=abc"}), "-each tc=abc"},
        {with({"-each", "proto=uci"}), "proto=uci"},
        {with({"-each", "colour=red"}), "unknown key 'colour'"},
        {with({"-each", "nodes"}), "expected key=value"},
        {with({"-openings", "file=/nonexistent/book.tps"}), "-openings file=/nonexistent/book.tps"},
        {with({"-openings", "format=tps"}), "-openings: file= is missing"},
        {{"-engine", "cmd=a", "-engine", "cmd=b"}, "needs a limit"},
        {{"-engine", "name=x", "nodes=1", "-engine", "cmd=b", "nodes=1"}, "cmd= is missing"},
    };
    for (const auto& [arguments, message] : cases) {
        const ArbiterRun run = run_arbiter(arguments);
        INFO(transcript(run));
        CHECK(run.status == 2);
        CHECK_THAT(run.errors, Catch::Contains(message));
        CHECK(run.lines.empty());
    }
}

TEST_CASE("arbiter: -help", "[arbiter]") {
    const ArbiterRun run = run_arbiter({"-help"});
    CHECK(run.status == 0);
    CHECK(run.count_prefix("  -engine key=value") == 1);
}

// From the standard start a UGI engine gets `position startpos`, so the size travels in its Size
// option (UGI's uginewgame names none): 5x5 games between TEI and UGI finish without an
// illegal move, the UGI engine is told the size before each game, and a UGI engine without Size
// cannot play 5x5. (Without the Size option our engine plays on its default 6x6 board; at depth 1
// the games can still end without a move off the 5x5 board, so what it was told is checked too.)
TEST_CASE("arbiter: Tak over UGI from the start sends the size as the Size option", "[arbiter][match]") {
    const std::string told = scratch().file("ugi_input.log");
    const ArbiterRun run = run_arbiter({"-size", "5", "-engine", "cmd=" + tak_binary, "name=tei", "-engine",
                                        "cmd=" + fixtures + "/input_logging_engine.sh", "args=" + told + " " + tak_binary,
                                        "name=ugi", "proto=ugi", "-each", "depth=1", "stderr=/dev/null", "option.Hash=1",
                                        "-games", "2"});
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    CHECK(run.count_prefix("Finished game") == 2);
    for (const auto& line : run.lines) CHECK_THAT(line, !Catch::Contains("illegal move"));
    // Before each game: the Size option, then uginewgame; every position from the start.
    std::istringstream input(read_file(told));
    int sized_games = 0, positions = 0;
    bool sized = false;
    for (std::string line; std::getline(input, line);) {
        if (line == "setoption name Size value 5") sized = true;
        if (line == "uginewgame") {
            sized_games += sized;
            sized = false;
        }
        if (line.rfind("position ", 0) == 0) {
            ++positions;
            CHECK(line.rfind("position startpos", 0) == 0);
        }
    }
    CHECK(sized_games == 2);
    CHECK(positions > 2);
    const ArbiterRun sizeless =
        run_arbiter({"-size", "5", "-engine", "cmd=" + tak_binary, "-engine",
                     "cmd=" + fixtures + "/arbiter_illegal_engine.sh", "name=nosize", "proto=ugi", "-each", "depth=1",
                     "stderr=/dev/null", "-games", "2"});
    CHECK(sizeless.status == 1);
    CHECK_THAT(sizeless.errors, Catch::Contains("declares no Size option, so it cannot play 5x5"));
}

TEST_CASE("arbiter: TPS openings with Black to move, UGI and TEI engines, komi", "[arbiter][match]") {
    const std::string book = scratch().file("book.tps"), record_file = scratch().file("tps.ptn");
    const std::string tps = "2,x4/x5/x2,1,x2/x5/x4,1 2 2";
    std::ofstream(book) << tps << "\n";
    const ArbiterRun run =
        run_arbiter({"-size", "5", "-komi", "1.5", "-engine", "cmd=" + tak_binary, "name=tei", "-engine",
                     "cmd=" + tak_binary, "name=ugi", "proto=ugi", "-each", "depth=2", "stderr=/dev/null",
                     "option.Hash=1", "-openings", "file=" + book, "-pgnout", record_file});
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    CHECK(run.count_prefix("Finished game") == 2);
    const auto games = read_records(record_file);
    REQUIRE(games.size() == 2);
    for (const auto& game : games) {
        CHECK(game.tag("TPS") == std::optional<std::string>(tps));
        CHECK(game.tag("Komi") == std::optional<std::string>("1.5"));
        CHECK(game.start.half_komi == 3);
        CHECK(game.start.side_to_move() == Side::second);
        CHECK_FALSE(game.moves.empty());
    }
}

TEST_CASE("arbiter: a pbrain brain's identity from its ABOUT answer", "[arbiter][protocol]") {
    using bge::arbiter::pbrain_identity;
    CHECK(pbrain_identity(R"x(name="Rapfi", version="0.43.02 (g++ 12.2.0)", author="Rapfi team", country="China")x") ==
          "Rapfi 0.43.02 (g++ 12.2.0)");
    CHECK(pbrain_identity(R"x(name="busy-after-move", author="tests")x") == "busy-after-move");
    CHECK(pbrain_identity(R"x(nickname="x", name="y")x") == "y");  // a key that ends in "name" is not it
    CHECK(pbrain_identity(R"x(version="1.0")x").empty());  // no name: no identity
    CHECK(pbrain_identity("ERROR unknown command").empty());
    CHECK(pbrain_identity(R"x(name="unterminated)x") == "unterminated");
    CHECK(pbrain_identity("").empty());
}
