// The Expendibots players and their parts: the evaluation (perspective, symmetry, phases,
// weights files, the shipped one in engines/expendibots/nets/), the inverted quiescence,
// alpha-beta on tactical positions and repetition draws, greedy and minimax2, the opening book,
// the game budget, and the TDLeaf update.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "engines/expendibots/evaluation.hpp"
#include "engines/expendibots/game_budget.hpp"
#include "engines/expendibots/nets/embedded.hpp"
#include "engines/expendibots/opening_book.hpp"
#include "engines/expendibots/study_players.hpp"
#include "expendibots_test_helpers.hpp"
#include "search/alphabeta.hpp"
#include "search/learning/tdleaf.hpp"
#include "weights_file_checks.hpp"

using namespace bge;
using namespace bge::expendibots;
using namespace bge::expendibots::testing;

namespace {

using Search = search::AlphaBeta<Expendibots, Evaluator>;

// The position with the board turned upside down and the colours swapped.
State mirrored(const State& s) {
    State m{};
    for (int square = 0; square < square_count; ++square) {
        if (!(s.occupied() & bit(square))) continue;
        const int flipped = square_at(x_of(square), 7 - y_of(square));
        ((s.white & bit(square)) ? m.black : m.white) |= bit(flipped);
        m.height[flipped] = s.height[square];
    }
    m.to_move = opponent(s.to_move);
    m.actions = s.actions;
    rebuild_derived(m);
    return m;
}

struct Found {
    Move best;
    int score;
};

Found search_position(const State& root, int depth, std::vector<std::uint64_t> history = {}, bool null_move = false) {
    Search searcher(Evaluator{}, 1);
    searcher.evaluator().set_perspective(root.to_move);
    searcher.settings().null_move = null_move;
    search::SearchRequest<Expendibots> request;
    request.root = root;
    history.push_back(root.hash);
    request.history = history;
    request.limits.depth = depth;
    const auto result = searcher.search(request, {});
    REQUIRE(result.has_move);
    return {result.best, result.score};
}

}  // namespace

TEST_CASE("expendibots: the evaluation takes one player's view, and the colours are symmetric", "[expendibots][eval]") {
    const EvalWeights& weights = builtin_weights();
    const State positions[] = {start_state(), after(after(start_state(), "d2d3"), "xb7"),
                               position({{"d4", "w3"}, {"e5", "b2"}, {"a1", "w"}, {"h8", "b4"}}, 'b', 41)};
    for (const State& s : positions) {
        INFO(format_fen(s));
        const State m = mirrored(s);
        CHECK(linear_value(weights, s, Side::first) == Approx(linear_value(weights, m, Side::second)));
        CHECK(linear_value(weights, s, Side::second) == Approx(linear_value(weights, m, Side::first)));
        Evaluator evaluator;
        evaluator.set_perspective(s.to_move);
        const int for_mover = evaluator.evaluate(s);
        evaluator.set_perspective(opponent(s.to_move));
        const int against_mover = evaluator.evaluate(s);
        CHECK(for_mover == std::lround(linear_value(weights, s, s.to_move) * centi_per_unit));
        CHECK(against_mover == -std::lround(linear_value(weights, s, opponent(s.to_move)) * centi_per_unit));
    }
    // Destroying an enemy token is worth more than keeping an own one.
    for (std::size_t p = 0; p < phase_count; ++p) CHECK(-weights.by_phase[p][1] > weights.by_phase[p][0]);
}

