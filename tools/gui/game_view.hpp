#pragma once
// What the GUI needs from a game beyond the arbiter's adapter: the board as data for the page to
// draw, each legal move as the cells a person clicks to make it, the variant from the page's
// settings, and records read back with their variant. The page draws and sends clicks; every
// rule decision (legality, results, forbidden points, blasts) is made here, in C++, by core/.
//
// A view is a struct per game (tools/gui/views.hpp) with:
//   using Adapter;                                  the arbiter's GameAdapter
//   static constexpr std::string_view game;         "tak", "gomoku", ...
//   static Json board(const State&, const State* before, const Move* last);
//   static MovePath path(const State&, const Move&);
//   static Expected<RecordLine<G>> read_record(std::string_view text, std::size_t index);

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/game_record.hpp"
#include "tools/arbiter/game_adapter.hpp"
#include "tools/arbiter/json.hpp"

namespace bge::gui {

namespace json = arbiter::json;
using arbiter::Json;

// The cells a person clicks, in order, to make a move (a Tak spread: the stack, then one click
// per piece dropped). `kind` tells moves with the same cells apart where the page offers a choice
// up front (Tak: flat, wall or cap). A move without cells (TwixT's swap, Ur's pass) is a button.
struct MovePath {
    std::vector<std::string> cells;
    std::string kind;
};

// A game read from a record file: its rules, start, moves, the comment after each move, and the
// names of its two players (empty when the record has none).
template <Game G>
struct RecordLine {
    typename G::Variant variant{};
    typename G::State start{};
    std::vector<typename G::Move> moves;
    std::vector<std::string> comments;
    std::string first_player, second_player;
};

// The rules from the page's settings ({"size": 6, "komi": 2.5, "rule": "renju", "ruleset":
// "masters", "pieces": 5}), checked by the arbiter's adapter exactly as its flags are.
template <class View>
Expected<typename View::Adapter::Game::Variant> variant_from_settings(const Json& settings) {
    arbiter::MatchConfig config;
    config.game = std::string(View::game);
    if (!settings.is_null() && !settings.is_object()) return make_error("the variant must be an object");
    const Json& size = json::member(settings, "size");
    if (!size.is_null()) {
        const auto value = size.is_number_integer() ? json::integer(size) : std::nullopt;
        if (!value || *value < 0 || *value > 1000) return make_error("size must be a whole number");
        config.size = static_cast<int>(*value);
    }
    const Json& komi = json::member(settings, "komi");
    if (!komi.is_null()) {
        const double half = komi.is_number() ? komi.get<double>() * 2 : 1e9;
        if (!(std::abs(half) <= 1000) || half != std::floor(half))
            return make_error("komi must be a number of flats in steps of 0.5");
        config.half_komi = static_cast<int>(half);
    }
    for (const auto& [key, target] : {std::pair<const char*, std::string*>{"rule", &config.rule}, {"ruleset", &config.ruleset}}) {
        const Json& value = json::member(settings, key);
        if (value.is_null()) continue;
        if (!value.is_string() || value.get_ref<const std::string&>().size() > 40)
            return make_error(std::string(key) + " must be a name");
        *target = value.get<std::string>();
    }
    const Json& pieces = json::member(settings, "pieces");
    if (!pieces.is_null()) {
        const auto value = pieces.is_number_integer() ? json::integer(pieces) : std::nullopt;
        if (!value || *value < 1 || *value > 100) return make_error("pieces must be a whole number");
        config.pieces = static_cast<int>(*value);
    }
    const Json& repetition = json::member(settings, "repetition");
    if (!repetition.is_null() && !repetition.is_boolean()) return make_error("repetition must be true or false");
    config.repetition_draw = repetition.is_boolean() && repetition.get<bool>();
    return View::Adapter::make_variant(config);
}

// Every legal move of the position with its text and cells: [{"m": "a1", "p": ["a1"], "k": "flat"}].
// Empty at a chance node (the server rolls) and once the game is over.
template <class View>
Json legal_moves_json(const GameRecord<typename View::Adapter::Game>& record) {
    using G = typename View::Adapter::Game;
    Json list = Json::array();
    const auto& state = record.current();
    if (record.outcome().is_over() || is_chance_node<G>(state)) return list;
    MoveList<G> moves;
    G::generate_moves(state, moves);
    for (const auto& move : moves) {
        const MovePath path = View::path(state, move);
        Json entry;
        entry["m"] = G::format_move(state, move);
        entry["p"] = path.cells;
        if (!path.kind.empty()) entry["k"] = path.kind;
        list.push_back(std::move(entry));
    }
    return list;
}

inline Json cells_json(const MovePath& path) { return path.cells; }

// The board after `plies` moves of the record, with the last move's cells for highlighting.
// Who made each move from `start` (0 or 1), null for a roll of the dice: the page draws each
// side's scores as a line of its own.
template <Game G>
Json movers_json(typename G::State position, const std::vector<typename G::Move>& moves) {
    Json movers = Json::array();
    for (const auto& move : moves) {
        movers.push_back(is_chance_node<G>(position) ? Json() : Json(index_of(G::side_to_move(position))));
        G::play(position, move);
    }
    return movers;
}

template <class View>
Json board_at(const typename View::Adapter::Game::State& before, const typename View::Adapter::Game::Move* last,
              const typename View::Adapter::Game::State& state) {
    Json board = View::board(state, last ? &before : nullptr, last);
    if (last) board["last"] = cells_json(View::path(before, *last));
    return board;
}

// A principal variation as the engine printed it, replayed by the rules from `state`: the move
// texts and their cells, up to the first move that is not legal (an engine's PV may be stale).
template <class View>
Json pv_json(typename View::Adapter::Game::State state, const std::vector<std::string>& words) {
    using G = typename View::Adapter::Game;
    Json moves = Json::array(), paths = Json::array();
    for (const std::string& word : words) {
        if (G::outcome(state).is_over()) break;
        auto move = G::parse_move(state, word);
        if (!move) break;
        moves.push_back(G::format_move(state, *move));
        paths.push_back(cells_json(View::path(state, *move)));
        G::play(state, *move);
    }
    Json pv;
    pv["moves"] = std::move(moves);
    pv["paths"] = std::move(paths);
    return pv;
}

// "+0.63/7 0.42s" (the arbiter's move comment) -> 63 centipawns, from the mover's point of view.
inline std::optional<int> score_from_comment(std::string_view comment) {
    if (comment.empty() || (comment[0] != '+' && comment[0] != '-')) return std::nullopt;
    const std::size_t slash = comment.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    const std::string number(comment.substr(1, slash - 1));
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size() || !std::isfinite(value) || value > 1e7) return std::nullopt;
    const int cp = static_cast<int>(std::lround(value * 100));
    return comment[0] == '-' ? -cp : cp;
}

}  // namespace bge::gui
