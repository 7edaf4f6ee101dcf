// `arbiter book`: opening books generated through the real arbiter binary, checked with the core
// Tak rules, read back by a match, and (with -engine) re-judged by the real tak engine.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/tak/notation.hpp"
#include "core/tak/ptn_file.hpp"
#include "protocol/engine_process.hpp"
#include "protocol/text.hpp"

using namespace bge;
namespace fs = std::filesystem;

namespace {

const std::string tak_binary = BGE_TAK_BINARY;
const std::string fixtures = BGE_TEST_FIXTURES_DIR;
const std::string arbiter_binary = BGE_ARBITER_BINARY;

class ScratchDirectory {
public:
    ScratchDirectory() : path_(fs::temp_directory_path() / ("bge_arbiter_book_test_" + std::to_string(::getpid()))) {
        fs::create_directories(path_);
    }
    ~ScratchDirectory() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

const ScratchDirectory& scratch() {
    static const ScratchDirectory directory;
    return directory;
}

std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

std::vector<std::string> file_lines(const std::string& path) {
    std::vector<std::string> lines;
    std::istringstream text(read_file(path));
    for (std::string line; std::getline(text, line);) lines.push_back(line);
    return lines;
}

struct Run {
    int status = -1;
    std::vector<std::string> lines;  // stdout
    std::string errors;              // stderr
};

Run run_arbiter(const std::vector<std::string>& arguments) {
    static int runs = 0;
    const std::string errors_file = scratch().file("stderr_" + std::to_string(++runs));
    protocol::EngineProcess process;
    protocol::ProcessOptions options;
    options.command = arbiter_binary;
    options.arguments = arguments;
    options.stderr_path = errors_file;
    REQUIRE(process.start(options));
    Run run;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
        auto read = process.read_line_until(deadline);
        REQUIRE(read.status != protocol::ReadStatus::timeout);
        if (read.status == protocol::ReadStatus::closed) break;
        run.lines.push_back(read.line);
    }
    REQUIRE(process.wait_for_exit(std::chrono::seconds(10)));
    run.status = process.exit_status().value_or(-1);
    run.errors = read_file(errors_file);
    return run;
}

std::vector<std::string> book_arguments(std::vector<std::string> extra) {
    std::vector<std::string> arguments = {"book", "-game", "tak"};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
}

std::string transcript(const Run& run) {
    std::string text = fmt::format("status {}\n", run.status);
    for (const auto& line : run.lines) text += line + "\n";
    return text + "stderr:\n" + run.errors;
}

// Plays a book line with the core rules; fails the test if a move is not legal there.
tak::State play_line(const std::string& line, int size, std::size_t& plies) {
    tak::Variant variant;
    variant.size = size;
    tak::State state = tak::start_state(variant);
    plies = 0;
    for (std::string_view word : protocol::split_words(line)) {
        INFO(line << ": move " << word);
        REQUIRE_FALSE(tak::outcome(state).is_over());
        auto move = tak::parse_move(state, word);
        REQUIRE(move);
        tak::play(state, *move);
        ++plies;
    }
    return state;
}

// The tak engine, spoken to directly: its `score cp` for a line at a fixed depth.
class Judge {
public:
    explicit Judge(int size) : size_(size) {
        protocol::ProcessOptions options;
        options.command = tak_binary;
        options.stderr_path = "/dev/null";
        REQUIRE(engine_.start(options));
        REQUIRE(engine_.write_line("tei"));
        read_until("teiok");
    }
    ~Judge() {
        if (engine_.write_line("quit")) engine_.wait_for_exit(std::chrono::seconds(2));
    }

    int score(const std::string& moves, int depth) {
        REQUIRE(engine_.write_line(fmt::format("teinewgame {}", size_)));
        REQUIRE(engine_.write_line("isready"));
        read_until("readyok");
        REQUIRE(engine_.write_line("position startpos moves " + moves));
        REQUIRE(engine_.write_line(fmt::format("go depth {}", depth)));
        std::optional<int> score;
        read_until("bestmove", [&](const std::string& line) {
            const auto words = protocol::split_words(line);
            for (std::size_t i = 0; i + 2 < words.size(); ++i)
                if (words[0] == "info" && words[i] == "score" && words[i + 1] == "cp")
                    score = std::stoi(std::string(words[i + 2]));
        });
        INFO(moves);
        REQUIRE(score);
        return *score;
    }

private:
    template <class OnLine = void (*)(const std::string&)>
    void read_until(
        const std::string& prefix, OnLine on_line = [](const std::string&) {}) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        for (;;) {
            auto read = engine_.read_line_until(deadline);
            REQUIRE(read.status == protocol::ReadStatus::line);
            if (read.line.rfind(prefix, 0) == 0) return;
            on_line(read.line);
        }
    }

