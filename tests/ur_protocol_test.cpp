// The ur engine through real pipes: the handshake and options, positions with the roll, moves
// and rolls in the move list, the refusal to roll for itself, perft over chance nodes, every
// player, the solver subcommand and the perfect player's table, and clear errors for bad input.

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "arbiter_run.hpp"
#include "core/ur/ur.hpp"
#include "engine_session.hpp"
#include "engines/ur/td_network.hpp"

using namespace bge;
using bge::testing::EngineSession;
using bge::testing::run_program;
using bge::testing::scratch;
using bge::testing::transcript;
using bge::testing::words_of;
using Catch::Matchers::Contains;

namespace {

const std::string ur_binary = BGE_UR_BINARY;

std::string bestmove_of(EngineSession& engine, const std::string& go = "go depth 2") {
    engine.send(go);
    const auto lines = engine.until_prefix("bestmove");
    return words_of(lines.back()).at(1);
}

struct Command {
    int status = -1;
    std::string out;
};

Command run(const std::string& command) {
    Command result;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe);
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe)) result.out += buffer;
    const int status = pclose(pipe);
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

std::string last_line(const std::string& text) {
    std::string trimmed = text;
    while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
    return trimmed.substr(trimmed.rfind('\n') == std::string::npos ? 0 : trimmed.rfind('\n') + 1);
}

}  // namespace

TEST_CASE("ur protocol: handshake, positions with rolls, and moves", "[ur][protocol]") {
    EngineSession engine(ur_binary);
    engine.send("ugi");
    const auto handshake = engine.until([](const std::string& line) { return line == "ugiok"; });
    auto declares = [&](const std::string& text) {
        for (const auto& line : handshake)
            if (line.find(text) != std::string::npos) return true;
        return false;
    };
    CHECK(declares("option name Ruleset type combo default finkel"));
    CHECK(declares("option name Pieces type spin"));
    CHECK(declares("option name TablePath type string"));
    CHECK(declares("var perfect"));
    engine.send("uginewgame");
    // The only legal move after a 3 is entering on A2.
    engine.send("position startpos moves r3");
    CHECK(bestmove_of(engine) == "onA2");
    engine.send("position startpos moves r0");
    CHECK(bestmove_of(engine) == "pass");
    engine.send("position startpos moves r4 onA1");
    engine.send("query p1turn");
    CHECK(engine.until_prefix("response").back() == "response true");  // the rosette: Light again
    engine.send("position fen ....__../.L.D..../....__.. 6,0 6,0 l 2");
    CHECK(bestmove_of(engine) == "onA3");  // B2 -> B4 is blocked by the safe rosette
    engine.send("position fen ....__.L/......../....__.. 0,6 7,0 l 2");
    CHECK(bestmove_of(engine) == "A8off");
    engine.send("query gameover");
    CHECK(engine.until_prefix("response").back() == "response false");
    engine.send("position fen ....__.L/......../....__.. 0,6 7,0 l 2 moves A8off");
    engine.send("query result");
    CHECK(engine.until_prefix("response").back() == "response p1win");
    engine.finish();
}

TEST_CASE("ur protocol: perft expands chance nodes", "[ur][protocol][perft]") {
    EngineSession engine(ur_binary);
    engine.send("position startpos");
    engine.send("go perft 2");
    const auto lines = engine.until_prefix("nodes");
    CHECK(lines == std::vector<std::string>{"r0 5", "r1 5", "r2 5", "r3 5", "r4 8", "nodes 28"});
    engine.send("go perft 4");
    CHECK(engine.until_prefix("nodes").back() == "nodes 1492");
    engine.send("position startpos moves r4");
    engine.send("go perft 1");
    CHECK(engine.until_prefix("nodes").back() == "nodes 1");
    engine.finish();
}

TEST_CASE("ur protocol: bad input gets clear errors and the engine keeps going", "[ur][protocol]") {
    EngineSession engine(ur_binary);
    engine.send("position startpos");
    engine.expect_refused_go("go depth 2", "roll is due");
    engine.expect_error("position startpos moves onA3", "roll is due");
    engine.expect_error("position startpos moves r5", "r0 to r4");
    engine.expect_error("position startpos moves r2 onA4", "enters on A3");
    engine.expect_error("position startpos moves r2 onA3 r2 r2", "already known");
    engine.expect_error("position fen ....__../......../....__.. 7,0 7,0 l 9", "cannot be thrown");
    engine.expect_error("position fen ....__../......../....__.. 6,0 7,0 l 2", "not 7");
    engine.expect_error("position fen garbage", "5 fields");
    engine.expect_error("setoption name Ruleset value chess");
    engine.expect_error("setoption name Pieces value 9");
    // A masters game has no 0: r0 is refused there, and Pieces changes the count.
    engine.send("setoption name Ruleset value masters");
    engine.expect_error("position startpos moves r0", "cannot be thrown");
    engine.send("setoption name Pieces value 2");
    engine.send("position startpos");
    engine.send("d");
    const auto board = engine.sync();
    CHECK_THAT(board.back(), Contains("hash"));
    bool found = false;
    for (const auto& line : board) found = found || line.find("ruleset masters, 2 pieces") != std::string::npos;
    CHECK(found);
    // Still answering, with the last good position.
    engine.send("position startpos moves r1");
    CHECK(bestmove_of(engine) == "onA4");
    engine.finish();
}

