// The Tak evaluation's parts, each checked against something derived independently: immediate
// wins and road distances against brute force over every move or square, features on positions
// counted by hand, the weights text and the shipped weights file (engines/tak/nets/eval_weights.txt),
// and the tinuë search against an exhaustive AND-OR search.

#include <catch2/catch.hpp>

#include <deque>
#include <map>

#include "core/random.hpp"
#include "core/tak/tak.hpp"
#include "engines/tak/eval_features.hpp"
#include "engines/tak/evaluation.hpp"
#include "engines/tak/nets/embedded.hpp"
#include "engines/tak/roads.hpp"
#include "engines/tak/tinue.hpp"
#include "engines/tak/tinue_pns.hpp"
#include "tak_test_helpers.hpp"
#include "weights_file_checks.hpp"

using namespace bge;
using namespace bge::tak;
using namespace bge::tak::testing;

namespace {

// Positions from random games on every size: some early, many late, where roads are near.
std::vector<State> random_positions(int count, std::uint64_t seed) {
    std::vector<State> positions;
    Random random(seed);
    MoveList<Tak> moves;
    while (static_cast<int>(positions.size()) < count) {
        Variant variant;
        variant.size = 3 + static_cast<int>(random.below(6));
        variant.half_komi = static_cast<int>(random.below(5));
        State s = start_state(variant);
        const int plies =
            2 + static_cast<int>(random.below(static_cast<std::uint32_t>(variant.size * variant.size * 2)));
        for (int ply = 0; ply < plies && !outcome(s).is_over(); ++ply) {
            generate_moves(s, moves);
            play(s, moves[random.below(static_cast<std::uint32_t>(moves.size()))]);
        }
        if (!outcome(s).is_over()) positions.push_back(s);
    }
    return positions;
}

// Every move `side` could make here, as if it were its turn.
State with_turn(const State& s, Side side) {
    State copy = s;
    if (copy.side_to_move() != side) play_null(copy);
    return copy;
}

bool placement_or_road_win(const State& s, Move move, Side mover) {
    State t = s;
    play(t, move);
    const Outcome o = outcome(t);
    if (!o.is_win_for(mover)) return false;
    // winning_move covers every road, and the game's end on flats by a placement; a spread that
    // fills the board and wins on flats is left to the search.
    return move.is_placement() || has_road(t, mover);
}

struct Collect {
    std::map<int, int> values;
    void add(int index, int value) { values[index] += value; }
    int at(features::BlockId block, int element = 0) const {
        const auto found = values.find(features::index_of(block, element));
        return found == values.end() ? 0 : found->second;
    }
};

Collect features_of(const State& s) {
    Collect collect;
    features::extract(s, collect);
    return collect;
}

// Fewest placements joining the two edges of one axis, by Dijkstra over squares (own road pieces
// cost 0, empty squares 1, anything else is impassable); limit + 1 when further or impossible.
int brute_distance(const State& s, Side side, int axis, int limit) {
    const int n = s.size;
    auto cost = [&](int column, int row) {
        const Bitboard b = bit(square_at(column, row));
        if (s.road_squares(side) & b) return 0;
        if (!(s.occupied() & b)) return 1;
        return 1000;
    };
    std::vector<int> best(64, 1 << 20);
    std::deque<std::pair<int, int>> queue;  // (column, row), 0-1 BFS
    for (int i = 0; i < n; ++i) {
        const int column = axis == 0 ? i : 0;
        const int row = axis == 0 ? 0 : i;
        const int c = cost(column, row);
        if (c >= 1000) continue;
        best[square_at(column, row)] = c;
        if (c == 0)
            queue.push_front({column, row});
        else
            queue.push_back({column, row});
    }
    while (!queue.empty()) {
        const auto [column, row] = queue.front();
        queue.pop_front();
        const int here = best[square_at(column, row)];
        const int steps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (const auto& step : steps) {
            const int c2 = column + step[0], r2 = row + step[1];
            if (c2 < 0 || r2 < 0 || c2 >= n || r2 >= n) continue;
            const int c = cost(c2, r2);
            if (c >= 1000 || here + c >= best[square_at(c2, r2)]) continue;
            best[square_at(c2, r2)] = here + c;
            if (c == 0)
                queue.push_front({c2, r2});
            else
                queue.push_back({c2, r2});
        }
    }
    int result = 1 << 20;
    for (int i = 0; i < n; ++i)
        result = std::min(result, axis == 0 ? best[square_at(i, n - 1)] : best[square_at(n - 1, i)]);
    return std::min(result, limit + 1);
}

}  // namespace

