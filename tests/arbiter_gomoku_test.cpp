// The arbiter playing Gomoku with real engine processes: UGI against pbrain (the same binary in
// both dialects), renju and small boards, records that replay to the result they state and read
// back as openings, the variant flags it refuses, and a foreign UGI engine that knows only startpos.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "arbiter_run.hpp"
#include "core/game_record.hpp"
#include "core/gomoku/gomoku.hpp"
#include "core/version.hpp"
#include "tools/arbiter/gomoku_adapter.hpp"

using namespace bge;
using bge::testing::read_file;
using bge::testing::run_arbiter;
using bge::testing::scratch;
using bge::testing::transcript;

namespace {

const std::string gomoku_binary = BGE_GOMOKU_BINARY;

}  // namespace

TEST_CASE("arbiter: gomoku between a UGI engine and a pbrain engine", "[arbiter][gomoku]") {
    const std::string records = scratch().file("gomoku_games.txt");
    const std::string results = scratch().file("gomoku_results.json");
    const auto run = run_arbiter({"-game",
                                  "gomoku",
                                  "-rule",
                                  "renju",
                                  "-engine",
                                  "cmd=" + gomoku_binary,
                                  "name=ugi",
                                  "option.Player=random",
                                  "nodes=1",
                                  "-engine",
                                  "cmd=" + gomoku_binary,
                                  "name=pbrain",
                                  "proto=pbrain",
                                  "st=0.2",
                                  // Generous: a loaded CI machine running the sanitizer build must
                                  // not flag the brain (it once took over 250 ms there).
                                  "timemargin=2000",
                                  "-each",
                                  "stderr=/dev/null",
                                  "-games",
                                  "2",
                                  "-pgnout",
                                  records,
                                  "-jsonout",
                                  results});
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    CHECK(run.count_prefix("Finished game ") == 2);
    // The UGI engine named itself with `id name`, the pbrain one in its answer to ABOUT.
    const auto document = testing::read_json(results);  // kept: the loop reads inside it
    for (const auto& engine : document.at("engines")) CHECK(engine.at("id") == "gomoku " + bge::version_text());
    // The threat-searching pbrain engine beats uniform random play.
    CHECK(run.has_line("Score of ugi vs pbrain: 0 - 2 - 0  [0.000] 2"));
    // Gomoku's first player is Black: pbrain wins game 2 as Black, game 1 as White.
    CHECK(run.count_prefix("Finished game 1 (ugi vs pbrain): 0-1 {White wins") == 1);
    CHECK(run.count_prefix("Finished game 2 (pbrain vs ugi): 1-0 {Black wins") == 1);

    // The records replay to the results they state, and read back as openings.
    const std::string text = read_file(records);
    gomoku::Variant renju;
    renju.rule = gomoku::Rule::renju;
    auto openings = arbiter::GomokuAdapter::parse_record_openings(text, renju);
    REQUIRE(openings);
    REQUIRE(openings->size() == 2);
    for (const auto& opening : *openings) {
        GameRecord<gomoku::Gomoku> game(opening.start);
        for (const auto& move : opening.moves) game.play(move);
        CHECK(game.outcome().is_win_for(game.moves().size() % 2 == 1 ? Side::first : Side::second));
    }
    CHECK_THAT(text, Catch::Contains("[Rule \"renju\"]"));
    CHECK_THAT(text, Catch::Contains("[Size \"15x15\"]"));
}

