// `arbiter analyse`: records of every game analysed by the real engines through the real arbiter
// binary; the annotated records read back with the core rules, the dataset's lines checked
// against the records, marks on a known blunder, resume after an engine died and after a cut
// line, shards that add up to the whole run, and records with illegal moves.

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/expendibots/game_log.hpp"
#include "core/tak/notation.hpp"
#include "core/tak/ptn_file.hpp"
#include "tests/arbiter_run.hpp"
#include "tools/arbiter/json.hpp"
#include "tools/arbiter/move_record.hpp"

using namespace bge;
using namespace bge::testing;
using arbiter::Json;

namespace {

const std::string tak_binary = BGE_TAK_BINARY;
const std::string gomoku_binary = BGE_GOMOKU_BINARY;
const std::string twixt_binary = BGE_TWIXT_BINARY;
const std::string ur_binary = BGE_UR_BINARY;
const std::string expendibots_binary = BGE_EXPENDIBOTS_BINARY;
const std::string fixtures = BGE_TEST_FIXTURES_DIR;

void write_file(const std::string& path, const std::string& text) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << text;
}

std::vector<Json> data_lines(const std::string& path) {
    std::vector<Json> lines;
    std::istringstream text(read_file(path));
    for (std::string line; std::getline(text, line);) {
        auto value = arbiter::json::parse(line);
        INFO(line);
        REQUIRE(value);
        lines.push_back(*value);
    }
    return lines;
}

// (game, ply) of every data line, in file order.
std::vector<std::pair<int, int>> positions_of(const std::vector<Json>& lines) {
    std::vector<std::pair<int, int>> positions;
    for (const Json& line : lines) positions.emplace_back(line.at("game").get<int>(), line.at("ply").get<int>());
    return positions;
}

// Two games on 5x5: the first with a blunder (Black lets White's road through at e1), the
// second a quiet game stopped after 6 plies.
const std::string blunder_ptn = R"([Size "5"]
[Komi "0"]
[Player1 "alice"]
[Player2 "bob"]
[Result "R-0"]

1. a5 a1
2. b1 e5
3. c1 e4
4. d1 e3
5. e1 R-0

[Size "5"]
[Komi "1.5"]
[Result "*"]

1. a1 e5
2. c3 c2
3. d3 b3
*
)";

std::vector<std::string> analyse_tak(const std::vector<std::string>& extra) {
    std::vector<std::string> arguments = {"analyse", "-game", "tak", "-engine", "cmd=" + tak_binary, "depth=3"};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
}

}  // namespace

