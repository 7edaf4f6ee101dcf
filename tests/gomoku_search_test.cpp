// The Gomoku players on a tactical suite: win in one, block a four, and wins by continuous fours
// (VCF) of several lengths, each solved within a node limit. The lengths and the winning first
// moves are checked against a naive threat prover written here on the rules alone.

#include <catch2/catch.hpp>

#include <algorithm>

#include "core/gomoku/gomoku.hpp"
#include "engines/gomoku/board.hpp"
#include "engines/gomoku/engine_spec.hpp"
#include "engines/gomoku/evaluation.hpp"
#include "engines/gomoku/study_players.hpp"
#include "engines/gomoku/threat_search.hpp"
#include "gomoku_test_helpers.hpp"

using namespace bge;
using namespace bge::gomoku;
using namespace bge::gomoku::testing;

namespace {

// Empty cells where `stone` wins at once.
std::vector<int> fives_for(const State& s, std::uint8_t stone) {
    std::vector<int> cells;
    for (int y = 0; y < s.height; ++y)
        for (int x = 0; x < s.width; ++x) {
            const int square = square_at(x, y);
            if (s.cells[static_cast<std::size_t>(square)] == empty && wins_at(s, square, stone))
                cells.push_back(square);
        }
    return cells;
}

bool near_stone(const State& s, int square, std::uint8_t stone) {
    for (int dy = -4; dy <= 4; ++dy)
        for (int dx = -4; dx <= 4; ++dx) {
            const int x = x_of(square) + dx, y = y_of(square) + dy;
            if (s.on_board(x, y) && s.cells[static_cast<std::size_t>(square_at(x, y))] == stone) return true;
        }
    return false;
}

// Whether the side to move wins with at most `fours` fours, each answered by its only block.
// Collects every winning first move when asked.
bool vcf_win(State& s, int fours, std::vector<Move>* winning_first = nullptr) {
    const Side mover = s.side_to_move();
    const std::uint8_t me = stone_of(mover), them = stone_of(opponent(mover));
    if (const auto fives = fives_for(s, me); !fives.empty()) {
        if (winning_first)
            for (const int square : fives) winning_first->push_back(Move{static_cast<std::uint16_t>(square)});
        return true;
    }
    if (fours == 0) return false;
    const auto theirs = fives_for(s, them);
    if (theirs.size() >= 2) return false;
    std::vector<int> candidates = theirs;
    if (theirs.empty())
        for (int y = 0; y < s.height; ++y)
            for (int x = 0; x < s.width; ++x) {
                const int square = square_at(x, y);
                if (s.cells[static_cast<std::size_t>(square)] == empty && near_stone(s, square, me))
                    candidates.push_back(square);
            }
    bool any = false;
    for (const int square : candidates) {
        const Move move{static_cast<std::uint16_t>(square)};
        const Undo record = play(s, move);
        bool win = false;
        if (outcome(s).is_win_for(mover)) {
            win = true;
        } else if (!outcome(s).is_over()) {
            const auto mine = fives_for(s, me);
            if (mine.size() >= 2) {
                win = true;
            } else if (mine.size() == 1) {
                const Move block{static_cast<std::uint16_t>(mine[0])};
                const Undo blocked = play(s, block);
                if (outcome(s).is_win_for(mover))
                    win = true;
                else if (!outcome(s).is_over())
                    win = vcf_win(s, fours - 1);
                undo(s, block, blocked);
            }
        }
        undo(s, move, record);
        if (win) {
            if (!winning_first) return true;
            winning_first->push_back(move);
            any = true;
        }
    }
    return any;
}

// The fewest fours that win, up to `limit` (0 when none does).
int vcf_length(State s, int limit) {
    for (int fours = 0; fours <= limit; ++fours)
        if (vcf_win(s, fours)) return fours;
    return 0;
}

struct Engine {
    protocol::OptionRegistry options;
    std::vector<protocol::PlayerEntry<Gomoku>> players;
    Engine() {
        const auto spec = gomoku_engine_spec();
        spec.add_options(options);
        players = spec.players;
    }
    search::SearchResult<Gomoku> search(const std::string& player, const State& root, std::uint64_t nodes) {
        for (auto& entry : players)
            if (entry.name == player) {
                auto made = entry.make(options);
                search::SearchRequest<Gomoku> request;
                request.root = root;
                request.history = {root.hash};
                request.limits.nodes = nodes;
                search::SearchControl<Gomoku> control;
                return made->search(request, control);
            }
        FAIL("no player " << player);
        return {};
    }
};

const std::initializer_list<const char*> fillers = {"a1", "c1", "a3", "o15", "o13", "o11", "m15"};

State with_fillers(std::initializer_list<const char*> blacks, std::initializer_list<const char*> whites,
                   std::size_t extra) {
    std::vector<const char*> all(whites);
    for (std::size_t i = 0; i < extra; ++i) all.push_back(*(fillers.begin() + i));
    Variant variant;
    State s = start_state(variant);
    for (const char* name : blacks) s.cells[static_cast<std::size_t>(cell(name))] = black;
    for (const char* name : all) s.cells[static_cast<std::size_t>(cell(name))] = white;
    auto status = rebuild_derived(s);
    if (!status) FAIL(status.error());
    return s;
}

}  // namespace