TEST_CASE("arbiter: gomoku variants and refusals", "[arbiter][gomoku]") {
    SECTION("tic-tac-toe on 3x3 needs InARow, which the engine declares; a bad size or rule is refused") {
        const auto bad_rule = run_arbiter({"-game", "gomoku", "-rule", "caro", "-engine", "cmd=" + gomoku_binary,
                                           "-engine", "cmd=" + gomoku_binary, "-each", "nodes=1"});
        CHECK(bad_rule.status == 2);
        CHECK_THAT(bad_rule.errors, Catch::Contains("-rule caro"));
        const auto bad_size = run_arbiter({"-game", "gomoku", "-size", "30", "-engine", "cmd=" + gomoku_binary,
                                           "-engine", "cmd=" + gomoku_binary, "-each", "nodes=1"});
        CHECK(bad_size.status == 2);
        const auto komi = run_arbiter({"-game", "gomoku", "-komi", "2", "-engine", "cmd=" + gomoku_binary, "-engine",
                                       "cmd=" + gomoku_binary, "-each", "nodes=1"});
        CHECK(komi.status == 2);
    }
    SECTION("a small board, UGI on both sides, records with comments") {
        const std::string records = scratch().file("gomoku_small.txt");
        const auto run = run_arbiter({"-game",
                                      "gomoku",
                                      "-size",
                                      "7",
                                      "-rule",
                                      "standard",
                                      "-engine",
                                      "cmd=" + gomoku_binary,
                                      "name=a",
                                      "-engine",
                                      "cmd=" + gomoku_binary,
                                      "name=b",
                                      "option.Player=mcts-vanilla",
                                      "-each",
                                      "nodes=200",
                                      "stderr=/dev/null",
                                      "option.Hash=4",
                                      "-games",
                                      "2",
                                      "-pgnout",
                                      records});
        INFO(transcript(run));
        REQUIRE(run.status == 0);
        CHECK(run.count_prefix("Finished game ") == 2);
        gomoku::Variant small;
        small.width = small.height = 7;
        small.rule = gomoku::Rule::standard;
        auto openings = arbiter::GomokuAdapter::parse_record_openings(read_file(records), small);
        REQUIRE(openings);
        CHECK(openings->size() == 2);
    }
    SECTION("proto=pbrain is refused for other games") {
        const auto run = run_arbiter({"-game", "tak", "-engine", "cmd=" + gomoku_binary, "proto=pbrain", "-engine",
                                      "cmd=" + gomoku_binary, "-each", "nodes=1", "stderr=/dev/null"});
        CHECK(run.status == 1);
        CHECK_THAT(run.errors, Catch::Contains("only for gomoku"));
    }
}

namespace {

std::vector<std::string> position_lines(const std::string& log) {
    std::vector<std::string> lines;
    std::istringstream text(read_file(log));
    for (std::string line; std::getline(text, line);)
        if (line.rfind("position ", 0) == 0) lines.push_back(line);
    return lines;
}

bool all_start_with(const std::vector<std::string>& lines, const std::string& prefix) {
    for (const auto& line : lines)
        if (line.rfind(prefix, 0) != 0) return false;
    return true;
}

}  // namespace

// A foreign UGI engine that knows only `position startpos` (the fixture's comment says which
// real engines behave so) must get every game that began at the standard start as startpos.
TEST_CASE("arbiter: a UGI engine that knows only startpos plays whole games", "[arbiter][gomoku][interop]") {
    const std::string foreign = std::string(BGE_TEST_FIXTURES_DIR) + "/startpos_only_ugi_engine.sh";
    const std::string log = scratch().file("startpos_only.log");
    auto match = [&](std::vector<std::string> extra) {
        std::vector<std::string> arguments = {"-game", "gomoku", "-engine", "cmd=" + foreign, "args=" + log,
                                              "name=foreign", "-engine", "cmd=" + gomoku_binary, "name=ours",
                                              "-each", "depth=1", "stderr=/dev/null", "-games", "2"};
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        return run_arbiter(arguments);
    };

    SECTION("from the standard start, and from a book of moves") {
        const std::string book = scratch().file("startpos_book.txt");
        std::ofstream(book) << "h8 h9\n";
        for (const std::vector<std::string>& extra :
             {std::vector<std::string>{}, std::vector<std::string>{"-openings", "file=" + book, "format=moves"}}) {
            const auto run = match(extra);
            INFO(transcript(run));
            REQUIRE(run.status == 0);
            CHECK(run.count_prefix("Finished game ") == 2);
            CHECK(run.count_prefix("Finished game ") ==
                  run.count_prefix("Finished game 1 (foreign vs ours): ") +
                      run.count_prefix("Finished game 2 (ours vs foreign): "));
            for (const auto& line : run.lines) CHECK_THAT(line, !Catch::Contains("illegal move"));
            for (const auto& line : run.lines)
                if (line.rfind("Finished game", 0) == 0) CHECK_THAT(line, Catch::Contains("by five in a row"));
            const auto positions = position_lines(log);
            CHECK(positions.size() >= 2);
            CHECK(all_start_with(positions, extra.empty() ? "position startpos" : "position startpos moves h8 h9"));
        }
    }

    SECTION("a book given as positions is sent as fen") {
        const std::string book = scratch().file("fen_book.txt");
        std::ofstream(book) << "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 o\n";
        const auto run = match({"-openings", "file=" + book, "format=tps", "-rounds", "1"});
        INFO(transcript(run));
        REQUIRE(run.status == 0);
        const auto positions = position_lines(log);
        REQUIRE_FALSE(positions.empty());
        CHECK(all_start_with(positions, "position fen "));
    }
}