TEST_CASE("arbiter analyse: a Tak record with a blunder, annotated and as a dataset", "[arbiter][analyse]") {
    const std::string records = scratch().file("analyse_blunder.ptn");
    const std::string out = scratch().file("analyse_blunder_out.ptn"), data = scratch().file("analyse_blunder.jsonl");
    write_file(records, blunder_ptn);
    const auto run = run_arbiter(analyse_tak({"-out", out, "-data", data, records}));
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    CHECK_THAT(run.errors, Catch::Contains("2 records, 16 positions searched"));

    // Every position that is not over: plies 0-8 of the first game (ply 9 is White's road), 0-6 of
    // the second.
    const auto lines = data_lines(data);
    REQUIRE(lines.size() == 16);
    std::set<std::pair<int, int>> expected;
    for (int ply = 0; ply <= 8; ++ply) expected.insert({1, ply});
    for (int ply = 0; ply <= 6; ++ply) expected.insert({2, ply});
    const auto found = positions_of(lines);
    CHECK(std::set(found.begin(), found.end()) == expected);

    auto games = tak::parse_ptn_games(read_file(records));
    REQUIRE(games);
    for (const Json& line : lines) {
        const int game = line.at("game").get<int>(), ply = line.at("ply").get<int>();
        INFO(arbiter::json::dump(line));
        const tak::PtnGame& record = (*games)[static_cast<std::size_t>(game - 1)];
        tak::State position = record.start;
        for (int i = 0; i < ply; ++i) tak::play(position, record.moves[static_cast<std::size_t>(i)]);
        CHECK(line.at("file").get<std::string>() == records);
        CHECK(line.at("position").get<std::string>() == tak::format_tps(position));
        CHECK(line.at("side").get<std::string>() == (ply % 2 == 0 ? "white" : "black"));
        CHECK(line.at("depth").get<int>() >= 1);
        CHECK(line.at("score_cp").is_number_integer());
        CHECK(tak::parse_move(position, line.at("best").get<std::string>()));
        // The PV is legal from the position, and starts with the best move.
        tak::State pv_position = position;
        for (const Json& move : line.at("pv")) {
            auto parsed = tak::parse_move(pv_position, move.get<std::string>());
            REQUIRE(parsed);
            tak::play(pv_position, *parsed);
        }
        if (!line.at("pv").empty()) CHECK(line.at("pv")[0].get<std::string>() == line.at("best").get<std::string>());
        if (static_cast<std::size_t>(ply) < record.moves.size())
            CHECK(line.at("played").get<std::string>() == tak::format_move(record.moves[static_cast<std::size_t>(ply)]));
        else
            CHECK(line.at("played").is_null());
        CHECK(line.at("result").get<std::string>() == (game == 1 ? "R-0" : "*"));
        CHECK(line.at("outcome").get<std::string>() == (game == 1 ? "p1win" : "none"));
        CHECK(line.at("limit").get<std::string>() == "depth=3");
        CHECK_THAT(line.at("engine").get<std::string>(), Catch::Contains("tak"));
    }
    // Before Black's 4... e3 the engine sees that White's road must be blocked; after it, White
    // wins at once.
    const auto before_blunder =
        std::find_if(lines.begin(), lines.end(), [](const Json& l) { return l.at("game") == 1 && l.at("ply") == 7; });
    REQUIRE(before_blunder != lines.end());
    CHECK(before_blunder->at("best").get<std::string>() != "e3");
    const auto after_blunder =
        std::find_if(lines.begin(), lines.end(), [](const Json& l) { return l.at("game") == 1 && l.at("ply") == 8; });
    REQUIRE(after_blunder != lines.end());
    CHECK(after_blunder->at("mate").get<int>() == 1);
    CHECK(after_blunder->at("best").get<std::string>() == "e1");

    // The annotated records read back as the same games, with the evaluations and the mark.
    const std::string annotated = read_file(out);
    auto again = tak::parse_ptn_games(annotated);
    INFO(annotated);
    REQUIRE(again);
    REQUIRE(again->size() == 2);
    for (std::size_t g = 0; g < 2; ++g) CHECK((*again)[g].moves == (*games)[g].moves);
    CHECK((*again)[0].tag("Player1") == std::optional<std::string>("alice"));
    CHECK((*again)[1].start.half_komi == 3);
    CHECK_THAT(annotated, Catch::Contains("e3?? {-M1/"));
    CHECK_THAT(annotated, Catch::Contains("best "));
    const std::regex evaluation(R"(^([+-]\d+\.\d\d|[+-]M\d+)/\d+( best \S+)?$)");
    for (std::size_t g = 0; g < 2; ++g) {
        const auto& comments = (*again)[g].comments;
        // The first game's last move ends it: no search after it, no comment.
        const std::size_t searched = g == 0 ? comments.size() - 1 : comments.size();
        for (std::size_t i = 0; i < searched; ++i) {
            INFO("game " << g + 1 << ", move " << i + 1 << ": " << comments[i]);
            CHECK(std::regex_match(comments[i], evaluation));
        }
    }
}

TEST_CASE("arbiter analyse: an engine that dies mid-run, then -resume; a cut last line", "[arbiter][analyse]") {
    const std::string records = scratch().file("analyse_resume.ptn");
    write_file(records, blunder_ptn);
    const std::string data = scratch().file("analyse_resume.jsonl"), out = scratch().file("analyse_resume_out.ptn");
    const std::string crashing = fixtures + "/arbiter_crashing_engine.sh";
    // The engine dies at its 5th search of every process: each restart gets 4 more positions.
    const auto first = run_arbiter({"analyse", "-engine", "cmd=" + crashing, "args=" + tak_binary + " 4", "depth=3",
                                    "name=crashy", "-data", data, "-out", out, records});
    INFO(transcript(first));
    CHECK(first.status == 1);
    CHECK_THAT(first.errors, Catch::Contains(records + ", game 1, ply 4: "));
    CHECK_THAT(first.errors, Catch::Contains("position left out"));
    const auto partial = positions_of(data_lines(data));
    CHECK(partial.size() < 16);
    CHECK(std::set(partial.begin(), partial.end()).size() == partial.size());

    // Without -resume the data file is not overwritten.
    const auto refused = run_arbiter(analyse_tak({"-data", data, records}));
    CHECK(refused.status == 2);
    CHECK_THAT(refused.errors, Catch::Contains("give -resume"));
    // Another limit cannot continue it.
    const auto other_limit = run_arbiter({"analyse", "-engine", "cmd=" + tak_binary, "depth=2", "-data", data,
                                          "-resume", records});
    CHECK(other_limit.status == 2);
    CHECK_THAT(other_limit.errors, Catch::Contains("analysed with depth=3"));

    // A run killed while writing leaves half a line: it is dropped and searched again.
    {
        std::ofstream append(data, std::ios::binary | std::ios::app);
        append << R"({"file": ")" << records << R"(", "game": 2, "pl)";
    }
    const auto resumed = run_arbiter(analyse_tak({"-data", data, "-out", out, "-resume", records}));
    INFO(transcript(resumed));
    REQUIRE(resumed.status == 0);
    CHECK_THAT(resumed.errors, Catch::Contains("cut short"));
    CHECK_THAT(resumed.errors, Catch::Contains(fmt::format("{} positions searched", 16 - partial.size())));
    const auto all = positions_of(data_lines(data));
    CHECK(all.size() == 16);
    CHECK(std::set(all.begin(), all.end()).size() == 16);
    CHECK_THAT(read_file(out), Catch::Contains("e3??"));

    // The same files named from another folder: nothing is searched again.
    const std::string folder = fs::path(records).parent_path().string();
    const auto again = run_arbiter(analyse_tak({"-data", fs::path(data).filename().string(), "-resume",
                                                "./" + fs::path(records).filename().string()}),
                                   folder);
    INFO(transcript(again));
    REQUIRE(again.status == 0);
    CHECK_THAT(again.errors, Catch::Contains("0 positions searched"));
    CHECK(data_lines(data).size() == 16);
}

