// Ur rules for the three rulesets: captures, rosette safety, extra rolls, passes, exact bearing
// off, own pieces blocking, the end of the game, the dice, and the text codecs.

#include <catch2/catch.hpp>

#include "core/random.hpp"
#include "ur_test_helpers.hpp"

using namespace bge;
using namespace bge::ur;
using bge::testing::ur_after;
using bge::testing::ur_legal;
using bge::testing::ur_position;
using bge::testing::ur_refusal;
using Catch::Matchers::Contains;

TEST_CASE("ur: the start position and the dice", "[ur][rules]") {
    const State start = start_state({});
    CHECK(format_position(start) == "....__../......../....__.. 7,0 7,0 l -");
    CHECK(is_chance_node(start));
    CHECK(ur_legal(start).empty());  // the dice move first
    double total = 0;
    for (const Roll& roll : roll_outcomes(Ruleset::finkel)) total += roll.probability;
    CHECK(total == Approx(1.0));
    CHECK(roll_outcomes(Ruleset::finkel)[2].probability == Approx(6.0 / 16));
    // Masters: three dice, a throw of 0 counts as 4.
    const auto masters = roll_outcomes(Ruleset::masters);
    REQUIRE(masters.size() == 4);
    CHECK(masters[0].number == 1);
    CHECK(masters[3].number == 4);
    CHECK(masters[3].probability == Approx(1.0 / 8));
    CHECK_THAT(ur_refusal(start_state({Ruleset::masters, 7}), "r0"), Contains("cannot be thrown"));
    CHECK(start_state({Ruleset::blitz, 0}).pieces == 5);
    // A new piece enters at path index roll - 1.
    CHECK(ur_legal(ur_after(start, "r1")) == std::vector<std::string>{"onA4"});
    CHECK(ur_legal(ur_after(start, "r3")) == std::vector<std::string>{"onA2"});
    CHECK(ur_legal(ur_after(ur_after(ur_after(start, "r0"), "pass"), "r2")) == std::vector<std::string>{"onC3"});
}

TEST_CASE("ur: a capture sends the piece home and passes the turn", "[ur][rules]") {
    const State before = ur_position("....__../L.D...../....__.. 6,0 6,0 l 2");
    const State after = ur_after(before, "B1B3");
    CHECK(format_position(after) == "....__../..L...../....__.. 6,0 7,0 d -");
    CHECK(after.to_move == Side::second);
    // Blitz: a capture also gives another roll.
    const State blitz = ur_after(ur_position("....__../L.D...../....__.. 4,0 4,0 l 2", Ruleset::blitz), "B1B3");
    CHECK(blitz.to_move == Side::first);
    CHECK(blitz.waiting[1] == 5);
}

TEST_CASE("ur: rosette safety in each ruleset", "[ur][rules]") {
    const std::string text = "....__../.L.D..../....__.. 6,0 6,0 l 2";
    // Finkel: the piece on B4 is safe, so B4 blocks.
    const State finkel = ur_position(text);
    CHECK_THAT(ur_refusal(finkel, "B2B4"), Contains("safe"));
    CHECK(ur_legal(finkel) == std::vector<std::string>{"onA3"});
    // Masters and Blitz: rosettes are not safe; landing there captures and rolls again.
    for (Ruleset ruleset : {Ruleset::masters, Ruleset::blitz}) {
        const State state = ur_position(text, ruleset, 7);
        const State after = ur_after(state, "B2B4");
        CHECK(after.waiting[1] == 7);
        CHECK(after.to_move == Side::first);
    }
}

TEST_CASE("ur: a rosette gives another roll", "[ur][rules]") {
    const State entered = ur_after(ur_after(start_state({}), "r4"), "onA1");
    CHECK(entered.to_move == Side::first);
    CHECK(is_chance_node(entered));
    const State plain = ur_after(ur_after(start_state({}), "r3"), "onA2");
    CHECK(plain.to_move == Side::second);
    // Masters: Light's path runs through C7 (Dark's rosette) after B7.
    const State masters = ur_after(ur_position("....__../......L./....__.. 6,0 7,0 l 1", Ruleset::masters, 7), "B7C7");
    CHECK(masters.to_move == Side::first);
}

TEST_CASE("ur: passing only on 0 or when nothing can move", "[ur][rules]") {
    const State zero = ur_position("....__../L......./....__.. 6,0 7,0 l 0");
    CHECK(ur_legal(zero) == std::vector<std::string>{"pass"});
    CHECK_THAT(ur_refusal(zero, "B1B2"), Contains("roll of 0"));
    // The last piece on A7 needs exactly 1: any other roll passes.
    const State stuck = ur_position("....__.L/......../....__.. 0,6 7,0 l 3");
    CHECK(ur_legal(stuck) == std::vector<std::string>{"pass"});
    CHECK(ur_after(stuck, "pass").to_move == Side::second);
    const State can_move = ur_position("....__../L......./....__.. 6,0 7,0 l 1");
    CHECK_THAT(ur_refusal(can_move, "pass"), Contains("only allowed when no piece can move"));
}