TEST_CASE("arbiter: a pbrain brain that drops commands just after its move (as Rapfi does) plays whole games",
          "[arbiter][gomoku][interop]") {
    // Both brains answer at once, so without a pause the next INFO would reach each of them
    // within a millisecond of its own move and lose its first word.
    const std::string busy = std::string(BGE_TEST_FIXTURES_DIR) + "/busy_after_move_pbrain_engine.py";
    const std::string results = scratch().file("busy_results.json");
    const auto run = run_arbiter({"-game", "gomoku", "-engine", "cmd=" + busy, "name=a", "proto=pbrain", "-engine",
                                  "cmd=" + busy, "name=b", "proto=pbrain", "-each", "st=1", "-games", "2", "-rounds",
                                  "2", "-jsonout", results});
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    CHECK(run.count_prefix("Finished game ") == 4);
    // Row-order play fills the diagonal: Black wins every game by five, and nobody errs.
    const std::string text = transcript(run);
    std::size_t fives = 0;
    for (auto at = text.find("{Black wins by five in a row}"); at != std::string::npos;
         at = text.find("{Black wins by five in a row}", at + 1))
        ++fives;
    CHECK(fives == 4);
    CHECK(run.has_line("Score of a vs b: 2 - 2 - 0  [0.500] 4"));
    CHECK(text.find("ERROR") == std::string::npos);
    CHECK(text.find("illegal") == std::string::npos);
    // Its ABOUT answer has a name and no version; asking it cost no game.
    const auto document = testing::read_json(results);  // kept: the loop reads inside it
    for (const auto& engine : document.at("engines")) CHECK(engine.at("id") == "busy-after-move");
}

namespace {

// The lines a logging fixture brain read, one string each.
std::vector<std::string> lines_of(const std::string& path) {
    std::istringstream in(read_file(path));
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::size_t count_starting(const std::vector<std::string>& lines, std::string_view prefix) {
    return static_cast<std::size_t>(
        std::count_if(lines.begin(), lines.end(), [&](const std::string& line) { return line.starts_with(prefix); }));
}

}  // namespace

TEST_CASE("arbiter: pbrain brains are driven as Piskvork drives them", "[arbiter][gomoku][interop]") {
    // The fixture keeps its own board, as PentaZen does: BOARD adds to it, TURN adds one stone.
    const std::string brain = std::string(BGE_TEST_FIXTURES_DIR) + "/own_board_pbrain_engine.py";
    const std::string log_a = scratch().file("own_board_a.log"), log_b = scratch().file("own_board_b.log");
    std::filesystem::remove(log_a);  // each section starts afresh
    std::filesystem::remove(log_b);
    auto match = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = {"-game", "gomoku", "-engine", "cmd=" + brain, "args=" + log_a, "name=a",
                                         "proto=pbrain", "-engine", "cmd=" + brain, "args=" + log_b, "name=b",
                                         "proto=pbrain", "-each", "st=1", "-games", "2"};
        args.insert(args.end(), extra.begin(), extra.end());
        return run_arbiter(args);
    };