TEST_CASE("arbiter analyse: shards add up to the whole run", "[arbiter][analyse]") {
    const std::string records = scratch().file("analyse_shards.ptn");
    write_file(records, blunder_ptn + "\n" + blunder_ptn);
    const std::string whole_out = scratch().file("analyse_whole.ptn"), whole_data = scratch().file("analyse_whole.jsonl");
    REQUIRE(run_arbiter(analyse_tak({"-out", whole_out, "-data", whole_data, "-concurrency", "2", records})).status == 0);
    std::string joined_records;
    std::vector<std::pair<int, int>> joined;
    for (int k = 1; k <= 3; ++k) {
        const std::string out = scratch().file(fmt::format("analyse_shard{}.ptn", k));
        const std::string data = scratch().file(fmt::format("analyse_shard{}.jsonl", k));
        const auto run = run_arbiter(analyse_tak({"-out", out, "-data", data, "-shard", fmt::format("{}/3", k), records}));
        INFO(transcript(run));
        REQUIRE(run.status == 0);
        if (!joined_records.empty() && !read_file(out).empty()) joined_records += '\n';
        joined_records += read_file(out);
        for (const auto& position : positions_of(data_lines(data))) joined.push_back(position);
    }
    // depth= is deterministic: the same analyses, whichever process and shard made them.
    CHECK(joined_records == read_file(whole_out));
    auto whole = positions_of(data_lines(whole_data));
    std::sort(whole.begin(), whole.end());
    std::sort(joined.begin(), joined.end());
    CHECK(joined == whole);
    CHECK(whole.size() == 32);
}

TEST_CASE("arbiter analyse: records with illegal moves and bad input", "[arbiter][analyse]") {
    const std::string records = scratch().file("analyse_illegal.ptn");
    write_file(records, R"([Size "5"]

1. a1 e5 2. c3 c3 3. d4 *

[Size "5"]

1. a1 e5 2. b2 *
)");
    const std::string data = scratch().file("analyse_illegal.jsonl"), out = scratch().file("analyse_illegal_out.ptn");
    const auto run = run_arbiter(analyse_tak({"-data", data, "-out", out, records}));
    INFO(transcript(run));
    CHECK(run.status == 0);
    CHECK_THAT(run.errors, Catch::Contains(records + ", game 1: line 3, move 4"));
    CHECK_THAT(run.errors, Catch::Contains("the moves before it are analysed"));
    // Game 1: plies 0-3 (the three legal moves and the position before the illegal one); game 2: 0-3.
    CHECK(data_lines(data).size() == 8);
    auto again = tak::parse_ptn_games(read_file(out));
    REQUIRE(again);
    CHECK(again->size() == 2);
    CHECK((*again)[0].moves.size() == 3);

    const auto missing_engine = run_arbiter({"analyse", "-data", data, records});
    CHECK(missing_engine.status == 2);
    CHECK_THAT(missing_engine.errors, Catch::Contains("-engine is missing"));
    const auto no_limit = run_arbiter({"analyse", "-engine", "cmd=" + tak_binary, "-data", data, records});
    CHECK(no_limit.status == 2);
    CHECK_THAT(no_limit.errors, Catch::Contains("needs a limit"));
    const auto clock = run_arbiter({"analyse", "-engine", "cmd=" + tak_binary, "tc=10+0.1", "-data", data, records});
    CHECK(clock.status == 2);
    const auto nothing_to_write = run_arbiter({"analyse", "-engine", "cmd=" + tak_binary, "depth=1", records});
    CHECK(nothing_to_write.status == 2);
    CHECK_THAT(nothing_to_write.errors, Catch::Contains("nothing to write"));
    const auto missing_file = run_arbiter(analyse_tak({"-data", scratch().file("x.jsonl"), scratch().file("none.ptn")}));
    CHECK(missing_file.status == 2);
    CHECK_THAT(missing_file.errors, Catch::Contains("none.ptn: cannot read the file"));
    write_file(scratch().file("garbage.ptn"), "[Size \"5\"\n1. a1 {unclosed");
    const auto garbage = run_arbiter(analyse_tak({"-data", scratch().file("y.jsonl"), scratch().file("garbage.ptn")}));
    CHECK(garbage.status == 2);
    CHECK_THAT(garbage.errors, Catch::Contains("garbage.ptn: game 1"));
    const auto dead = run_arbiter({"analyse", "-engine", "cmd=" + scratch().file("no_such_engine"), "depth=1", "-data",
                                   scratch().file("z.jsonl"), records});
    CHECK(dead.status == 1);
    CHECK_THAT(dead.errors, Catch::Contains("the analysis stops"));
}

