// Random Expendibots games, checking invariants at every ply (as OpenSpiel does for every game):
// the incremental hash equals a recomputed one, tokens are where the counts say, play then undo
// restores the position, FEN and every move text round-trip, the bulk count matches the list,
// and the game ends exactly when the reference referee says it does, with the same message.

#include <catch2/catch.hpp>

#include <cstring>

#include "core/game_record.hpp"
#include "core/random.hpp"
#include "expendibots_test_helpers.hpp"
#include "reference/expendibots_reference.hpp"

using namespace bge;
using namespace bge::expendibots;
using namespace bge::expendibots::testing;

namespace {

bool same_position(const State& a, const State& b) {
    return a.white == b.white && a.black == b.black && std::memcmp(a.height, b.height, sizeof a.height) == 0 &&
           a.hash == b.hash && a.actions == b.actions && a.tokens[0] == b.tokens[0] && a.tokens[1] == b.tokens[1] &&
           a.to_move == b.to_move && a.last_destroyed == b.last_destroyed;
}

void check_invariants(const State& s) {
    REQUIRE(s.hash == compute_hash(s));
    REQUIRE((s.white & s.black) == 0);
    int tokens[2] = {0, 0};
    for (int square = 0; square < square_count; ++square) {
        const bool occupied = (s.occupied() & bit(square)) != 0;
        REQUIRE(occupied == (s.height[square] > 0));
        REQUIRE(s.height[square] <= max_stack_height);
        if (occupied) tokens[(s.black & bit(square)) ? 1 : 0] += s.height[square];
    }
    REQUIRE(tokens[0] == s.tokens[0]);
    REQUIRE(tokens[1] == s.tokens[1]);
    const auto again = parse_fen(format_fen(s));
    REQUIRE(again);
    REQUIRE(again->hash == s.hash);
    REQUIRE(format_fen(*again) == format_fen(s));
}

}  // namespace

TEST_CASE("expendibots: random games keep every invariant", "[expendibots][random]") {
    Random random(7);
    int games_ended_by[4] = {0, 0, 0, 0};  // elimination, no tokens, repetition, turn limit
    for (int game = 0; game < 60; ++game) {
        GameRecord<Expendibots> record(start_state());
        auto referee = expendibots_reference::start();
        // Some games explode freely, others mostly move, so all endings turn up.
        const std::uint32_t boom_odds = game % 3 == 0 ? 1 : game % 3 == 1 ? 6 : 400;
        while (!record.outcome().is_over()) {
            State s = record.current();
            check_invariants(s);
            MoveList<Expendibots> moves;
            generate_moves(s, moves);
            REQUIRE(!moves.empty());
            REQUIRE(count_moves(s) == moves.size());
            for (const Move& move : moves) {
                REQUIRE(is_legal(s, move));
                REQUIRE(*parse_move(s, format_move(move)) == move);
                REQUIRE(*parse_move(s, format_action_tuple(move)) == move);
                REQUIRE(*parse_move(s, format_log_line(move)) == move);
                const State before = s;
                const Undo undo_record = play(s, move);
                REQUIRE(s.hash == compute_hash(s));
                undo(s, move, undo_record);
                REQUIRE(same_position(s, before));
            }
            Move move = moves[random.below(static_cast<std::uint32_t>(moves.size()))];
            for (int retry = 0; move.is_boom() && retry < 3 && random.below(boom_odds) != 0; ++retry)
                move = moves[random.below(static_cast<std::uint32_t>(moves.size()))];
            expendibots_reference::update(referee, s.to_move == Side::first, format_log_line(move));
            record.play(move);
            REQUIRE(record.outcome().is_over() == expendibots_reference::over(referee));
        }
        const Outcome end = record.outcome();
        check_invariants(record.current());
        // The same ending, in the referee's words; only a repetition on the 500th action would
        // differ (the referee names the repetition), and it would still be a draw.
        if (!(end.reason == "turn limit" && expendibots_reference::end(referee).find("4 times") != std::string::npos))
            REQUIRE(referee_result_message(end) == expendibots_reference::end(referee));
        games_ended_by[end.reason == "elimination" ? 0 : end.reason == "no tokens" ? 1 : end.reason == "repetition" ? 2 : 3]++;
    }
    CHECK(games_ended_by[0] > 0);
    CHECK(games_ended_by[2] + games_ended_by[3] > 0);
}
