// The endgame solver (engines/tak/endgame.hpp): hand-made flat races with known results, its
// answers against a plain full-width search on random late positions, and the engine printing a
// proof as `score mate N` through real pipes.

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "core/tak/tak.hpp"
#include "engine_session.hpp"
#include "engines/tak/endgame.hpp"
#include "tak_test_helpers.hpp"

using namespace bge;
using namespace bge::tak;
using bge::tak::testing::tps;
using bge::testing::EngineSession;
using bge::testing::words_of;

namespace {

// Hand-made 3x3 races, komi 0. In both, a3 holds six white pieces under a white flat that cannot
// move (its neighbours b3 and a2 are black walls), which uses up White's reserve without giving
// White a stack to spread.
//
// White has 9 pieces on the board, so one stone left; Black 3, seven left. Tops: White a3, c3, b2,
// a1 (4 flats, no road and no road in one), Black c2 (1 flat) and the walls; b1 and c1 empty.
// With White to move, its last stone ends the game at 5 against 1. With Black to move, Black
// cannot end the game (7 stones, two empty squares not in line with a black stack) and gains at
// most one flat or covers one of White's; then White's last stone ends it at 4 or more against 2
// at most: lost in two plies.
const std::string white_places_last = "111111,2S,1/2S,1,2/1,x2 1 10";
const std::string black_cannot_stop_it = "111111,2S,1/2S,1,2/1,x2 2 10";

// White has 2 stones left (8 pieces on the board), Black 7. Tops: White a3, c2, b1 (3 flats),
// Black a1 (1 flat) and the walls; c3, b2, c1 empty. White cannot end the game now (2 stones, 3
// empty squares, no road in one: every line through two white tops is blocked or needs two
// placements) and Black cannot end it in one move, so there is no win in 1 or 2 plies. In 3: any
// white flat (4 against 1, one stone left), then Black gains at most one flat or covers one of
// White's, then White's last stone ends the game at 4 or more against 2 at most.
const std::string white_wins_in_three = "111111,2S,x/2S,x,1/2,1,x 1 10";

// A plain full-width search for the same question the solver answers: can `attacker` force the
// game to end with at least a win (or a draw, with draw_ok) within `plies` plies? No table, no
// move ordering, no shortcut: every move of every node.
bool plain_forces(State& s, Side attacker, bool draw_ok, int plies) {
    if (plies <= 0) return false;
    MoveList<Tak> moves;
    generate_moves(s, moves);
    const bool attacking = s.side_to_move() == attacker;
    for (const Move& move : moves) {
        const Undo record = play(s, move);
        const Outcome o = outcome(s);
        bool reached;
        if (o.is_over())
            reached = o.is_win_for(attacker) || (draw_ok && o.kind == OutcomeKind::draw);
        else
            reached = plain_forces(s, attacker, draw_ok, plies - 1);
        undo(s, move, record);
        if (attacking && reached) return true;
        if (!attacking && !reached) return false;
    }
    return !attacking;
}

// Random games on `size`, placing more often than spreading so that most reach a flat race,
// stopped at the first position where the game could end within `placements` placements.
std::vector<State> late_positions(int size, int half_komi, int placements, int count, std::uint32_t seed) {
    std::mt19937 random(seed);
    std::vector<State> found;
    MoveList<Tak> moves;
    while (static_cast<int>(found.size()) < count) {
        Variant variant;
        variant.size = size;
        variant.half_komi = half_komi;
        State s = start_state(variant);
        while (!outcome(s).is_over()) {
            if (!s.in_opening() && placements_to_end(s) <= placements) {
                found.push_back(s);
                break;
            }
            generate_moves(s, moves);
            std::vector<Move> placements_only;
            for (const Move& move : moves)
                if (move.is_placement()) placements_only.push_back(move);
            const bool place = !placements_only.empty() && random() % 4 != 0;
            const std::vector<Move> all(moves.begin(), moves.end());
            const std::vector<Move>& pool = place ? placements_only : all;
            play(s, pool[random() % pool.size()]);
        }
    }
    return found;
}

std::string describe(const State& s) { return format_tps(s) + " komi " + std::to_string(s.half_komi); }

}  // namespace

TEST_CASE("the endgame solver proves hand-made flat races", "[tak][endgame]") {
    EndgameSolver solver;
    SECTION("the last stone, ahead: a win in one ply") {
        const EndgameResult result = solver.solve(tps(white_places_last), 9, 1'000'000);
        CHECK(result.value == EndgameValue::win);
        CHECK(result.plies == 1);
        REQUIRE(result.best);
        CHECK(result.best->is_placement());
        CHECK(result.best->stone() == Stone::flat);
    }
    SECTION("nothing Black does stops White's last stone: a loss in two plies") {
        const EndgameResult result = solver.solve(tps(black_cannot_stop_it), 9, 1'000'000);
        CHECK(result.value == EndgameValue::loss);
        CHECK(result.plies == 2);
        CHECK(result.best);
    }
    SECTION("two stones left and a safe lead: a win in three plies, not fewer") {
        const State position = tps(white_wins_in_three);
        CHECK_FALSE(solver.forces(position, false, 2));
        CHECK(solver.forces(position, false, 3));
        const EndgameResult result = solver.solve(position, 9, 1'000'000);
        CHECK(result.value == EndgameValue::win);
        CHECK(result.plies == 3);
        REQUIRE(result.best);
        // Any placement keeps the win (even a wall: 4 against 2 at most after the last stone).
        CHECK(result.best->is_placement());
    }
    SECTION("a budget too small to prove anything says so") {
        const EndgameResult result = solver.solve(tps(white_wins_in_three), 9, 3);
        CHECK(result.value == EndgameValue::unknown);
        CHECK_FALSE(result.best);
    }
}

