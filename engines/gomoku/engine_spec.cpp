#include "engines/gomoku/engine_spec.hpp"

#include <fmt/format.h>

#include "core/version.hpp"
#include "engines/gomoku/players.hpp"
#include "protocol/text.hpp"

namespace bge::gomoku {

protocol::PbrainHooks<Gomoku> gomoku_pbrain_hooks() {
    protocol::PbrainHooks<Gomoku> hooks;
    hooks.variant = [](int width, int height, int rule) -> Expected<Variant> {
        if (rule & 8) return make_error("the caro rule (INFO rule 8) is not supported");
        Variant variant;
        variant.width = width;
        variant.height = height;
        variant.rule = (rule & 4) ? Rule::renju : (rule & 1) ? Rule::standard : Rule::freestyle;
        return check_variant(variant);
    };
    hooks.position = [](const Variant& variant, const protocol::Stones& stones,
                        const std::vector<protocol::Point>& blocked,
                        std::optional<Side> to_move) -> Expected<State> {
        State state = start_state(variant);
        auto put = [&](const protocol::Point& point, std::uint8_t cell) -> Status {
            if (!state.on_board(point.first, point.second))
                return make_error(fmt::format("{},{} is not on the {}x{} board", point.first, point.second,
                                              variant.width, variant.height));
            auto& target = state.cells[static_cast<std::size_t>(square_at(point.first, point.second))];
            if (target != empty) return make_error(fmt::format("{},{} is occupied", point.first, point.second));
            target = cell;
            return success();
        };
        for (const auto& point : blocked)
            if (auto status = put(point, wall); !status) return make_error(status.error());
        for (int side = 0; side < 2; ++side)
            for (const auto& point : stones[static_cast<std::size_t>(side)])
                if (auto status = put(point, side == 0 ? black : white); !status) return make_error(status.error());
        if (auto status = rebuild_derived(state, to_move); !status) return make_error(status.error());
        return state;
    };
    hooks.coordinates = [](const Move& move) { return protocol::Point{move.x(), move.y()}; };
    return hooks;
}

protocol::EngineSpec<Gomoku> gomoku_engine_spec() {
    protocol::EngineSpec<Gomoku> spec;
    spec.name = "gomoku";
    spec.author = "the bge team";
    spec.default_dialect = protocol::Dialect::ugi;

    spec.add_options = [](protocol::OptionRegistry& options) {
        options.add_spin("Width", 15, min_side, max_side, "board width for startpos");
        options.add_spin("Height", 15, min_side, max_side, "board height for startpos");
        options.add_spin("InARow", 5, 3, max_side, "stones in a row that win (k)");
        options.add_combo("Rule", "freestyle", {"freestyle", "standard", "renju"},
                          "freestyle: k or more wins; standard: exactly k; renju: Black's forbidden moves");
        options.add_spin("MoveLimit", 0, 0, max_board_cells, "a draw once this many stones are on the board (0: none)");
        add_player_options(options);
    };
    spec.variant = [](const protocol::OptionRegistry& options) -> Expected<Variant> {
        Variant variant;
        variant.width = static_cast<int>(options.integer("Width"));
        variant.height = static_cast<int>(options.integer("Height"));
        variant.k = static_cast<int>(options.integer("InARow"));
        auto rule = parse_rule(options.text("Rule"));
        if (!rule) return make_error(rule.error());
        variant.rule = *rule;
        variant.move_limit = static_cast<int>(options.integer("MoveLimit"));
        return check_variant(variant);
    };
    // `uginewgame 15` or `uginewgame 15x20` sets the board size.
    spec.new_game_argument = [](protocol::OptionRegistry& options, std::string_view argument) -> Status {
        const std::size_t cross = argument.find('x');
        const std::string_view width = argument.substr(0, cross);
        const std::string_view height = cross == std::string_view::npos ? argument : argument.substr(cross + 1);
        auto w = protocol::parse_integer(width, min_side, max_side, "board width");
        if (!w) return make_error(w.error());
        auto h = protocol::parse_integer(height, min_side, max_side, "board height");
        if (!h) return make_error(h.error());
        if (auto status = options.assign("Width", std::to_string(*w)); !status) return status;
        return options.assign("Height", std::to_string(*h));
    };
    spec.take_over = [](std::string_view first_line, protocol::LineReader& input, protocol::OptionRegistry& options,
                        search::Player<Gomoku>& player) -> std::optional<int> {
        if (!protocol::is_pbrain_command(first_line)) return std::nullopt;
        protocol::Output output;
        protocol::PbrainSession<Gomoku> session(
            gomoku_pbrain_hooks(), {"gomoku", version_text(), "the bge team", "international"}, options, player, output);
        return session.run(first_line, input);
    };

    spec.players = gomoku_players();
    spec.default_player = "puct";

    // The empty board, an opening, and positions from the engine's own games (taken at 9 and
    // 17 stones) with threes and fours on the board.
    spec.bench_positions = {
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x",
        "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 o",
        "15/15/10o4/9xo4/7oxx5/6oxx2x3/6xxo6/5o1xo6/8o6/15/15/15/15/15/15 o",
        "15/15/15/15/8x6/6oxx6/6x1o6/7xo6/8o6/15/15/15/15/15/15 o",
        "15/15/15/11o3/6x3x4/6xx1xo4/7ox6/7xox5/6o2oo4/10o4/11x3/15/15/15/15 o",
        "15/15/15/15/15/6x2x5/7ox6/7xox5/9oo4/15/15/15/15/15/15 o",
        "15/15/15/15/5x2o6/3o1o1x1o5/4xxxoxo5/5x1xo6/6x1o6/5o9/15/15/15/15/15 x",
        "15/15/15/15/15/9o5/5x2xo5/5x1xo6/6x1o6/15/15/15/15/15/15 o",
        "15/15/15/15/4x10/5oox1x5/6oxo6/6xoxo5/6o1ox5/4xx3x5/4o10/15/15/15/15 o",
        "15/15/15/15/4x10/5o1x7/6oxo6/6xox6/15/15/15/15/15/15/15 o",
    };
    spec.bench_depth = 6;
    return spec;
}

}  // namespace bge::gomoku