    int size_;
    protocol::EngineProcess engine_;
};

}  // namespace

TEST_CASE("arbiter book: a seed always gives the same book and another seed another", "[book]") {
    const auto arguments = [](const std::string& seed) {
        return book_arguments({"-size", "5", "-plies", "6", "-count", "40", "-srand", seed});
    };
    const Run first = run_arbiter(arguments("11"));
    INFO(transcript(first));
    REQUIRE(first.status == 0);
    CHECK(first.lines.size() == 40);
    const Run again = run_arbiter(arguments("11"));
    CHECK(again.status == 0);
    CHECK(again.lines == first.lines);
    const Run other = run_arbiter(arguments("12"));
    CHECK(other.status == 0);
    CHECK(other.lines.size() == 40);
    CHECK(other.lines != first.lines);

    // -out writes the same lines to the file and nothing to stdout; no -srand means seed 0.
    const std::string file = scratch().file("seed11.txt");
    auto to_file = arguments("11");
    to_file.insert(to_file.end(), {"-out", file});
    const Run written = run_arbiter(to_file);
    CHECK(written.status == 0);
    CHECK(written.lines.empty());
    CHECK(file_lines(file) == first.lines);
    CHECK(run_arbiter(book_arguments({"-size", "5", "-plies", "6", "-count", "40"})).lines ==
          run_arbiter(arguments("0")).lines);
}

TEST_CASE("arbiter book: lines are legal and of the asked length and distinct and unfinished", "[book]") {
    // 4x4 after 13 plies: roads happen, so candidates that end the game must be thrown away.
    const int size = 4, plies = 13, count = 150;
    const auto arguments = [&](const std::string& format) {
        return book_arguments({"-size", std::to_string(size), "-plies", std::to_string(plies), "-count",
                               std::to_string(count), "-srand", "5", "-format", format});
    };
    const Run moves = run_arbiter(arguments("moves"));
    INFO(transcript(moves));
    REQUIRE(moves.status == 0);
    REQUIRE(moves.lines.size() == static_cast<std::size_t>(count));
    CHECK_THAT(moves.errors,
               Catch::Matches(
                   R"(arbiter: book: 150 openings \(\d+ tries: [1-9]\d* ended the game, \d+ repeated a position\)\n)"));

    const Run positions = run_arbiter(arguments("tps"));
    REQUIRE(positions.status == 0);
    REQUIRE(positions.lines.size() == moves.lines.size());

    std::set<std::string> seen;
    for (std::size_t i = 0; i < moves.lines.size(); ++i) {
        std::size_t played = 0;
        const tak::State final_position = play_line(moves.lines[i], size, played);
        CHECK(played == static_cast<std::size_t>(plies));
        CHECK_FALSE(tak::outcome(final_position).is_over());
        const std::string tps = tak::format_tps(final_position);
        CHECK(seen.insert(tps).second);
        // -format tps writes the final positions of the very same lines.
        CHECK(positions.lines[i] == tps);
    }
}

TEST_CASE("arbiter book: too few distinct positions end in a warning with what was found", "[book]") {
    // A 3x3 board has 9 first moves.
    const Run run = run_arbiter(book_arguments({"-size", "3", "-plies", "1", "-count", "20", "-tries", "500"}));
    INFO(transcript(run));
    CHECK(run.status == 0);
    CHECK(run.lines.size() == 9);
    CHECK(std::set<std::string>(run.lines.begin(), run.lines.end()).size() == 9);
    CHECK_THAT(run.errors, Catch::Contains("warning: book: only 9 of 20 openings found (500 tries"));
}