TEST_CASE("arbiter analyse: every game's records, from a match's own records", "[arbiter][analyse]") {
    struct Case {
        std::string game;
        std::vector<std::string> variant;
        std::string binary;
        std::string limit;
        std::vector<std::string> match_engine;  // how the match that makes the records plays
    };
    const std::vector<Case> cases = {
        {"gomoku", {"-size", "9", "-rule", "standard"}, gomoku_binary, "depth=1", {"nodes=200"}},
        {"twixt", {"-size", "7"}, twixt_binary, "nodes=50", {"nodes=100"}},
        {"ur", {"-ruleset", "blitz", "-pieces", "2"}, ur_binary, "depth=1", {"option.Player=greedy", "depth=1"}},
        {"expendibots", {}, expendibots_binary, "depth=1", {"option.Player=random", "depth=1"}},
    };
    for (const Case& c : cases) {
        DYNAMIC_SECTION(c.game) {
            const std::string records = scratch().file("analyse_match_" + c.game + ".txt");
            std::vector<std::string> match = {"-game", c.game};
            match.insert(match.end(), c.variant.begin(), c.variant.end());
            for (int e = 0; e < 2; ++e) {
                match.push_back("-engine");
                match.push_back("cmd=" + c.binary);
                match.insert(match.end(), c.match_engine.begin(), c.match_engine.end());
            }
            match.insert(match.end(), {"-games", "2", "-maxmoves", "40", "-pgnout", records, "-srand", "3"});
            const auto played = run_arbiter(match);
            INFO(transcript(played));
            REQUIRE(played.status == 0);

            const std::string data = scratch().file("analyse_" + c.game + ".jsonl");
            const std::string out = scratch().file("analyse_" + c.game + "_out.txt");
            std::vector<std::string> analyse = {"analyse", "-game", c.game};
            analyse.insert(analyse.end(), c.variant.begin(), c.variant.end());
            analyse.insert(analyse.end(), {"-engine", "cmd=" + c.binary, c.limit, "-data", data, "-out", out, records});
            const auto run = run_arbiter(analyse);
            INFO(transcript(run));
            REQUIRE(run.status == 0);
            const auto lines = data_lines(data);
            REQUIRE(!lines.empty());
            std::set<int> games;
            for (const Json& line : lines) {
                games.insert(line.at("game").get<int>());
                CHECK(!line.at("best").get<std::string>().empty());
                CHECK(!line.at("position").get<std::string>().empty());
            }
            CHECK(games == std::set<int>{1, 2});
            // The annotated records are records of the same games.
            const std::string annotated = read_file(out);
            if (c.game == "expendibots") {
                auto logs = expendibots::parse_game_logs(annotated);
                auto original = expendibots::parse_game_logs(read_file(records));
                REQUIRE(logs);
                REQUIRE(original);
                REQUIRE(logs->size() == 2);
                for (std::size_t g = 0; g < 2; ++g) CHECK((*logs)[g].moves == (*original)[g].moves);
            } else {
                auto parsed = arbiter::parse_move_records(annotated);
                auto original = arbiter::parse_move_records(read_file(records));
                REQUIRE(parsed);
                REQUIRE(original);
                REQUIRE(parsed->size() == 2);
                for (std::size_t g = 0; g < 2; ++g) CHECK((*parsed)[g].moves == (*original)[g].moves);
            }
            if (c.game == "ur") CHECK(annotated.find('?') == std::string::npos);  // dice: no marks
        }
    }
}