TEST_CASE("ur: bearing off needs the exact roll and ends the game", "[ur][rules]") {
    const State a8 = ur_position("....__.L/......../....__.. 0,6 7,0 l 2");
    CHECK(ur_legal(a8) == std::vector<std::string>{"A8off"});
    const State won = ur_after(a8, "A8off");
    CHECK(outcome(won).is_win_for(Side::first));
    CHECK_FALSE(is_chance_node(won));
    CHECK(result_text(outcome(won)) == "1-0");
    const State over = ur_position("....__.L/......../....__.. 0,6 7,0 l 3");
    CHECK_THAT(ur_refusal(over, "A8off"), Contains("does not bear off"));
    CHECK(ur_legal(ur_position("....__L./......../....__.. 0,6 7,0 l 1")) == std::vector<std::string>{"A7off"});
}

TEST_CASE("ur: a piece may not land on its own piece", "[ur][rules]") {
    const State state = ur_position("L.L.__../......../....__.. 5,0 7,0 l 2");
    CHECK_THAT(ur_refusal(state, "A3A1"), Contains("own piece"));
    CHECK_THAT(ur_refusal(state, "onA3"), Contains("own piece"));  // a 2 enters on A3, which is taken
    CHECK_THAT(ur_refusal(state, "onA2"), Contains("enters on A3"));
    CHECK(ur_legal(state) == std::vector<std::string>{"A1B2"});
}

TEST_CASE("ur: bad positions and moves get clear errors", "[ur][notation]") {
    const Variant finkel{};
    auto error_of = [&](const std::string& text) {
        auto parsed = parse_position(finkel, text);
        return parsed ? std::string() : parsed.error();
    };
    CHECK_THAT(error_of("....__../......../....__.. 7,0 7,0 l"), Contains("5 fields"));
    CHECK_THAT(error_of("....__../......../....__.. 6,0 7,0 l -"), Contains("not 7"));
    CHECK_THAT(error_of("....L_../......../....__.. 6,0 7,0 l -"), Contains("does not exist"));
    CHECK_THAT(error_of("....__../......../L...__.. 6,0 7,0 l -"), Contains("outside its finkel path"));
    CHECK_THAT(error_of("....__../......../....__.. 7,0 7,0 l 5"), Contains("cannot be thrown"));
    CHECK_THAT(error_of("....__../......../....__.. 7,0 7,0 x -"), Contains("side to move"));
    CHECK_THAT(error_of("....__../......../....__.. 7,0 7,0 l ?"), Contains("roll"));
    CHECK_THAT(error_of("....__../.......X/....__.. 7,0 7,0 l -"), Contains("'X'"));
    CHECK_THAT(error_of("....__../......../....__.. 0,7 0,7 l -"), Contains("both sides"));
    CHECK_THAT(error_of("....__../......../....__.. 0,7 7,0 l 2"), Contains("game is over"));
    const State start = start_state({});
    CHECK_THAT(ur_refusal(start, "onA3"), Contains("roll is due"));
    CHECK_THAT(ur_refusal(start, "r7"), Contains("r0 to r4"));
    CHECK_THAT(ur_refusal(ur_after(start, "r2"), "r2"), Contains("already known"));
    CHECK_THAT(ur_refusal(ur_after(start, "r2"), "A5A6"), Contains("not on the board"));
    CHECK_THAT(ur_refusal(ur_after(start, "r2"), "C3C1"), Contains("not on light's path"));
    CHECK_THAT(ur_refusal(ur_after(start, "r2"), "hello"), Contains("not a move"));
}

TEST_CASE("ur: random games keep every invariant and the text round-trips", "[ur][rules]") {
    Random random(2024);
    for (Ruleset ruleset : {Ruleset::finkel, Ruleset::masters, Ruleset::blitz}) {
        for (int game = 0; game < 60; ++game) {
            State state = start_state({ruleset, 0});
            int plies = 0;
            while (!outcome(state).is_over() && plies < 5000) {
                ++plies;
                auto parsed = parse_position(state.variant(), format_position(state));
                REQUIRE(parsed);
                REQUIRE(*parsed == state);
                REQUIRE(validate(state));
                if (is_chance_node(state)) {
                    const auto rolls = roll_outcomes(ruleset);
                    play(state, Move::make_roll(rolls[random.below(static_cast<std::uint32_t>(rolls.size()))].number));
                    continue;
                }
                FixedVector<Move, max_legal_moves> moves;
                generate_moves(state, moves);
                REQUIRE(!moves.empty());
                for (const Move& move : moves) {
                    auto back = parse_move(state, format_move(state, move));
                    REQUIRE(back);
                    CHECK(*back == move);
                }
                play(state, moves[random.below(static_cast<std::uint32_t>(moves.size()))]);
            }
            REQUIRE(outcome(state).is_over());
            CHECK(state.scored[index_of(outcome(state).winner)] == state.pieces);
        }
    }
}