TEST_CASE("ur protocol: every player picks a legal move", "[ur][protocol]") {
    EngineSession engine(ur_binary);
    const std::string position = "position fen L..L__../...DD.../DD.D__.. 4,1 2,0 d 3";
    for (const char* player : {"random", "greedy", "expectimax", "td"}) {
        INFO(player);
        engine.send(std::string("setoption name Player value ") + player);
        engine.send(position);
        const std::string move = bestmove_of(engine, "go depth 3");
        engine.send(position + " moves " + move);
        CHECK(engine.sync().empty());  // accepted: no error line
    }
    engine.send("setoption name Player value expectimax");
    engine.send(position);
    CHECK_FALSE(bestmove_of(engine, "go movetime 50").empty());
    engine.finish();
}

namespace {

// The score `go depth 1` reports for td with `net`: the best move's value, 1000 (2p - 1) from the
// mover's side, worked out here from the network directly.
int depth_one_score(const ur::TdNetwork& net, const ur::State& decision) {
    FixedVector<ur::Move, ur::max_legal_moves> moves;
    ur::generate_moves(decision, moves);
    double best = -2;
    for (const ur::Move& move : moves) {
        ur::State next = decision;
        ur::play(next, move);
        const double v = 2 * net.win_probability(next) - 1;
        best = std::max(best, next.to_move == decision.to_move ? v : -v);
    }
    return static_cast<int>(std::lround(best * 1000));
}

int reported_score(EngineSession& engine) {
    engine.send("go depth 1");
    const auto lines = engine.until_prefix("bestmove");
    REQUIRE(lines.size() >= 2);
    const auto words = words_of(lines[lines.size() - 2]);
    for (std::size_t i = 0; i + 2 < words.size(); ++i)
        if (words[i] == "score" && words[i + 1] == "cp") return std::stoi(words[i + 2]);
    FAIL("no score in " << lines[lines.size() - 2]);
    return 0;
}

}  // namespace

TEST_CASE("ur td: the ruleset's network, and TdWeights for the ruleset it was trained for", "[ur][protocol][td]") {
    const auto dir = std::filesystem::temp_directory_path() / "bge_ur_td_protocol_test";
    std::filesystem::create_directories(dir);
    const std::string weights = (dir / "masters.net").string();
    const auto file_net = ur::TdNetwork::random(ur::Ruleset::masters, ur::FeatureSet::rich, 8, 4,
                                                search::learning::Activation::relu, 5);
    REQUIRE(file_net.save(weights));
    const std::string masters_fen = "L..L__../...DD.../DD.D__.. 4,1 2,0 l 2";
    const std::string finkel_fen = "L..L__../...DD.../DD.D__.. 4,1 2,0 d 3";
    const auto masters = *ur::parse_position({ur::Ruleset::masters, 7}, masters_fen);
    const auto finkel = *ur::parse_position({ur::Ruleset::finkel, 7}, finkel_fen);

    EngineSession engine(ur_binary);
    engine.send("setoption name Player value td");
    engine.send("setoption name Ruleset value masters");
    engine.send("position fen " + masters_fen);
    CHECK(reported_score(engine) == depth_one_score(ur::builtin_td_network(ur::Ruleset::masters), masters));
    engine.send("setoption name TdWeights value " + weights);
    CHECK(reported_score(engine) == depth_one_score(file_net, masters));
    // A Finkel game keeps Finkel's own network: the file was trained for Masters.
    engine.send("setoption name Ruleset value finkel");
    engine.send("position fen " + finkel_fen);
    CHECK(reported_score(engine) == depth_one_score(ur::builtin_td_network(ur::Ruleset::finkel), finkel));
    engine.finish();
    std::filesystem::remove_all(dir);
}