TEST_CASE("expendibots: features and phases", "[expendibots][eval]") {
    EvalFeatures::Vector phi;
    const State s = position({{"d4", "w3"}, {"e5", "b2"}, {"a1", "w"}, {"h8", "b4"}}, 'w', 80);
    EvalFeatures::compute(s, Side::first, phi);
    CHECK(phi[0] == Approx(4 / 12.0));   // own tokens
    CHECK(phi[1] == Approx(6 / 12.0));   // enemy tokens
    CHECK(phi[2] == Approx(3 / 12.0));   // d4 is central
    CHECK(phi[3] == Approx(2 / 12.0));   // e5 too
    CHECK(phi[4] == Approx(1 / 12.0));   // a1 is a corner
    CHECK(phi[5] == Approx(4 / 12.0));   // h8 too
    CHECK(phi[6] == Approx(12 / 14.0));  // d4-e5: distance 2
    CHECK(phi[8] == Approx(3 / 12.0));   // d4 shares a cluster with e5
    CHECK(phi[9] == Approx(2 / 12.0));
    CHECK(phi[10] == Approx(3 / 12.0));
    CHECK(phi[11] == Approx(4 / 12.0));
    CHECK(phi[12] == 1.0);

    const PhaseBlend opening = phase_blend(start_state());
    CHECK(opening[0] == 1.0);
    CHECK(dominant_phase(start_state()) == Phase::opening);
    CHECK(phase_blend(s)[2] == 0.5);  // 10 tokens left: halfway into the endgame
    CHECK(dominant_phase(position({{"a1", "w2"}, {"h8", "b3"}}, 'w', 80)) == Phase::endgame);
    const PhaseBlend middle = phase_blend(position({{"a1", "w8"}, {"h8", "b8"}}, 'w', 40));
    CHECK(middle[1] == 1.0);
    for (const State& any : {start_state(), s}) {
        const PhaseBlend blend = phase_blend(any);
        CHECK(blend[0] + blend[1] + blend[2] == Approx(1.0));
    }
}

TEST_CASE("expendibots: weights files round-trip; broken ones are refused", "[expendibots][eval][errors]") {
    const EvalWeights weights = initial_weights();
    const std::string text = format_weights(weights, "a test\nsecond line");
    const auto read = parse_weights(text);
    REQUIRE(read);
    for (std::size_t i = 0; i < EvalWeights::size; ++i) CHECK(read->at(i) == weights.at(i));
    CHECK_FALSE(parse_weights("").ok());
    CHECK_THAT(parse_weights("bge-expendibots-weights 1\nopening own_tokens 1\n").error(), Catch::Contains("no weight"));
    CHECK_THAT(parse_weights("bge-expendibots-weights 1\nlate own_tokens 1\n").error(), Catch::Contains("phase"));
    CHECK_THAT(parse_weights("bge-expendibots-weights 1\nopening mobility 1\n").error(), Catch::Contains("feature"));
    CHECK_THAT(parse_weights("bge-expendibots-weights 1\nopening own_tokens lots\n").error(),
               Catch::Contains("not a number"));
    CHECK_FALSE(load_weights("/nonexistent/weights.txt").ok());
}

TEST_CASE("expendibots: the built-in weights are nets/eval_weights.txt, byte for byte what the trainer writes",
          "[expendibots][eval][nets]") {
    const std::string_view shipped = find_embedded_file(nets::embedded_files(), builtin_weights_file);
    REQUIRE_FALSE(shipped.empty());
    const auto parsed = parse_weights(shipped);
    REQUIRE(parsed);
    const EvalWeights& builtin = builtin_weights();
    CHECK(parsed->by_phase == builtin.by_phase);
    // Weights of the table compiled in before the file (engines/expendibots/eval_weights.cpp).
    CHECK(builtin.by_phase[0][0] == 0.42317521766241861);     // opening own_tokens
    CHECK(builtin.by_phase[2][12] == -0.099362301885019849);  // endgame to_move
    const auto comment = bge::testing::leading_comment_lines(shipped);
    REQUIRE(comment.size() == 3);
    CHECK(format_weights(*parsed, bge::testing::joined_lines(comment)) == shipped);
}