TEST_CASE("winning_move finds a win on the spot exactly when one exists, for either side", "[tak][eval]") {
    int wins_found = 0, spread_wins = 0;
    for (State s : random_positions(2500, 17)) {
        for (Side side : {Side::first, Side::second}) {
            if (s.in_opening()) continue;
            const State turn = with_turn(s, side);
            MoveList<Tak> moves;
            generate_moves(turn, moves);
            bool exists = false;
            for (Move move : moves) exists = exists || placement_or_road_win(turn, move, side);
            State probe = s;
            const Move found = winning_move(probe, side);
            INFO(format_tps(s) << " side " << index_of(side));
            REQUIRE(format_tps(probe) == format_tps(s));  // played on and restored
            REQUIRE(probe.hash == s.hash);
            CHECK(exists == !(found == Move::none()));
            if (!(found == Move::none())) {
                ++wins_found;
                REQUIRE(is_legal(turn, found));
                CHECK(placement_or_road_win(turn, found, side));
                if (!found.is_placement()) ++spread_wins;
            }
            // The placement squares alone.
            Bitboard brute_squares = 0;
            if (pieces_left(turn, side) > 0)
                for (Move move : moves)
                    if (move.is_placement() && move.stone() != Stone::wall) {
                        State t = turn;
                        play(t, move);
                        if (has_road(t, side)) brute_squares |= bit(move.square());
                    }
            CHECK(road_in_one_squares(s, side) == brute_squares);
        }
    }
    CHECK(wins_found > 200);  // the sample has wins of both kinds
    CHECK(spread_wins > 5);
}

TEST_CASE("road_distance counts the fewest placements to a road", "[tak][eval]") {
    for (const State& s : random_positions(400, 23)) {
        for (Side side : {Side::first, Side::second}) {
            int per_axis[2];
            const int distance = road_distance(s, side, 5, per_axis);
            INFO(format_tps(s) << " side " << index_of(side));
            CHECK(per_axis[0] == brute_distance(s, side, 0, 5));
            CHECK(per_axis[1] == brute_distance(s, side, 1, 5));
            CHECK(distance == std::min(per_axis[0], per_axis[1]));
        }
    }
    // By hand: three White flats in a row of five need two more; Black's lone flat needs four.
    const State s = tps("x5/x5/x,1,1,1,x/x5/2,x4 1 5");
    CHECK(road_distance(s, Side::first, 5) == 2);
    CHECK(road_distance(s, Side::second, 5) == 4);
    CHECK(road_distance(s, Side::second, 2) == 3);  // beyond the limit: limit + 1
}