    SECTION("from the empty board: START, then BEGIN or TURN x,y, and never BOARD") {
        const auto run = match({});
        INFO(transcript(run));
        REQUIRE(run.status == 0);
        CHECK(run.has_line("Score of a vs b: 1 - 1 - 0  [0.500] 2"));
        CHECK(run.count_prefix("Finished game 1 (a vs b): 1-0 {Black wins by five in a row}") == 1);
        for (const std::string& log : {log_a, log_b}) {
            const auto lines = lines_of(log);
            CHECK(count_starting(lines, "START 15") == 2);
            CHECK(count_starting(lines, "BEGIN") == 1);  // Black in one of the two games
            CHECK(count_starting(lines, "BOARD") == 0);
            CHECK(count_starting(lines, "TURN ") > 20);
            CHECK(count_starting(lines, "INFO timeout_turn 1000") == 1 + count_starting(lines, "TURN "));
        }
        // Brain a, Black in game 1: BEGIN answered 0,0, so b's first TURN is 0,0.
        const auto b_lines = lines_of(log_b);
        const auto first_turn = std::find_if(b_lines.begin(), b_lines.end(),
                                             [](const std::string& line) { return line.starts_with("TURN "); });
        REQUIRE(first_turn != b_lines.end());
        CHECK(*first_turn == "TURN 0,0");
    }

    SECTION("a book position: a BOARD block once, after START, then TURN") {
        const std::string book = scratch().file("own_board_book.txt");
        {
            std::ofstream out(book);
            out << "h8 i9 g7\n";
        }
        const auto run = match({"-openings", "file=" + book, "format=moves"});
        INFO(transcript(run));
        REQUIRE(run.status == 0);
        CHECK(run.count_prefix("Finished game ") == 2);
        CHECK(transcript(run).find("illegal") == std::string::npos);
        // Each brain gets one BOARD a game, after a START: the brain to move after the book (White)
        // the book's three stones, the other those and White's answer. Then TURN as usual.
        for (const std::string& log : {log_a, log_b}) {
            const auto lines = lines_of(log);
            CHECK(count_starting(lines, "BOARD") == 2);
            CHECK(count_starting(lines, "BEGIN") == 0);
            CHECK(count_starting(lines, "TURN ") > 10);
        }
        // Game 1: b is White. h8 and g7 are the opponent's (2), i9 its own (1), in the order played
        // (row 1 is pbrain's y = 14); a sees them from Black's side, then b's answer (0,0).
        const auto a_lines = lines_of(log_a), b_lines = lines_of(log_b);
        const auto a_board = std::find(a_lines.begin(), a_lines.end(), "BOARD");
        const auto b_board = std::find(b_lines.begin(), b_lines.end(), "BOARD");
        REQUIRE(a_lines.end() - a_board >= 6);
        REQUIRE(b_lines.end() - b_board >= 5);
        CHECK(std::vector<std::string>(b_board + 1, b_board + 5) ==
              std::vector<std::string>{"7,7,2", "8,6,1", "6,8,2", "DONE"});
        CHECK(std::vector<std::string>(a_board + 1, a_board + 6) ==
              std::vector<std::string>{"7,7,1", "8,6,2", "6,8,1", "0,0,2", "DONE"});
        CHECK(std::find(a_lines.begin(), a_board, "START 15") != a_board);
        CHECK(std::find(b_lines.begin(), b_board, "START 15") != b_board);
    }

    SECTION("pbrain=board sends the whole board before every move, which such a brain cannot follow") {
        const auto run = match({"-each", "pbrain=board"});
        INFO(transcript(run));
        REQUIRE(run.status == 0);
        // Its second BOARD repeats stones it holds: it answers -4,-4, an illegal move kept as text.
        CHECK(run.count_prefix("Finished game 1 (a vs b): 0-1 {Black makes an illegal move: -4,-4}") == 1);
        CHECK(run.count_prefix("Finished game 2 (b vs a): 0-1 {Black makes an illegal move: -4,-4}") == 1);
        for (const std::string& log : {log_a, log_b}) {
            const auto lines = lines_of(log);
            CHECK(count_starting(lines, "BEGIN") == 0);
            CHECK(count_starting(lines, "TURN") == 0);
            CHECK(count_starting(lines, "BOARD") >= 2);
        }
    }

    SECTION("a bad pbrain= value is refused") {
        const auto run = match({"-each", "pbrain=stateless"});
        CHECK(run.status != 0);
        CHECK(transcript(run).find("pbrain=stateless: expected turn or board") != std::string::npos);
    }
}