TEST_CASE("expendibots: inverted quiescence: booms that reach the enemy, only at quiet leaves", "[expendibots][search]") {
    Evaluator evaluator;
    MoveList<Expendibots> noisy;
    // d4 touches Black's e5; a1 touches nothing; c1-b1 touch only each other.
    State s = position({{"d4", "w3"}, {"e5", "b2"}, {"a1", "w"}, {"c1", "w"}, {"b1", "w"}, {"h8", "b"}});
    evaluator.noisy_moves(s, noisy);
    REQUIRE(noisy.size() == 1);
    CHECK(noisy[0] == Move::boom(*parse_square("d4")));
    // After a swing (the move into the leaf destroyed tokens) the leaf is scored as it stands.
    State swung = after(position({{"d4", "w3"}, {"e5", "b2"}, {"a1", "w"}, {"b1", "b"}, {"h8", "b"}}, 'b', 1), "xb1");
    REQUIRE(swung.last_destroyed == 2);
    evaluator.noisy_moves(swung, noisy);
    CHECK(noisy.empty());
    evaluator.set_quiescence(false);
    evaluator.noisy_moves(s, noisy);
    CHECK(noisy.empty());
}

TEST_CASE("expendibots: alpha-beta finds a winning explosion and sees repetition draws", "[expendibots][search]") {
    // xd4 takes e5 and e6 with it: Black has nothing left.
    const State win = position({{"d4", "w"}, {"e5", "b"}, {"e6", "b2"}, {"a1", "w"}});
    const Found found = search_position(win, 3);
    CHECK(found.best == Move::boom(*parse_square("d4")));
    CHECK(search::is_decisive(found.score));
    // With null move on, the same.
    CHECK(search_position(win, 5, {}, true).best == Move::boom(*parse_square("d4")));

    // White is hopelessly behind; stepping back to a1-a2 repeats a position of the game, which
    // the search scores as a draw and prefers.
    const State earlier = position({{"a2", "w"}, {"h8", "b12"}}, 'b', 1);
    State s = earlier;
    s = after(s, "12h8h7");
    s = after(s, "a2a1");
    s = after(s, "12h7h8");
    const std::vector<std::uint64_t> history = {earlier.hash, after(earlier, "12h8h7").hash,
                                                after(after(earlier, "12h8h7"), "a2a1").hash};
    const Found drawn = search_position(s, 4, history);
    CHECK(drawn.best == *parse_move(s, "a1a2"));
    CHECK(drawn.score == 0);
    CHECK(search_position(s, 4).score < -500);  // without the history: just lost material
}