TEST_CASE("the features of a hand-made position", "[tak][eval]") {
    // 5x5, White to move. a1 White flat; e1 Black flat; b3 a Black flat on a White flat; c5 a
    // White wall; d2 White's capstone on a Black flat. Komi 2 for Black.
    const State s = tps("x2,1S,x2/x5/x,12,x3/x3,21C,x/1,x3,2 1 5", 4);
    const Collect f = features_of(s);
    using namespace features;
    // Square classes on 5x5: a1 and e1 are corners (0); b3 is (1, 2) from the edges (4); c5 is
    // (2, 0) (3); d2 is (1, 1) (2).
    CHECK(f.at(flat_psqt_us, 0) == 1);
    CHECK(f.at(flat_psqt_them, 0) == 1);
    CHECK(f.at(flat_psqt_them, 4) == 1);
    CHECK(f.at(wall_psqt_us, 3) == 1);
    CHECK(f.at(cap_psqt_us, 2) == 1);
    CHECK(f.at(hard_cap_us, 1) == 1);  // the capstone sits on a Black piece
    CHECK(f.at(captives_us, 2) == 1);
    CHECK(f.at(captives_them, 0) == 1);
    CHECK(f.at(supports_us, 0) == 0);
    // Reserves: White used a1, c5, b3's bottom (3 stones) and the capstone: 18 + 0; Black used
    // e1, b3's top and d2's bottom: 18 + 1.
    CHECK(f.at(reserves_us) == 18);
    CHECK(f.at(reserves_them) == 19);
    // Flats on top: White a1 (the capstone and the wall do not count): 1; Black e1, b3: 2. In
    // half flats for White: 2 * (1 - 2) - 4 = -6; komi is Black's: -4 for White.
    CHECK(f.at(flat_lead) == -6);
    CHECK(f.at(komi) == -4);
    CHECK(f.at(tempo) == 1);
    // Black leads by 6 half flats and ends the game soonest in 11 placements (20 empty squares,
    // Black's share 10, plus one; 19 pieces left): -6 * 16 / 11, truncated.
    CHECK(f.at(race_control, 0) == 0);
    CHECK(f.at(race_control, 1) == -8);
    // White's road pieces: a1 and d2 (the wall is not one): two groups of span 1.
    CHECK(f.at(spans_us, 0) == 2);
    CHECK(f.at(groups_us) == 2);
    CHECK(f.at(threats_them, 0) == 0);
    // Every row and column is counted once per side.
    int lines = 0;
    for (int i = 0; i < 27; ++i) lines += f.at(lines_us, i);
    CHECK(lines == 10);
    // Distances: by Dijkstra above, checked here by hand: White needs 3 more placements for a
    // row (a1 + four), best row 2 via d2: b2 c2 e2 and a2: 4; column d: d1 d3 d4 d5: 4; row 1:
    // b1 c1 d1 (e1 is Black's): impossible; White's best is 4.
    CHECK(road_distance(s, Side::first, 5) == 4);
    CHECK(f.at(distance_us, 3) == 1);
    CHECK(phase(s) >= 0);
    CHECK(phase(s) < 32);  // 6 of 25 squares filled: early
}

TEST_CASE("race_control weighs a lead by the placements the leader needs to end the game", "[tak][eval]") {
    using namespace features;
    // 3x3, White to move, three White flats against two Black ones, no komi: White leads by 2
    // half flats. 4 empty squares, White's share 2 (the odd one would be White's), plus one: 3
    // placements, fewer than White's 7 stones left.
    const Collect near_end = features_of(tps("1,1,1/2,2,x/x3 1 4", 0));
    CHECK(near_end.at(race_control, 0) == 2 * 16 / 3);
    CHECK(near_end.at(race_control, 1) == 0);
    // The same lead with Black to move: White needs its share of 2, plus one.
    const Collect black_moves = features_of(tps("1,1,1/2,2,x/x3 2 4", 0));
    CHECK(black_moves.at(race_control, 1) == -2 * 16 / 3);
    // No lead, no term.
    const Collect level = features_of(tps("1,1,x/2,2,x/x3 1 3", 0));
    CHECK(level.at(race_control, 0) == 0);
    CHECK(level.at(race_control, 1) == 0);
}

TEST_CASE("the features are the same for a position and its colour-swapped mirror", "[tak][eval]") {
    // Swapping colours and the side to move (and komi's owner) must not change what the side to
    // move sees.
    const State white = tps("x2,1S,x2/x5/x,12,x3/x3,21C,x/1,x3,2 1 5", 0);
    const State black = tps("x2,2S,x2/x5/x,21,x3/x3,12C,x/2,x3,1 2 5", 0);
    CHECK(features_of(white).values == features_of(black).values);
}