TEST_CASE("the endgame solver agrees with a plain full-width search on random late positions", "[tak][endgame]") {
    struct Case {
        int size;
        int half_komi;
        int placements;
        int positions;
        int max_plies;
    };
    // 3x3 with and without a komi that allows draws, and 4x4: hundreds of positions in all.
    const Case cases[] = {{3, 0, 1, 200, 5}, {3, 0, 3, 200, 5}, {3, 3, 2, 150, 5}, {3, 2, 2, 150, 5}, {4, 4, 2, 100, 3}, {4, 1, 1, 50, 4}};
    std::uint32_t seed = 1;
    int proven_somewhere = 0;
    int tally[4] = {};
    for (const Case& c : cases) {
        for (State& position : late_positions(c.size, c.half_komi, c.placements, c.positions, seed++)) {
            EndgameSolver solver(1 << 14);
            for (int plies = 1; plies <= c.max_plies; ++plies) {
                for (const bool draw_ok : {false, true}) {
                    INFO(describe(position) << " plies " << plies << (draw_ok ? " draw" : " win"));
                    const bool expected = plain_forces(position, position.side_to_move(), draw_ok, plies);
                    CHECK(solver.forces(position, draw_ok, plies) == expected);
                    proven_somewhere += expected ? 1 : 0;
                }
            }
            // The whole solve: a proven value agrees with the plain search at its length.
            EndgameSolver fresh(1 << 14);
            const EndgameResult result = fresh.solve(position, c.max_plies, 10'000'000);
            INFO(describe(position));
            const Side us = position.side_to_move();
            ++tally[static_cast<int>(result.value)];
            switch (result.value) {
                case EndgameValue::win:
                    CHECK(plain_forces(position, us, false, result.plies));
                    CHECK_FALSE(plain_forces(position, us, false, result.plies - 1));
                    REQUIRE(result.best);
                    {
                        State after = position;
                        play(after, *result.best);
                        const Outcome o = outcome(after);
                        CHECK((o.is_win_for(us) ||
                               (!o.is_over() && plain_forces(after, us, false, result.plies - 1))));
                    }
                    break;
                case EndgameValue::loss:
                    CHECK(plain_forces(position, opponent(us), false, result.plies));
                    CHECK_FALSE(plain_forces(position, opponent(us), false, result.plies - 1));
                    REQUIRE(result.best);
                    {
                        // The longest resistance: after it the opponent needs all the remaining plies.
                        State after = position;
                        play(after, *result.best);
                        if (result.plies >= 2) CHECK_FALSE(plain_forces(after, opponent(us), false, result.plies - 2));
                    }
                    break;
                case EndgameValue::draw:
                    CHECK(plain_forces(position, us, true, result.depth));
                    CHECK(plain_forces(position, opponent(us), true, result.depth));
                    break;
                case EndgameValue::unknown:
                    CHECK_FALSE(plain_forces(position, us, false, c.max_plies));
                    CHECK_FALSE(plain_forces(position, opponent(us), false, c.max_plies));
                    break;
            }
        }
    }
    // The positions are late enough for the questions to matter: 335 wins and 27 losses are proven
    // (and one draw) with these seeds, the rest unknown within their plies.
    CHECK(proven_somewhere > 100);
    CHECK(tally[static_cast<int>(EndgameValue::win)] > 100);
    CHECK(tally[static_cast<int>(EndgameValue::loss)] > 10);
}

TEST_CASE("go on a proven flat race prints score mate and plays the proof", "[tak][endgame][protocol]") {
    EngineSession engine(BGE_TAK_BINARY);
    engine.send("tei");
    engine.until([](const std::string& line) { return line == "teiok"; });
    engine.send("teinewgame 3");
    engine.send("position tps " + white_wins_in_three);
    engine.send("go movetime 5000");
    auto lines = engine.until([](const std::string& line) { return line.rfind("bestmove ", 0) == 0; });
    REQUIRE(lines.size() >= 2);
    auto info = words_of(lines[lines.size() - 2]);
    REQUIRE(info.size() > 8);
    CHECK(info[5] == "score");
    CHECK(info[6] == "mate");
    CHECK(info[7] == "2");  // three plies: White, Black, White's last stone
    CHECK(lines[lines.size() - 2].find(" endgame") != std::string::npos);
    const std::string best = words_of(lines.back()).at(1);
    CHECK(info.back() == best);
    {
        State position = tps(white_wins_in_three);
        const auto move = parse_move(position, best);
        REQUIRE(move);
        play(position, *move);
        EndgameSolver solver;
        // After the engine's move Black, to move, is lost within two more plies.
        const EndgameResult reply = solver.solve(position, 4, 1'000'000);
        CHECK(reply.value == EndgameValue::loss);
        CHECK(reply.plies == 2);
    }

    // The losing side is told how soon: mate -1 (White's last stone comes next).
    engine.send("position tps " + black_cannot_stop_it);
    engine.send("go movetime 5000");
    lines = engine.until([](const std::string& line) { return line.rfind("bestmove ", 0) == 0; });
    REQUIRE(lines.size() >= 2);
    info = words_of(lines[lines.size() - 2]);
    REQUIRE(info.size() > 8);
    CHECK(info[6] == "mate");
    CHECK(info[7] == "-1");

    // Off, the main search answers instead (no endgame line).
    engine.send("setoption name EndgameSolver value false");
    engine.send("position tps " + white_wins_in_three);
    engine.send("go depth 3");
    lines = engine.until([](const std::string& line) { return line.rfind("bestmove ", 0) == 0; });
    for (const auto& line : lines) CHECK(line.find(" endgame") == std::string::npos);
    engine.send("quit");
    REQUIRE(engine.process().wait_for_exit(EngineSession::patience));
}