TEST_CASE("arbiter book: the book plays as -openings in a match", "[book]") {
    const std::string book = scratch().file("match_book.txt"), tps_book = scratch().file("match_book.tps"),
                      records = scratch().file("match_book.ptn");
    REQUIRE(
        run_arbiter(book_arguments({"-size", "5", "-plies", "4", "-count", "3", "-srand", "9", "-out", book})).status ==
        0);
    REQUIRE(run_arbiter(book_arguments({"-size", "5", "-plies", "4", "-count", "3", "-srand", "9", "-format", "tps",
                                        "-out", tps_book}))
                .status == 0);
    const std::vector<std::string> lines = file_lines(book);
    REQUIRE(lines.size() == 3);

    const Run match = run_arbiter(
        {"-size",     "5",     "-engine",   "cmd=" + tak_binary, "name=a",        "-engine", "cmd=" + tak_binary,
         "name=b",    "-each", "nodes=300", "stderr=/dev/null",  "option.Hash=1", "-rounds", "3",
         "-maxmoves", "5",     "-openings", "file=" + book,      "format=moves",  "-pgnout", records});
    INFO(transcript(match));
    REQUIRE(match.status == 0);
    auto games = tak::parse_ptn_games(read_file(records));
    REQUIRE(games);
    REQUIRE(games->size() == 6);
    for (std::size_t i = 0; i < games->size(); ++i) {
        const tak::PtnGame& game = (*games)[i];
        const auto book_moves = protocol::split_words(lines[i / 2]);  // both games of a pair share it
        REQUIRE(game.moves.size() >= book_moves.size());
        for (std::size_t m = 0; m < book_moves.size(); ++m) {
            CHECK(tak::format_move(game.moves[m]) == book_moves[m]);
            CHECK(game.comments[m] == "book");
        }
    }

    const Run from_positions =
        run_arbiter({"-size", "5", "-engine", "cmd=" + tak_binary, "-engine", "cmd=" + tak_binary, "-each", "nodes=300",
                     "stderr=/dev/null", "option.Hash=1", "-games", "1", "-rounds", "3", "-maxmoves", "3", "-openings",
                     "file=" + tps_book, "format=tps"});
    INFO(transcript(from_positions));
    CHECK(from_positions.status == 0);
    CHECK(from_positions.lines.back() == "Finished match");
}

TEST_CASE("arbiter book: -engine keeps only the lines the engine finds balanced", "[book]") {
    const std::string balanced_file = scratch().file("balanced.txt");
    const Run balanced = run_arbiter(
        book_arguments({"-size", "5", "-plies", "4", "-count", "6", "-srand", "3", "-engine", "cmd=" + tak_binary,
                        "depth=2", "stderr=/dev/null", "-maxeval", "50", "-out", balanced_file}));
    INFO(transcript(balanced));
    REQUIRE(balanced.status == 0);
    const std::vector<std::string> kept = file_lines(balanced_file);
    REQUIRE(kept.size() == 6);
    CHECK_THAT(balanced.errors, Catch::Contains("outside +-50 cp"));

    // The engine's verdicts do not change the draws: the balanced book is the unfiltered book of
    // the same seed with the unbalanced lines left out.
    const Run all = run_arbiter(book_arguments({"-size", "5", "-plies", "4", "-count", "100", "-srand", "3"}));
    REQUIRE(all.status == 0);
    std::vector<std::string> rejected;
    std::size_t next = 0;
    for (const std::string& line : all.lines) {
        if (next == kept.size()) break;
        if (line == kept[next])
            ++next;
        else
            rejected.push_back(line);
    }
    REQUIRE(next == kept.size());
    REQUIRE_FALSE(rejected.empty());

    Judge judge(5);
    for (const std::string& line : kept) {
        INFO("kept: " << line);
        CHECK(std::abs(judge.score(line, 2)) <= 50);
    }
    for (std::size_t i = 0; i < std::min<std::size_t>(rejected.size(), 4); ++i) {
        INFO("rejected: " << rejected[i]);
        CHECK(std::abs(judge.score(rejected[i], 2)) > 50);
    }
}

TEST_CASE("arbiter book: an engine that fails stops the book with status 1", "[book]") {
    const Run missing = run_arbiter(
        book_arguments({"-size", "5", "-plies", "2", "-count", "2", "-engine", "cmd=/nonexistent/engine", "depth=1"}));
    INFO(transcript(missing));
    CHECK(missing.status == 1);
    CHECK(missing.lines.empty());
    CHECK_THAT(missing.errors, Catch::Contains("/nonexistent/engine"));

    const Run dead =
        run_arbiter(book_arguments({"-size", "5", "-plies", "2", "-count", "2", "-engine",
                                    "cmd=" + fixtures + "/arbiter_dead_engine.sh", "name=dead", "depth=1"}));
    INFO(transcript(dead));
    CHECK(dead.status == 1);
    CHECK(dead.lines.empty());
    CHECK_THAT(dead.errors, Catch::Contains("engine dead"));

    // Komi the engine cannot be told about.
    const Run no_komi = run_arbiter(book_arguments({"-size", "5", "-komi", "2", "-plies", "2", "-count", "2", "-engine",
                                                    "cmd=" + fixtures + "/arbiter_illegal_engine.sh", "depth=1"}));
    CHECK(no_komi.status == 1);
    CHECK_THAT(no_komi.errors, Catch::Contains("HalfKomi"));
}

