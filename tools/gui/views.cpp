#include "tools/gui/views.hpp"

#include <deque>
#include <functional>

#include <fmt/format.h>

#include "core/expendibots/game_log.hpp"
#include "core/tak/ptn_file.hpp"
#include "tools/arbiter/move_record.hpp"

namespace bge::gui {

namespace {

// The shortest chain of cells from any of `starts` to a cell where `done` holds, stepping to
// `neighbours` of each cell (cells are numbered 0 to count - 1); empty when there is none. The
// page draws a won game's road or TwixT chain with it.
std::vector<int> shortest_chain(int count, const std::vector<int>& starts, const std::function<bool(int)>& done,
                                const std::function<void(int, std::vector<int>&)>& neighbours) {
    std::vector<int> previous(static_cast<std::size_t>(count), -2);  // -2: not reached; -1: a start
    std::deque<int> queue;
    for (const int start : starts) {
        if (previous[static_cast<std::size_t>(start)] != -2) continue;
        previous[static_cast<std::size_t>(start)] = -1;
        queue.push_back(start);
    }
    std::vector<int> next;
    while (!queue.empty()) {
        const int at = queue.front();
        queue.pop_front();
        if (done(at)) {
            std::vector<int> chain;
            for (int cell = at; cell != -1; cell = previous[static_cast<std::size_t>(cell)]) chain.push_back(cell);
            return chain;
        }
        next.clear();
        neighbours(at, next);
        for (const int cell : next) {
            if (previous[static_cast<std::size_t>(cell)] != -2) continue;
            previous[static_cast<std::size_t>(cell)] = at;
            queue.push_back(cell);
        }
    }
    return {};
}

template <class Line>
Expected<Line> pick(std::vector<Line> lines, std::size_t index) {
    if (lines.empty()) return make_error("the record holds no game");
    if (index >= lines.size())
        return make_error(fmt::format("the record holds {} game{}, not {}", lines.size(), lines.size() == 1 ? "" : "s",
                                      index + 1));
    return std::move(lines[index]);
}

// Gomoku, TwixT and Ur records: the variant from the tags, then the adapter reads the moves as
// the arbiter reads them for openings.
template <class View>
Expected<RecordLine<typename View::G>> read_move_record(std::string_view text, std::size_t index,
                                                        const char* first_tag, const char* second_tag) {
    auto games = arbiter::parse_move_records(text);
    if (!games) return make_error(games.error());
    auto game = pick(std::move(*games), index);
    if (!game) return make_error(game.error());
    Json settings = Json::object();
    if (const std::string size = game->tag("Size"); !size.empty()) {
        const std::string side = size.substr(0, size.find('x'));
        if (side.empty() || side.size() > 3 || side.find_first_not_of("0123456789") != std::string::npos)
            return make_error(fmt::format("Size tag '{}' is not a board size", size));
        settings["size"] = std::stoi(side);
    }
    if (const std::string rule = game->tag("Rule"); !rule.empty()) settings["rule"] = rule;
    if (const std::string ruleset = game->tag("Ruleset"); !ruleset.empty()) settings["ruleset"] = ruleset;
    if (const std::string pieces = game->tag("Pieces"); !pieces.empty()) {
        if (pieces.size() > 2 || pieces.find_first_not_of("0123456789") != std::string::npos)
            return make_error(fmt::format("Pieces tag '{}' is not a number", pieces));
        settings["pieces"] = std::stoi(pieces);
    }
    auto variant = variant_from_settings<View>(settings);
    if (!variant) return make_error(variant.error());
    auto openings = View::Adapter::parse_record_openings(text, *variant);
    if (!openings) return make_error(openings.error());
    RecordLine<typename View::G> line;
    line.variant = *variant;
    line.start = (*openings)[index].start;
    line.moves = (*openings)[index].moves;
    line.comments = game->comments;
    line.comments.resize(line.moves.size());
    line.first_player = game->tag(first_tag);
    line.second_player = game->tag(second_tag);
    return line;
}

}  // namespace

// ---- Tak

Json TakView::board(const tak::State& s, const tak::State*, const tak::Move*) {
    Json board;
    board["size"] = static_cast<int>(s.size);
    board["komi"] = s.half_komi / 2.0;
    Json stacks = Json::object();
    for (int row = 0; row < s.size; ++row)
        for (int column = 0; column < s.size; ++column) {
            const int square = tak::square_at(column, row);
            if (s.height[square] == 0) continue;
            std::string stack;
            for (int level = 0; level < s.height[square]; ++level) stack += s.color_at(square, level) == Side::first ? '1' : '2';
            if (s.walls & tak::bit(square)) stack += 'S';
            if (s.caps & tak::bit(square)) stack += 'C';
            stacks[tak::square_name(square)] = stack;
        }
    board["stacks"] = std::move(stacks);
    Json reserves = Json::array();
    for (int side = 0; side < 2; ++side)
        reserves.push_back(Json::array({static_cast<int>(s.stones_left[side]), static_cast<int>(s.caps_left[side])}));
    board["reserves"] = std::move(reserves);
    board["flats"] = Json::array({tak::flat_count(s, Side::first), tak::flat_count(s, Side::second)});
    // A road win: the shortest road of the winner (edge to opposite edge) for the page to draw.
    if (const Outcome outcome = tak::outcome(s); outcome.is_over() && outcome.reason == "road") {
        const int n = s.size;
        const tak::Bitboard roads = s.road_squares(outcome.winner);
        const auto road = [&](int cell) { return (roads & tak::bit(tak::square_at(cell % n, cell / n))) != 0; };
        const auto neighbours = [&](int cell, std::vector<int>& out) {
            const int column = cell % n, row = cell / n;
            if (column > 0 && road(cell - 1)) out.push_back(cell - 1);
            if (column + 1 < n && road(cell + 1)) out.push_back(cell + 1);
            if (row > 0 && road(cell - n)) out.push_back(cell - n);
            if (row + 1 < n && road(cell + n)) out.push_back(cell + n);
        };
        for (const bool across : {false, true}) {  // bottom to top, then left to right
            std::vector<int> starts;
            for (int i = 0; i < n; ++i)
                if (const int cell = across ? i * n : i; road(cell)) starts.push_back(cell);
            const auto chain = shortest_chain(
                n * n, starts, [&](int cell) { return across ? cell % n == n - 1 : cell / n == n - 1; }, neighbours);
            if (chain.empty()) continue;
            Json cells = Json::array();
            for (const int cell : chain) cells.push_back(tak::square_name(tak::square_at(cell % n, cell / n)));
            board["winning"] = std::move(cells);
            break;
        }
    }
    return board;
}

MovePath TakView::path(const tak::State&, const tak::Move& move) {
    MovePath path;
    path.cells.push_back(tak::square_name(move.square()));
    if (move.is_placement()) {
        path.kind = move.stone() == tak::Stone::flat ? "flat" : move.stone() == tak::Stone::wall ? "wall" : "cap";
        return path;
    }
    const int step = tak::step_of(move.direction());
    int square = move.square() + step;
    for (int piece = 0; piece < move.carry(); ++piece) {
        path.cells.push_back(tak::square_name(square));
        if ((move.pattern() >> piece) & 1) square += step;
    }
    return path;
}

Expected<RecordLine<tak::Tak>> TakView::read_record(std::string_view text, std::size_t index) {
    auto games = tak::parse_ptn_games(text);
    if (!games) return make_error(games.error());
    auto game = pick(std::move(*games), index);
    if (!game) return make_error(game.error());
    RecordLine<tak::Tak> line;
    line.variant = tak::variant_of(game->start);
    line.start = game->start;
    line.moves = game->moves;
    line.comments = game->comments;
    line.comments.resize(line.moves.size());
    line.first_player = game->tag("Player1").value_or("");
    line.second_player = game->tag("Player2").value_or("");
    return line;
}

// ---- Gomoku

Json GomokuView::board(const gomoku::State& s, const gomoku::State*, const gomoku::Move*) {
    Json board;
    board["width"] = static_cast<int>(s.width);
    board["height"] = static_cast<int>(s.height);
    board["k"] = static_cast<int>(s.k);
    board["rule"] = std::string(gomoku::rule_name(s.rule));
    Json stones = Json::object();
    Json blocked = Json::array(), forbidden = Json::array();
    const bool mark_forbidden = s.rule == gomoku::Rule::renju && s.side_to_move() == Side::first &&
                                !gomoku::outcome(s).is_over();
    for (int y = 0; y < s.height; ++y)
        for (int x = 0; x < s.width; ++x) {
            const int square = gomoku::square_at(x, y);
            const std::string name = gomoku::square_name(square, s.height);
            const auto cell = s.cells[static_cast<std::size_t>(square)];
            if (cell == gomoku::black) stones[name] = "x";
            else if (cell == gomoku::white) stones[name] = "o";
            else if (cell == gomoku::wall) blocked.push_back(name);
            else if (mark_forbidden && gomoku::is_forbidden(s, square)) forbidden.push_back(name);
        }
    board["stones"] = std::move(stones);
    board["blocked"] = std::move(blocked);
    board["forbidden"] = std::move(forbidden);
    // A five (k in a row): the row through the last stone, for the page to draw.
    const gomoku::Result result = s.result;
    if ((result == gomoku::Result::first_five || result == gomoku::Result::second_five) && s.last != 0) {
        const auto colour = s.cells[s.last];
        // The board's wall ring and blocked cells end every scan (core/gomoku/types.hpp).
        for (const int step : gomoku::line_steps) {
            if (gomoku::line_length(s, s.last, step, colour) < s.k) continue;
            int first = s.last;
            while (s.cells[static_cast<std::size_t>(first - step)] == colour) first -= step;
            Json cells = Json::array();
            for (int square = first; s.cells[static_cast<std::size_t>(square)] == colour; square += step)
                cells.push_back(gomoku::square_name(square, s.height));
            board["winning"] = std::move(cells);
            break;
        }
    }
    return board;
}

MovePath GomokuView::path(const gomoku::State& state, const gomoku::Move& move) {
    return {{gomoku::square_name(move.square, state.height)}, {}};
}

Expected<RecordLine<gomoku::Gomoku>> GomokuView::read_record(std::string_view text, std::size_t index) {
    return read_move_record<GomokuView>(text, index, "Black", "White");
}

// ---- TwixT

Json TwixtView::board(const twixt::State& s, const twixt::State*, const twixt::Move*) {
    Json board;
    board["size"] = static_cast<int>(s.size);
    board["swapped"] = s.swapped;
    Json pegs = Json::object();
    Json bridges = Json::array();
    for (int row = 0; row < s.size; ++row)
        for (int column = 0; column < s.size; ++column) {
            const int square = twixt::square_at(column, row);
            const auto cell = s.cells[static_cast<std::size_t>(square)];
            if (cell != twixt::first_peg && cell != twixt::second_peg) continue;
            pegs[twixt::square_name(square)] = cell == twixt::first_peg ? "x" : "o";
            // Each bridge is stored at both ends (d and d + 4): list it once, from directions 0-3.
            for (int direction = 0; direction < 4; ++direction)
                if ((s.links[static_cast<std::size_t>(square)] >> direction) & 1u)
                    bridges.push_back(Json::array(
                        {twixt::square_name(square), twixt::square_name(square + twixt::knight_step(direction))}));
        }
    board["pegs"] = std::move(pegs);
    board["bridges"] = std::move(bridges);
    // A win: the winner's shortest chain of bridged pegs from one of its borders to the other.
    if (const Outcome outcome = twixt::outcome(s); outcome.is_over() && outcome.kind == OutcomeKind::win) {
        const int n = s.size;
        const auto peg = twixt::peg_of(outcome.winner);
        const bool rows = outcome.winner == Side::first;  // x joins the top and bottom rows, o the columns
        // The chain is searched over the board's own squares: a bridge is a link at both ends.
        const auto neighbours = [&](int square, std::vector<int>& out) {
            for (int direction = 0; direction < 8; ++direction)
                if ((s.links[static_cast<std::size_t>(square)] >> direction) & 1u)
                    out.push_back(square + twixt::knight_step(direction));
        };
        std::vector<int> starts;
        for (int i = 0; i < n; ++i)
            if (const int square = rows ? twixt::square_at(i, 0) : twixt::square_at(0, i);
                s.cells[static_cast<std::size_t>(square)] == peg)
                starts.push_back(square);
        const auto chain = shortest_chain(
            twixt::cell_count, starts,
            [&](int square) { return rows ? twixt::row_of(square) == n - 1 : twixt::column_of(square) == n - 1; },
            neighbours);
        Json cells = Json::array();
        for (const int square : chain) cells.push_back(twixt::square_name(square));
        if (!cells.empty()) board["winning"] = std::move(cells);
    }
    return board;
}

MovePath TwixtView::path(const twixt::State&, const twixt::Move& move) {
    if (move.is_swap()) return {};
    return {{twixt::square_name(move.square)}, {}};
}

Expected<RecordLine<twixt::Twixt>> TwixtView::read_record(std::string_view text, std::size_t index) {
    return read_move_record<TwixtView>(text, index, "X", "O");
}

// ---- Ur

Json UrView::board(const ur::State& s, const ur::State*, const ur::Move*) {
    Json board;
    board["ruleset"] = std::string(ur::ruleset_name(s.ruleset));
    board["pieces"] = static_cast<int>(s.pieces);
    Json tiles = Json::object();
    Json rosettes = Json::array(), existing = Json::array();
    for (int tile = 0; tile < ur::tile_count; ++tile) {
        if (!ur::tile_exists(tile)) continue;
        existing.push_back(ur::tile_name(tile));
        if (ur::is_rosette(tile)) rosettes.push_back(ur::tile_name(tile));
        if (s.tiles[0] & ur::tile_bit(tile)) tiles[ur::tile_name(tile)] = "L";
        if (s.tiles[1] & ur::tile_bit(tile)) tiles[ur::tile_name(tile)] = "D";
    }
    board["tiles"] = std::move(tiles);
    board["board_tiles"] = std::move(existing);
    board["rosettes"] = std::move(rosettes);
    board["waiting"] = Json::array({static_cast<int>(s.waiting[0]), static_cast<int>(s.waiting[1])});
    board["scored"] = Json::array({static_cast<int>(s.scored[0]), static_cast<int>(s.scored[1])});
    board["roll"] = ur::is_chance_node(s) || s.roll < 0 ? Json() : Json(static_cast<int>(s.roll));
    Json paths = Json::array();
    for (int side = 0; side < 2; ++side) {
        Json path = Json::array();
        for (int index = 0; index < s.path_length(); ++index)
            path.push_back(ur::tile_name(ur::path_tile(s.ruleset, side, index)));
        paths.push_back(std::move(path));
    }
    board["paths"] = std::move(paths);
    return board;
}

MovePath UrView::path(const ur::State& state, const ur::Move& move) {
    if (move.kind != ur::Move::advance) return {};
    const int side = index_of(state.to_move);
    const std::string suffix = side == 0 ? "-L" : "-D";
    const int target = ur::landing_tile(state, side, move.from, state.roll);
    MovePath path;
    path.cells.push_back(move.from == ur::Move::from_pool ? "pool" + suffix
                                                          : ur::tile_name(ur::path_tile(state.ruleset, side, move.from)));
    path.cells.push_back(target == ur::off_board ? "off" + suffix : ur::tile_name(target));
    return path;
}

Expected<RecordLine<ur::Ur>> UrView::read_record(std::string_view text, std::size_t index) {
    return read_move_record<UrView>(text, index, "Light", "Dark");
}

// ---- Expendibots

Json ExpendibotsView::board(const expendibots::State& s, const expendibots::State* before,
                            const expendibots::Move* last) {
    Json board;
    Json stacks = Json::object();
    for (int square = 0; square < expendibots::square_count; ++square) {
        if (s.height[square] == 0) continue;
        const char colour = (s.white & expendibots::bit(square)) ? 'w' : 'b';
        stacks[expendibots::square_name(square)] = fmt::format("{}{}", colour, static_cast<int>(s.height[square]));
    }
    board["stacks"] = std::move(stacks);
    Json blast = Json::array();
    if (before && last && last->is_boom()) {
        const expendibots::Bitboard area = expendibots::blast_area(*before, last->from());
        for (int square = 0; square < expendibots::square_count; ++square)
            if (area & expendibots::bit(square)) blast.push_back(expendibots::square_name(square));
    }
    board["blast"] = std::move(blast);
    board["actions"] = static_cast<int>(s.actions);
    return board;
}

MovePath ExpendibotsView::path(const expendibots::State&, const expendibots::Move& move) {
    if (move.is_boom()) return {{expendibots::square_name(move.from())}, "boom"};
    return {{expendibots::square_name(move.from()), expendibots::square_name(move.to())}, {}};
}

Expected<RecordLine<expendibots::Expendibots>> ExpendibotsView::read_record(std::string_view text, std::size_t index) {
    auto logs = expendibots::parse_game_logs(text);
    if (!logs) return make_error(logs.error());
    auto log = pick(std::move(*logs), index);
    if (!log) return make_error(log.error());
    RecordLine<expendibots::Expendibots> line;
    line.start = log->start;
    line.moves = log->moves;
    line.comments = log->comments;
    line.comments.resize(line.moves.size());
    if (const std::string* white = log->tag("White")) line.first_player = *white;
    if (const std::string* black = log->tag("Black")) line.second_player = *black;
    return line;
}

}  // namespace bge::gui