TEST_CASE("tactics: win in one and block a four", "[gomoku][search]") {
    Engine engine;
    const State win = board({"h8", "i8", "j8", "k8"}, {"g8", "h9", "i9", "j9"});
    const State block = board({"c4", "h10", "i10", "j10"}, {"d4", "e4", "f4", "g4"});
    for (const std::string player : {"alphabeta", "puct", "mcts-vanilla", "mcts-shaping", "mcts-prior"}) {
        INFO(player);
        const auto won = engine.search(player, win, 3000);
        REQUIRE(won.has_move);
        CHECK(format_move(win, won.best) == "l8");
        CHECK(won.score >= search::win_threshold);
        const auto blocked = engine.search(player, block, 3000);
        REQUIRE(blocked.has_move);
        CHECK(format_move(block, blocked.best) == "h4");
    }
}

TEST_CASE("tactics: VCF wins of several lengths within a node limit", "[gomoku][search][vcf]") {
    struct Puzzle {
        const char* name;
        State position;
        int fours;
    };
    const Puzzle puzzles[] = {
        {"open three to open four", with_fillers({"h8", "i8", "j8"}, {}, 3), 1},
        {"four-three", with_fillers({"f8", "g8", "h8", "i9", "i10"}, {"e8"}, 4), 2},
        // g7 and k7 close the diagonals through i9, which would give shorter wins.
        {"four, then four-three",
         with_fillers({"f8", "g8", "h8", "i9", "f10", "g10", "h10"}, {"e8", "e10", "g7", "k7"}, 3), 3},
        {"three fours, then an open four",
         with_fillers({"f8", "g8", "h8", "i9", "f10", "g10", "h11", "h12", "h13"},
                      {"e8", "e10", "h14", "g7", "k7", "f11"}, 3),
         4},
    };
    Engine engine;
    for (const Puzzle& puzzle : puzzles) {
        INFO(puzzle.name);
        CHECK(vcf_length(puzzle.position, 5) == puzzle.fours);
        std::vector<Move> winning;
        State copy = puzzle.position;
        REQUIRE(vcf_win(copy, puzzle.fours, &winning));

        SearchBoard board(puzzle.position);
        VcfSearch vcf;
        const VcfResult found = vcf.search(board, 20, 20'000);
        REQUIRE(found.first);
        CHECK(found.nodes <= 20'000);
        CHECK(std::find(winning.begin(), winning.end(), *found.first) != winning.end());
        CHECK(static_cast<int>(found.line.size()) >= 2 * puzzle.fours + 1);  // fours, blocks, the five

        for (const std::string player : {"alphabeta", "puct"}) {
            INFO(player);
            const auto result = engine.search(player, puzzle.position, 20'000);
            REQUIRE(result.has_move);
            CHECK(std::find(winning.begin(), winning.end(), result.best) != winning.end());
            CHECK(result.score >= search::win_threshold);
        }
    }
    // No VCF: a lone three blocked on one side.
    SearchBoard none(with_fillers({"h8", "i8", "j8"}, {"g8"}, 2));
    CHECK_FALSE(VcfSearch{}.search(none, 20, 20'000).first);
}

TEST_CASE("study MCTS: solved nodes, tree reuse, potentials", "[gomoku][search][study]") {
    const State s = board({"h8", "i8", "j8"}, {"h9", "i9", "j9"});
    CHECK(StudyMcts::potential(s, cell("k8")) == 4);
    CHECK(StudyMcts::potential(s, cell("a15")) == 1);
    CHECK(StudyMcts::potential(s, cell("k9")) == 2);  // Black to move: with j8, not White's h9-j9

    StudyMcts mcts(7);
    StudySettings settings;
    settings.kind = StudyKind::prior;
    search::SearchRequest<Gomoku> request;
    request.root = s;
    request.limits.nodes = 300;
    const auto first = mcts.search(request, {}, settings);
    REQUIRE(first.has_move);
    const std::size_t nodes = mcts.node_count();
    CHECK(nodes > 225);
    // The same root again: the tree is kept and grows.
    mcts.search(request, {}, settings);
    CHECK(mcts.node_count() > nodes);
    CHECK(mcts.rollouts() >= 4 * 300);

    // The win in one is proven at once: the search stops early with a decisive score.
    StudyMcts solver(1);
    request.root = board({"h8", "i8", "j8", "k8"}, {"g8", "h9", "i9", "j9"});
    request.limits.nodes = 100000;
    const auto won = solver.search(request, {}, settings);
    CHECK(format_move(request.root, won.best) == "l8");
    CHECK(won.nodes < 10);
}

TEST_CASE("tactics: VCT wins by threes, checked against the naive prover", "[gomoku][search][vct]") {
    // Black's h8 makes two threes (f8 g8 h8, and h8 . h10 h11): no four is on the board, so VCF
    // finds nothing, but every White answer leaves Black a win by fours.
    const State position = board({"f8", "g8", "h10", "h11"}, {"a1", "a15", "o1", "o15"});
    SearchBoard search_board(position);
    CHECK_FALSE(VcfSearch{}.search(search_board, 20, 20'000).first);
    ThreatLimits limits;
    limits.nodes = 200'000;
    const VcfResult found = VctSearch{}.search(search_board, 2, limits);
    REQUIRE(found.first);
    CHECK(*found.first == Move{static_cast<std::uint16_t>(cell("h8"))});
    CHECK(found.line.size() >= 3);
    // Independent check: after h8, every White answer near the stones loses to Black's fours.
    State after = position;
    const Undo played = play(after, *found.first);
    for (int y = 0; y < after.height; ++y)
        for (int x = 0; x < after.width; ++x) {
            const int square = square_at(x, y);
            if (after.cells[static_cast<std::size_t>(square)] != empty || !near_stone(after, square, black)) continue;
            State answer = after;
            play(answer, Move{static_cast<std::uint16_t>(square)});
            INFO("White answers " << format_move(after, Move{static_cast<std::uint16_t>(square)}));
            CHECK(vcf_win(answer, 2));
        }
    undo(after, *found.first, played);
    // The default player plays it too.
    Engine engine;
    const auto result = engine.search("alphabeta", position, 50'000);
    CHECK(result.best == *found.first);
    CHECK(result.score >= search::win_threshold);

    // Under renju the same double three is Black's foul: VCT must not play it.
    const State renju = board({"f8", "g8", "h10", "h11"}, {"a1", "a15", "o1", "o15"}, Rule::renju);
    SearchBoard renju_board(renju);
    const VcfResult renju_found = VctSearch{}.search(renju_board, 2, limits);
    if (renju_found.first) CHECK_FALSE(is_forbidden(renju, renju_found.first->square));
    CHECK_FALSE((renju_found.first && *renju_found.first == Move{static_cast<std::uint16_t>(cell("h8"))}));
    // White may win by the same double three under renju.
    const State white_attacks = board({"a1", "a15", "o1", "o15", "c1"}, {"f8", "g8", "h10", "h11"}, Rule::renju);
    SearchBoard white_board(white_attacks);
    const VcfResult white_found = VctSearch{}.search(white_board, 2, limits);
    REQUIRE(white_found.first);
    CHECK(*white_found.first == Move{static_cast<std::uint16_t>(cell("h8"))});

    // A node limit or a raised stop flag ends the search without claiming a win.
    std::atomic<bool> stop{true};
    ThreatLimits stopped;
    stopped.stop = &stop;
    SearchBoard quiet(board({"h8", "j9"}, {"h9", "a1"}));
    const VcfResult none = VctSearch{}.search(quiet, 6, stopped);
    CHECK_FALSE(none.first);
    ThreatLimits tiny;
    tiny.nodes = 10;
    const VcfResult cut = VctSearch{}.search(search_board, 2, tiny);
    CHECK_FALSE(cut.first);
    CHECK(cut.interrupted);
}

TEST_CASE("pass_turn and an explicit side to move", "[gomoku][rules]") {
    State s = board({"h8"}, {});
    CHECK(s.side_to_move() == Side::second);
    const std::uint64_t before = s.hash;
    pass_turn(s);
    CHECK(s.side_to_move() == Side::first);
    CHECK(s.hash == compute_hash(s));
    pass_turn(s);
    CHECK(s.hash == before);
    // Two Black stones and none of White's with Black to move, as a pbrain BOARD may ask.
    State odd = start_state(Variant{});
    odd.cells[static_cast<std::size_t>(cell("h8"))] = black;
    odd.cells[static_cast<std::size_t>(cell("i8"))] = black;
    CHECK_FALSE(rebuild_derived(odd));
    REQUIRE(rebuild_derived(odd, Side::first));
    CHECK(odd.side_to_move() == Side::first);
    CHECK(odd.hash == compute_hash(odd));
    play(odd, at(odd, "j8"));
    CHECK(odd.cells[static_cast<std::size_t>(cell("j8"))] == black);
    CHECK(odd.side_to_move() == Side::second);
}

TEST_CASE("tactics: under renju White wins by forcing Black's block onto a foul", "[gomoku][search][vcf]") {
    // Black's b8 c8 d8 . f8 g8: a Black stone on e8 makes six, an overline, which Black may not
    // play. White's e4 makes a four (e3 and e9 are Black's) whose only block is e8: Black fouls
    // or loses. (White's e8 makes a four too, but its block e4 is an ordinary move.)
    const State position =
        board({"b8", "c8", "d8", "f8", "g8", "e3", "e9"}, {"e5", "e6", "e7", "a1", "o1", "m13"}, Rule::renju);
    REQUIRE(position.side_to_move() == Side::second);
    REQUIRE(is_forbidden(position, cell("e8")));
    SearchBoard search_board(position);
    const VcfResult found = VcfSearch{}.search(search_board, 20, 20'000);
    REQUIRE(found.first);
    CHECK(*found.first == Move{static_cast<std::uint16_t>(cell("e4"))});
    REQUIRE(found.line.size() >= 2);
    CHECK(found.line[1] == Move{static_cast<std::uint16_t>(cell("e8"))});  // the forced foul
    // Black's foul on e8 loses at once, as the rules say.
    State after = position;
    play(after, *found.first);
    play(after, Move{static_cast<std::uint16_t>(cell("e8"))});
    CHECK(outcome(after).is_win_for(Side::second));
    CHECK(outcome(after).reason == "forbidden");
    // The evaluation knows it too: facing White's four with its only block forbidden, Black is
    // lost, not merely facing a five to block.
    SearchBoard facing(position);
    GomokuSearch::play(facing, *found.first);
    CHECK(GomokuEvaluator{}.evaluate(facing) == EvalWeights{}.facing_two_fives);
    Engine engine;
    const auto result = engine.search("alphabeta", position, 20'000);
    CHECK(result.best == *found.first);
    CHECK(result.score >= search::win_threshold);
}

TEST_CASE("tactics: a threat search inside alpha-beta proves wins below the root", "[gomoku][search][vct]") {
    // The double three of the VCT test: Black's h8 wins by threes. The evaluator's hook finds it
    // within its budget, and not with a budget of one position. In a tree searched 3 plies deep
    // the line is too long to prove by search alone (quiescence sees an open four, a large but
    // unproven score); with ThreatSearchDepth the nodes after h8 and White's answers ask the
    // threat search and the root is a proven win.
    const State position = board({"f8", "g8", "h10", "h11"}, {"a1", "a15", "o1", "o15"});
    SearchBoard b(position);
    GomokuEvaluator evaluator;
    evaluator.set_threat_search(200'000, 2);
    const auto win = evaluator.forced_win(b);
    REQUIRE(win);
    CHECK(win->first == Move{static_cast<std::uint16_t>(cell("h8"))});
    CHECK(win->plies >= 3);
    evaluator.set_threat_search(1, 2);
    evaluator.new_search();
    CHECK_FALSE(evaluator.forced_win(b));
    search::AlphaBeta<GomokuSearch, GomokuEvaluator> with_hook(GomokuEvaluator{}, 1);
    with_hook.evaluator().set_threat_search(200'000, 2);
    with_hook.settings().threat_search_depth = 1;
    search::SearchRequest<GomokuSearch> request;
    request.root = SearchBoard(position);
    request.limits.depth = 3;
    const auto proven = with_hook.search(request, {});
    CHECK(proven.score >= search::win_threshold);
    CHECK(proven.best == Move{static_cast<std::uint16_t>(cell("h8"))});
    search::AlphaBeta<GomokuSearch, GomokuEvaluator> without(GomokuEvaluator{}, 1);
    const auto plain = without.search(request, {});
    CHECK(plain.score < search::win_threshold);
}

TEST_CASE("tactics: a forced block costs no depth with ForcedReplyExtension", "[gomoku][search][vcf]") {
    // The VCF puzzle of four fours (nine plies to the five): every block is White's only move,
    // so with the extension the fours alone spend depth, and five plies prove the win that plain
    // alpha-beta needs six for.
    const State position = with_fillers({"f8", "g8", "h8", "i9", "f10", "g10", "h11", "h12", "h13"},
                                        {"e8", "e10", "h14", "g7", "k7", "f11"}, 3);
    auto proven_at_depth_five = [&](bool extension) {
        search::AlphaBeta<GomokuSearch, GomokuEvaluator> alphabeta(GomokuEvaluator{}, 1);
        alphabeta.settings().forced_reply_moves = extension ? 1 : 0;
        search::SearchRequest<GomokuSearch> request;
        request.root = SearchBoard(position);
        request.limits.depth = 5;
        return alphabeta.search(request, {}).score >= search::win_threshold;
    };
    CHECK(proven_at_depth_five(true));
    CHECK_FALSE(proven_at_depth_five(false));
}

namespace {

std::vector<std::string> generated_moves(const SearchBoard& board) {
    MoveList<GomokuSearch> moves;
    GomokuSearch::generate_moves(board, moves);
    std::vector<std::string> names;
    for (const Move& move : moves) names.push_back(format_move(board.rules, move));
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

TEST_CASE("ExactDefence: the answers to a four-three and to an open three", "[gomoku][search][defence]") {
    // Black's i8 would make a four (i5 i6 i7 i8, i4 taken) and an open three (g8 h8 i8): White
    // must take i8, block the four's last cell i9, or break the three next to it (f8 or j8); e8
    // and k8 leave Black an open four. White has no four of its own.
    const State position = board({"i5", "i6", "i7", "g8", "h8"}, {"i4", "a1", "a15", "o1"});
    REQUIRE(position.side_to_move() == Side::second);
    SearchBoard search_board(position);
    REQUIRE(search_board.threat[0][static_cast<std::size_t>(cell("i8"))] == threat_four_three);
    CHECK(generated_moves(search_board).size() > 20);  // off: every near cell
    search_board.exact_defence = true;
    CHECK(generated_moves(search_board) == std::vector<std::string>{"f8", "i8", "i9", "j8"});

    // An open three (g8 h8 i8), open fours at f8 and j8: only f8 and j8 take both away. e8 and
    // k8, where Black would make a (closed) four, are answers without ExactDefence; after e8,
    // Black's j8 is still an open four.
    const State three = board({"g8", "h8", "i8"}, {"a1", "a15"});
    SearchBoard three_board(three);
    CHECK(generated_moves(three_board) == std::vector<std::string>{"e8", "f8", "j8", "k8"});
    three_board.exact_defence = true;
    CHECK(generated_moves(three_board) == std::vector<std::string>{"f8", "j8"});
}