TEST_CASE("expendibots: greedy and minimax2", "[expendibots][players]") {
    // xd4 destroys two black tokens for one white, xa1 one for one: greedy takes xd4. But either
    // boom leaves White's last stack next to a black one that then explodes with it, and minimax2
    // looks that far.
    const State s = position({{"d4", "w"}, {"e5", "b2"}, {"a1", "w"}, {"b2", "b"}, {"h8", "b"}});
    CHECK(greedy_best_moves(s) == std::vector<Move>{Move::boom(*parse_square("d4"))});
    int score = 0;
    const auto careful = minimax2_best_moves(s, &score);
    REQUIRE_FALSE(careful.empty());
    for (Move m : careful) CHECK_FALSE(m.is_boom());
    CHECK(score > -100'000);
    // A boom that ends the game: both take it.
    const State win = position({{"d4", "w"}, {"e5", "b"}, {"e6", "b2"}, {"a1", "w"}});
    CHECK(greedy_best_moves(win) == std::vector<Move>{Move::boom(*parse_square("d4"))});
    CHECK(minimax2_best_moves(win) == std::vector<Move>{Move::boom(*parse_square("d4"))});
    // Nothing to destroy: greedy steps as close as it can (next to h8, by g7g8 or g7h7; its own
    // boom would lose its last token).
    const State far = position({{"g7", "w"}, {"a1", "b"}, {"h8", "b"}});
    std::vector<std::string> texts;
    for (Move m : greedy_best_moves(far)) texts.push_back(format_move(m));
    std::sort(texts.begin(), texts.end());
    CHECK(texts == std::vector<std::string>{"g7g8", "g7h7"});
}

TEST_CASE("expendibots: the opening book", "[expendibots][book]") {
    const auto book = OpeningBook::parse("# a comment\nd2d3 e7e6 d3d4\nd2d3 b7b6\n\nh2h3\n");
    REQUIRE(book);
    CHECK(book->line_count() == 3);
    const auto first = book->moves_for(start_state());
    REQUIRE(first.size() == 2);
    CHECK(format_move(first[0]) == "d2d3");
    CHECK(format_move(first[1]) == "h2h3");
    const auto replies = book->moves_for(after(start_state(), "d2d3"));
    REQUIRE(replies.size() == 2);
    CHECK(book->moves_for(after(start_state(), "a2a3")).empty());
    // Matched by action count too: the start board later in a game is out of book.
    CHECK(book->moves_for(fen("b,b,x,b,b,x,b,b/b,b,x,b,b,x,b,b/x8/x8/x8/x8/w,w,x,w,w,x,w,w/w,w,x,w,w,x,w,w w 4"))
              .empty());
    const auto bad = OpeningBook::parse("d2d3 d3d5\n");
    REQUIRE_FALSE(bad.ok());
    CHECK_THAT(bad.error(), Catch::Contains("book line 1"));
    // The built-in book reads, and every line is legal.
    REQUIRE(OpeningBook::parse(builtin_book_text()));
    CHECK(builtin_book().line_count() == OpeningBook::parse(builtin_book_text())->line_count());
}

TEST_CASE("expendibots: the game budget", "[expendibots][budget]") {
    // 60 s, 200 ms... 1200 ms reserved (2%), 40 turns expected at the start.
    CHECK(plan_move_ms(60'000, 0, 0) == (60'000 - 1'200) / 40);
    CHECK(plan_move_ms(60'000, 30'000, 30) == (60'000 - 30'000 - 1'200) / 15);
    CHECK(plan_move_ms(60'000, 58'800, 50) == 0);
    CHECK(plan_move_ms(60'000, 70'000, 50) == 0);
    CHECK(plan_move_ms(1'000, 0, 0) == (1'000 - 200) / 40);
    // Never more than a tenth of what is left.
    CHECK(plan_move_ms(60'000, 0, 100) == (60'000 - 1'200) / 15);
    CHECK(hash_megabytes_under_cap(64, 100) == 64);
    CHECK(hash_megabytes_under_cap(1024, 100) == 64);
    CHECK(hash_megabytes_under_cap(8, 100) == 8);
    CHECK(hash_megabytes_under_cap(64, 40) == 16);
    CHECK(hash_megabytes_under_cap(64, 16) == 1);
    CHECK(process_cpu_ms() >= 0);
}

TEST_CASE("expendibots: the TDLeaf(lambda) update", "[expendibots][learning]") {
    using Step = search::learning::TdLeafStep<2>;
    // Leaves valued 0.2 then 0.5, the game won (1): differences 0.3 and 0.5.
    const std::vector<Step> steps = {{0.2, {1.0, 0.0}}, {0.5, {0.0, 1.0}}};
    const auto half = search::learning::tdleaf_delta(steps, 1.0, 0.5, 0.1);
    CHECK(half[0] == Approx(0.1 * (0.3 + 0.5 * 0.5)));
    CHECK(half[1] == Approx(0.1 * 0.5));
    const auto td0 = search::learning::tdleaf_delta(steps, 1.0, 0.0, 0.1);  // one-step TD
    CHECK(td0[0] == Approx(0.03));
    const auto monte_carlo = search::learning::tdleaf_delta(steps, 1.0, 1.0, 0.1);  // to the result
    CHECK(monte_carlo[0] == Approx(0.1 * (1.0 - 0.2)));
    CHECK(search::learning::tdleaf_delta(std::vector<Step>{}, 1.0, 0.7, 0.1)[0] == 0.0);
}