TEST_CASE("ur td: a TdWeights file cut short or corrupt is refused and the built-in network plays",
          "[ur][protocol][td]") {
    const std::string fen = "L..L__../...DD.../DD.D__.. 4,1 2,0 l 2";
    const auto masters = *ur::parse_position({ur::Ruleset::masters, 7}, fen);
    const std::string good = ur::builtin_td_network(ur::Ruleset::masters).to_bytes();
    std::string corrupt = good;
    corrupt[good.size() / 2] ^= 0x01;
    const std::map<std::string, std::pair<std::string, std::string>> cases = {
        {"cut", {good.substr(0, good.size() / 3), "cut short"}},
        {"corrupt", {corrupt, "the checksum does not match: the file is corrupt"}},
    };
    for (const auto& [name, file] : cases) {
        INFO(name);
        const std::string path = scratch().file("ur_td_" + name + ".net");
        std::ofstream(path, std::ios::binary) << file.first;
        const auto played =
            run_program(ur_binary, {"setoption name Player value td", "setoption name Ruleset value masters",
                                    "setoption name TdWeights value " + path, "position fen " + fen, "go depth 1"});
        INFO(transcript(played));
        CHECK(played.status == 0);
        CHECK_THAT(played.errors, Contains("ur: TdWeights: " + path + ": " + file.second));
        CHECK_THAT(played.errors, Contains("using the built-in network"));
        REQUIRE(played.lines.size() == 2);
        CHECK_THAT(played.lines[0], Catch::StartsWith(fmt::format(
                                        "info depth 1 seldepth 0 score cp {} ",
                                        depth_one_score(ur::builtin_td_network(ur::Ruleset::masters), masters))));
        CHECK(played.lines[1] == "bestmove onA3");
    }
}

TEST_CASE("ur solve and the perfect player", "[ur][protocol][solver]") {
    const auto dir = std::filesystem::temp_directory_path() / "bge_ur_protocol_test";
    std::filesystem::create_directories(dir);
    const std::string table = (dir / "two.table").string();
    const Command solved = run(ur_binary + " solve --ruleset finkel --pieces 2 --out " + table + " 2>/dev/null");
    CHECK(solved.status == 0);
    CHECK_THAT(last_line(solved.out), Catch::StartsWith("light-win-probability-from-start 0.5185"));
    CHECK(run(ur_binary + " solve --ruleset chess --pieces 2 --out " + table + "x 2>&1").status == 2);
    const std::string masters_table = (dir / "two-masters.table").string();
    const Command masters =
        run(ur_binary + " solve --ruleset masters --pieces 2 --out " + masters_table + " 2>/dev/null");
    CHECK(masters.status == 0);
    CHECK_THAT(last_line(masters.out), Catch::StartsWith("light-win-probability-from-start 0."));
    CHECK(run(ur_binary + " solve --pieces 9 --out " + table + "x 2>&1").status == 2);
    CHECK(run(ur_binary + " solve --pieces 2 2>&1").status == 2);

    EngineSession engine(ur_binary);
    engine.send("setoption name Pieces value 2");
    engine.send("setoption name Player value perfect");
    engine.send("position startpos moves r2 onA3 r1");
    // No table yet: an error, and still exactly one (legal) bestmove.
    engine.send("go");
    auto lines = engine.until_prefix("bestmove");
    CHECK_THAT(lines.front(), Contains("TablePath"));
    engine.send("setoption name TablePath value " + (dir / "missing.table").string());
    engine.send("go");
    lines = engine.until_prefix("bestmove");
    CHECK_THAT(lines.front(), Contains("cannot open"));
    engine.send("setoption name TablePath value " + table);
    // Dark: enter on C4, or move... only entering is possible with a 1 here. The table's exact
    // score is reported in an info line (depth 1: one look-up per move), as docs/ur.md says.
    engine.send("go");
    lines = engine.until_prefix("bestmove");
    REQUIRE(lines.size() == 2);
    CHECK_THAT(lines[0], Catch::StartsWith("info depth 1 seldepth 0 score cp -69 nodes 1 "));
    CHECK_THAT(lines[0], Catch::EndsWith(" pv onC4"));
    CHECK(lines[1] == "bestmove onC4");
    // A race decided by the table: capture rather than run.
    engine.send("position fen ....__../L.D...../....__.. 1,0 1,0 l 2");
    engine.send("go");
    lines = engine.until_prefix("bestmove");
    REQUIRE(lines.size() == 2);
    CHECK_THAT(lines[0], Catch::StartsWith("info depth 1 seldepth 0 score cp 190 nodes 2 "));
    CHECK_THAT(lines[0], Catch::EndsWith(" pv B1B3"));
    CHECK(lines[1] == "bestmove B1B3");
    engine.send("setoption name Pieces value 3");
    engine.send("position startpos moves r2");
    engine.send("go");
    lines = engine.until_prefix("bestmove");
    CHECK_THAT(lines.front(), Contains("2 pieces"));
    // A table of another ruleset is refused by name.
    engine.send("setoption name Pieces value 2");
    engine.send("setoption name TablePath value " + masters_table);
    engine.send("position startpos moves r2");
    engine.send("go");
    lines = engine.until_prefix("bestmove");
    CHECK_THAT(lines.front(), Contains("the table solves masters with 2 pieces; this game is finkel with 2"));
    engine.finish();
    std::filesystem::remove_all(dir);
}