TEST_CASE("arbiter book: bad command lines name the flag and exit with status 2", "[book]") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"-size", "5", "-count", "3"}, "-plies is missing"},
        {{"-size", "5", "-plies", "3"}, "-count is missing"},
        {{"-plies", "0", "-count", "3"}, "-plies must be between 1 and"},
        {{"-plies", "3", "-count", "many"}, "-count must be a whole number, got 'many'"},
        {{"-plies", "3", "-count", "3", "-srand", "-1"}, "-srand must be between 0 and"},
        {{"-plies", "3", "-count", "3", "-bogus"}, "unknown flag '-bogus'"},
        {{"-plies", "3", "-count", "3", "-format", "pgn"}, "-format pgn: expected moves or tps"},
        {{"-plies", "3", "-count", "3", "-out"}, "-out needs a value"},
        {{"-plies", "3", "-count", "3", "-size", "9"}, "-size 9"},
        {{"-plies", "3", "-count", "3", "-komi", "1.3"}, "-komi 1.3"},
        {{"-plies", "3", "-count", "3", "-game", "ur"}, "-game ur: no books"},
        {{"-plies", "3", "-count", "3", "-game", "chess"}, "-game chess: unknown game"},
        {{"-plies", "3", "-count", "3", "-maxeval", "50"}, "-maxeval needs an -engine"},
        {{"-plies", "3", "-count", "3", "-engine"}, "-engine needs key=value words"},
        {{"-plies", "3", "-count", "3", "-engine", "cmd=" + tak_binary}, "needs a limit: depth=, nodes= or st="},
        {{"-plies", "3", "-count", "3", "-engine", "cmd=" + tak_binary, "tc=10+0.1"}, "tc= has no meaning"},
        {{"-plies", "3", "-count", "3", "-engine", "depth=2"}, "cmd= is missing"},
        {{"-plies", "3", "-count", "3", "-engine", "cmd=" + tak_binary, "depth=x"}, "depth=x"},
        {{"-plies", "3", "-count", "3", "-engine", "cmd=" + tak_binary, "colour=red"}, "unknown key 'colour'"},
        {{"-plies", "3", "-count", "3", "-engine", "cmd=" + tak_binary, "depth=1", "-maxeval", "-5"},
         "-maxeval must be between 0 and"},
        {{"-plies", "3", "-count", "3", "-out", "/nonexistent/dir/book.txt"}, "-out /nonexistent/dir/book.txt"},
    };
    for (const auto& [extra, message] : cases) {
        const Run run = run_arbiter(book_arguments(extra));
        INFO(transcript(run));
        CHECK(run.status == 2);
        CHECK_THAT(run.errors, Catch::Contains(message));
        CHECK(run.lines.empty());
    }

    const Run help = run_arbiter({"book", "-help"});
    CHECK(help.status == 0);
    CHECK_FALSE(help.lines.empty());
}

TEST_CASE("arbiter book: -radius keeps Gomoku openings near the centre", "[book][gomoku]") {
    const Run run = run_arbiter(book_arguments({"-game", "gomoku", "-rule", "renju", "-plies", "3", "-count", "30",
                                                "-radius", "2", "-srand", "4"}));
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    REQUIRE(run.lines.size() == 30);
    std::set<std::string> seen;
    for (const std::string& line : run.lines) {
        std::istringstream moves(line);
        std::string move;
        int count = 0;
        while (moves >> move) {
            ++count;
            INFO(line);
            const int column = move[0] - 'a';           // h is the centre column (7)
            const int row = std::stoi(move.substr(1));  // 8 is the centre row
            CHECK(std::abs(column - 7) <= 2);
            CHECK(std::abs(row - 8) <= 2);
        }
        CHECK(count == 3);
        CHECK(seen.insert(line).second);
    }
    // A game without a centre to measure from refuses the flag.
    const Run tak = run_arbiter(book_arguments({"-plies", "3", "-count", "3", "-radius", "2"}));
    CHECK(tak.status == 2);
    CHECK_THAT(tak.errors, Catch::Contains("-radius"));
}