TEST_CASE("the weights text round-trips and refuses bad files with the reason", "[tak][eval]") {
    const EvalWeightSet& builtin = builtin_eval_weights();
    // Trained sizes; 3x3 and 8x8 use the nearest (4x4, 7x7).
    for (int size = 4; size <= 7; ++size) CHECK(builtin.present[size]);
    CHECK(&builtin.for_size(8) == &builtin.for_size(7));
    CHECK(&builtin.for_size(3) == &builtin.for_size(4));
    const std::string text = format_eval_weights(builtin, "a test\nof two lines");
    auto parsed = parse_eval_weights(text);
    REQUIRE(parsed.ok());
    for (int size = min_size; size <= max_size; ++size) {
        CHECK(parsed->present[size] == builtin.present[size]);
        if (builtin.present[size]) CHECK(parsed->by_size[size] == builtin.by_size[size]);
    }
    auto only_six = parse_eval_weights("bge-tak-eval 1\n6 tempo[0] 160 -32\n");
    REQUIRE(only_six.ok());
    CHECK(only_six->for_size(3).endgame[features::index_of(features::tempo)] == -32);  // the nearest size
    CHECK(only_six->for_size(8).opening[features::index_of(features::tempo)] == 160);

    auto error_of = [](std::string_view bad) {
        auto result = parse_eval_weights(bad);
        REQUIRE_FALSE(result.ok());
        return result.error();
    };
    CHECK(error_of("6 tempo[0] 1 2\n").find("bge-tak-eval 1") != std::string::npos);
    CHECK(error_of("bge-tak-eval 1\n6 nonsense[0] 1 2\n").find("unknown feature 'nonsense[0]'") != std::string::npos);
    CHECK(error_of("bge-tak-eval 1\n6 tempo[1] 1 2\n").find("unknown feature") != std::string::npos);
    CHECK(error_of("bge-tak-eval 1\n9 tempo[0] 1 2\n").find("not a board size") != std::string::npos);
    CHECK(error_of("bge-tak-eval 1\n6 tempo[0] 1x 2\n").find("'1x' is not a whole number") != std::string::npos);
    CHECK(error_of("bge-tak-eval 1\n6 tempo[0] 1\n").find("line 2") != std::string::npos);
    CHECK(error_of("bge-tak-eval 1\n# nothing\n").find("no board size") != std::string::npos);
    CHECK_FALSE(load_eval_weights("/nonexistent/weights.txt").ok());
}

TEST_CASE("the built-in evaluation is nets/eval_weights.txt, byte for byte what train_tak_eval writes",
          "[tak][eval][nets]") {
    const std::string_view shipped = find_embedded_file(nets::embedded_files(), builtin_eval_file);
    REQUIRE_FALSE(shipped.empty());
    auto parsed = parse_eval_weights(shipped);
    REQUIRE(parsed.ok());
    const EvalWeightSet& builtin = builtin_eval_weights();
    for (int size = min_size; size <= max_size; ++size) {
        CHECK(parsed->present[size] == builtin.present[size]);
        CHECK(parsed->by_size[size] == builtin.by_size[size]);
    }
    // Weights of the table compiled in before the file (engines/tak/eval_weights.cpp, generation 1).
    const int flat = features::find("flat_psqt_us[0]"), tempo = features::find("tempo[0]");
    CHECK(builtin.by_size[4].opening[flat] == 1266);
    CHECK(builtin.by_size[4].endgame[flat] == 2897);
    CHECK(builtin.by_size[7].opening[tempo] == 811);
    CHECK(builtin.by_size[7].endgame[tempo] == 812);
    // The trainer's writer, given these weights and the file's comment (all but the column legend
    // it adds), writes the file again.
    auto comment = bge::testing::leading_comment_lines(shipped);
    REQUIRE(comment.size() >= 2);
    comment.pop_back();
    CHECK(format_eval_weights(*parsed, bge::testing::joined_lines(comment)) == shipped);
}

