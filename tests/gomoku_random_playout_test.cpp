// Random games on every rule set and several board shapes, checking invariants at every ply (as
// OpenSpiel does for every game): the incremental hash equals a recomputed one, play then undo
// restores the position, the position text round-trips, the move count matches the list, the
// search board's incremental patterns equal a rebuilt one, and the outcome agrees with a scan.

#include <catch2/catch.hpp>

#include "core/gomoku/gomoku.hpp"
#include "core/random.hpp"
#include "engines/gomoku/board.hpp"
#include "engines/gomoku/playout.hpp"

using namespace bge;
using namespace bge::gomoku;

namespace {

void require_same_features(const SearchBoard& rebuilt, const SearchBoard& incremental) {
    REQUIRE(rebuilt.lines == incremental.lines);
    REQUIRE(rebuilt.near == incremental.near);
    REQUIRE(rebuilt.threat == incremental.threat);
    REQUIRE(rebuilt.value == incremental.value);
    REQUIRE(rebuilt.value_sum[0] == incremental.value_sum[0]);
    REQUIRE(rebuilt.value_sum[1] == incremental.value_sum[1]);
    REQUIRE(rebuilt.line_patterns == incremental.line_patterns);
    REQUIRE(rebuilt.pattern_count == incremental.pattern_count);
    REQUIRE(rebuilt.threat_count == incremental.threat_count);
    REQUIRE(rebuilt.class_count == incremental.class_count);
}

void check_search_board(const SearchBoard& incremental) { require_same_features(SearchBoard(incremental.rules), incremental); }

void check_invariants(const State& s) {
    REQUIRE(s.hash == compute_hash(s));
    MoveList<Gomoku> moves;
    generate_moves(s, moves);
    REQUIRE(moves.size() == count_moves(s));
    const std::string text = format_position(s);
    auto again = parse_position(text, variant_of(s));
    REQUIRE(again);
    REQUIRE(format_position(*again) == text);
    REQUIRE(again->hash == s.hash);
}

}  // namespace

TEST_CASE("gomoku: random games keep every invariant", "[gomoku][random]") {
    struct Setup {
        Variant variant;
        int games;
    };
    const Setup setups[] = {
        {{15, 15, 5, Rule::freestyle, 0}, 12}, {{15, 15, 5, Rule::standard, 0}, 8},
        {{15, 15, 5, Rule::renju, 0}, 12},     {{7, 5, 4, Rule::freestyle, 0}, 20},
        {{3, 3, 3, Rule::freestyle, 0}, 30},   {{19, 9, 5, Rule::freestyle, 60}, 6},
    };
    Random random(2026);
    for (const Setup& setup : setups) {
        INFO("variant " << setup.variant.width << "x" << setup.variant.height << " k=" << setup.variant.k);
        for (int game = 0; game < setup.games; ++game) {
            State s = start_state(setup.variant);
            SearchBoard board(s);
            std::vector<std::pair<Move, Undo>> played;
            while (!outcome(s).is_over()) {
                check_invariants(s);
                MoveList<Gomoku> moves;
                generate_moves(s, moves);
                REQUIRE_FALSE(moves.empty());
                const Move move = moves[random.below(static_cast<std::uint32_t>(moves.size()))];
                // play then undo restores everything, on both views
                const State before = s;
                const Undo record = play(s, move);
                undo(s, move, record);
                REQUIRE(s.cells == before.cells);
                REQUIRE(s.hash == before.hash);
                REQUIRE(s.stones == before.stones);
                REQUIRE(s.last == before.last);
                const SearchBoard board_before = board;
                const Undo board_record = GomokuSearch::play(board, move);
                GomokuSearch::undo(board, move, board_record);
                require_same_features(board_before, board);
                play(s, move);
                played.push_back({move, GomokuSearch::play(board, move)});
                REQUIRE(board.rules.hash == s.hash);
                if (s.stones % 7 == 0) check_search_board(board);
                // A win is exactly a winning line through the last stone under the rule.
                if (outcome(s).kind == OutcomeKind::win && outcome(s).reason != "forbidden")
                    REQUIRE(outcome(s).winner == opponent(s.side_to_move()));
            }
            check_search_board(board);
            // Taking the whole game back, stone by stone, restores the start exactly.
            for (auto it = played.rbegin(); it != played.rend(); ++it) GomokuSearch::undo(board, it->first, it->second);
            require_same_features(SearchBoard(start_state(setup.variant)), board);
            REQUIRE(board.rules.hash == start_state(setup.variant).hash);
            // The finished position reads back as finished (forbidden fouls excepted: the scan
            // cannot tell which stone was the foul).
            if (outcome(s).reason != "forbidden" && outcome(s).reason != "move limit") {
                auto again = parse_position(format_position(s), variant_of(s));
                REQUIRE(again);
                CHECK(outcome(*again).kind == outcome(s).kind);
            }
        }
    }
}

TEST_CASE("gomoku: fast playouts agree with the rules", "[gomoku][random]") {
    // Replaying a playout's choices through play() must give the same end: use the same
    // generator twice, once in random_playout and once stepping the rules by hand.
    for (const Rule rule : {Rule::freestyle, Rule::standard, Rule::renju}) {
        Variant variant;
        variant.rule = rule;
        const State start = start_state(variant);
        for (int game = 0; game < 20; ++game) {
            Random fast(static_cast<std::uint64_t>(game) + 1), slow(static_cast<std::uint64_t>(game) + 1);
            const PlayoutResult result = random_playout(start, fast);
            State s = start;
            std::uint16_t free_cells[max_board_cells];
            int count = 0;
            for (int y = 0; y < s.height; ++y)
                for (int x = 0; x < s.width; ++x) free_cells[count++] = static_cast<std::uint16_t>(square_at(x, y));
            int plies = 0;
            while (!outcome(s).is_over()) {
                const std::uint32_t pick = slow.below(static_cast<std::uint32_t>(count));
                const Move move{free_cells[pick]};
                free_cells[pick] = free_cells[--count];
                play(s, move);
                ++plies;
            }
            INFO("rule " << rule_name(rule) << " game " << game);
            CHECK(plies == result.plies);
            const Outcome end = outcome(s);
            CHECK(result.winner == (end.kind == OutcomeKind::win ? index_of(end.winner) : -1));
        }
    }
}