TEST_CASE("the evaluation is the weights times the features, inside the road-in-one bound", "[tak][eval]") {
    const TakEvaluator evaluator;
    for (const State& s : random_positions(200, 5)) {
        const int score = evaluator.evaluate(s);
        if (road_in_one_squares(s, s.side_to_move())) {
            CHECK(score == TakEvaluator::road_in_one_score);
            continue;
        }
        CHECK(std::abs(score) < TakEvaluator::road_in_one_score);
        // By hand from the feature list.
        const EvalWeights& w = builtin_eval_weights().for_size(s.size);
        const Collect f = features_of(s);
        const long long p = features::phase(s);
        long long opening = 0, endgame = 0;
        for (const auto& [index, value] : f.values) {
            opening += static_cast<long long>(w.opening[index]) * value;
            endgame += static_cast<long long>(w.endgame[index]) * value;
        }
        const long long expected = ((256 - p) * opening + p * endgame) / (256 * weight_unit);
        CHECK(score == std::clamp<long long>(expected, -TakEvaluator::road_in_one_score + 1,
                                             TakEvaluator::road_in_one_score - 1));
    }
}

namespace {

bool wins_now(State& s, Side side) { return !(winning_move(s, side) == Move::none()); }

// Exhaustive: does the side to move win within two of its moves by a threat (a win on the spot,
// or a move after which it threatens one, the opponent has none, and every answer still loses)?
bool brute_tinue_two(State s) {
    const Side attacker = s.side_to_move();
    const Side defender = opponent(attacker);
    if (wins_now(s, attacker)) return true;
    MoveList<Tak> moves;
    generate_moves(s, moves);
    for (Move move : moves) {
        State t = s;
        play(t, move);
        if (outcome(t).is_over() || !wins_now(t, attacker) || wins_now(t, defender)) continue;
        MoveList<Tak> answers;
        generate_moves(t, answers);
        bool all_lose = true;
        for (Move answer : answers) {
            State u = t;
            play(u, answer);
            const Outcome o = outcome(u);
            const bool loses = o.is_over() ? o.is_win_for(attacker) : wins_now(u, attacker);
            if (!loses) {
                all_lose = false;
                break;
            }
        }
        if (all_lose) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("the tinue search finds a double threat and proves its line", "[tak][tinue]") {
    // White c3 threatens both d3 (row 3) and c2 (file c); no Black answer stops both.
    const State root = tps("2,x,1,x2/x2,1,x2/1,1,x2,1/x4,2/2,2,1,x2 1 7");
    TinueSearch search;
    const TinueResult result = search.search(root, 3, 1'000'000);
    REQUIRE(result.first);
    CHECK(format_move(*result.first) == "c3");
    CHECK(result.depth == 2);
    // The line is legal and ends in a White road.
    State s = root;
    for (Move move : result.line) {
        REQUIRE(is_legal(s, move));
        play(s, move);
    }
    CHECK(outcome(s).is_win_for(Side::first));

    // Black to move in the same kind of position blocks: no forced road for White then, and
    // none for Black either.
    const State defended = tps("2,x,1,x2/x2,1,x2/1,1,x2,1/x4,2/2,2,1,x2 2 7");
    const TinueResult none = search.search(defended, 3, 1'000'000);
    CHECK_FALSE(none.first);
    CHECK(none.complete);
    // The start has nothing, and a search that runs out of nodes says it is not complete.
    CHECK_FALSE(search.search(tps("x6/x6/x6/x6/x6/x6 1 1"), 3, 1'000'000).first);
    CHECK_FALSE(search.search(tps("2,x,1,x2/x2,1,x2/1,1,x2,1/x4,2/2,2,x3 1 7"), 3, 10).complete);
    // A deadline already passed ends it at the first clock check, whatever the move budget: on
    // the position whose full search is the largest of a sample.
    State largest;
    std::uint64_t most = 0;
    for (const State& s : random_positions(300, 43)) {
        const TinueResult full = search.search(s, 4, 1'000'000'000);
        if (full.complete && full.nodes > most) most = full.nodes, largest = s;
    }
    REQUIRE(most > 2000);
    const TinueResult late = search.search(largest, 4, 1'000'000'000, nullptr, bge::search::Clock::now());
    CHECK_FALSE(late.complete);
    CHECK(late.nodes < most);
}

TEST_CASE("the tinue search agrees with an exhaustive search two moves deep", "[tak][tinue]") {
    TinueSearch search;
    int proven = 0;
    for (const State& s : random_positions(1500, 41)) {
        if (s.in_opening()) continue;
        const TinueResult result = search.search(s, 2, 100'000'000);
        INFO(format_tps(s));
        REQUIRE(result.complete != static_cast<bool>(result.first));
        CHECK(static_cast<bool>(result.first) == brute_tinue_two(s));
        if (result.first) ++proven;
    }
    CHECK(proven > 20);
}

namespace {

// Plays a proof line and checks it is legal and ends in the attacker's win, or with the defender to
// move and every defence losing on the spot (the line stops at a threat nothing answers).
void check_proof_line(const State& root, const std::vector<Move>& line) {
    State s = root;
    const Side attacker = root.side_to_move();
    for (Move move : line) {
        REQUIRE(is_legal(s, move));
        play(s, move);
    }
    const Outcome o = outcome(s);
    if (o.is_over()) {
        CHECK(o.is_win_for(attacker));
        return;
    }
    REQUIRE(s.side_to_move() == opponent(attacker));
    MoveList<Tak> answers;
    generate_moves(s, answers);
    for (Move answer : answers) {
        State t = s;
        play(t, answer);
        const Outcome after = outcome(t);
        CHECK((after.is_over() ? after.is_win_for(attacker) : wins_now(t, attacker)));
    }
}

}  // namespace

TEST_CASE("the proof-number tinue search proves known tinue and refutes non-tinue", "[tak][tinue]") {
    ProofNumberTinue pns;
    const State root = tps("2,x,1,x2/x2,1,x2/1,1,x2,1/x4,2/2,2,1,x2 1 7");
    const TinueResult result = pns.search(root, 1'000'000);
    REQUIRE(result.first);
    CHECK(format_move(*result.first) == "c3");
    CHECK(result.depth == 2);
    check_proof_line(root, result.line);
    // Black to move blocks; the start has nothing: both disproved outright, every depth.
    const TinueResult defended = pns.search(tps("2,x,1,x2/x2,1,x2/1,1,x2,1/x4,2/2,2,1,x2 2 7"), 1'000'000);
    CHECK_FALSE(defended.first);
    CHECK(defended.complete);
    CHECK_FALSE(pns.search(tps("x6/x6/x6/x6/x6/x6 1 1"), 1'000'000).first);
    // Out of budget or past its deadline: nothing proven, nothing claimed.
    CHECK_FALSE(pns.search(root, 3).first);
    CHECK_FALSE(pns.search(root, 3).complete);
}

TEST_CASE("the proof-number tinue search agrees with the depth-limited one", "[tak][tinue]") {
    // Whatever the depth-limited search proves within 3 attacker moves, the proof-number search
    // proves too; a proof it finds of at most 3 moves, the depth-limited search finds as well; and
    // it never proves what the other disproves at every depth it can see.
    TinueSearch depth_limited;
    ProofNumberTinue pns;
    int proven = 0, deeper = 0;
    for (const State& s : random_positions(800, 47)) {
        if (s.in_opening()) continue;
        INFO(format_tps(s));
        const TinueResult limited = depth_limited.search(s, 3, 100'000'000);
        const TinueResult best_first = pns.search(s, 2'000'000);
        if (limited.first) {
            REQUIRE(best_first.first);
            CHECK(best_first.depth >= limited.depth);
            ++proven;
        }
        if (best_first.first) {
            check_proof_line(s, best_first.line);
            if (best_first.depth <= 3) CHECK(limited.first);
            else ++deeper;
        }
        if (best_first.complete) CHECK_FALSE(limited.first);
    }
    CHECK(proven > 20);
    INFO("proofs longer than 3 attacker moves: " << deeper);
}
