#include "engines/twixt/engine_spec.hpp"

#include "engines/twixt/players.hpp"

namespace bge::twixt {

protocol::EngineSpec<Twixt> twixt_engine_spec() {
    protocol::EngineSpec<Twixt> spec;
    spec.name = "twixt";
    spec.author = "the bge team";
    spec.default_dialect = protocol::Dialect::ugi;

    spec.add_options = [](protocol::OptionRegistry& options) {
        options.add_spin("BoardSize", default_size, min_size, max_size, "board size N (N x N) for startpos");
        add_player_options(options);
    };
    spec.variant = [](const protocol::OptionRegistry& options) -> Expected<Variant> {
        return check_variant(Variant{static_cast<int>(options.integer("BoardSize"))});
    };
    // TEI-style `teinewgame <size>` sets the board size too.
    spec.new_game_argument = [](protocol::OptionRegistry& options, std::string_view argument) -> Status {
        if (argument.empty()) return success();
        return options.assign("BoardSize", std::string(argument));
    };

    spec.players = twixt_players();
    spec.default_player = "mcts";

    // Early middlegames from games of the engine against the study agents, 8x8 and 12x12.
    spec.bench_positions = {
        "8/8/3x4/3o4/1o2x3/3o4/3x4/8 x d3e5,b5d4,b5d6,d7e5",
        "2x5/8/3x4/5o2/2o1x3/4o3/8/8 x c1d3,d3e5,c5e6,e6f4",
        "12/12/12/3o8/6x5/6o5/4x2o4/5o6/4x7/12/12/12 x f8g6,f8h7",
        "12/12/6o5/5o1x4/4x2o4/12/6x1o3/5x6/3o8/4x7/2x9/12 o g3h5,f4h5,h5i7,e10f8,c11e10",
    };
    spec.bench_depth = 5;
    return spec;
}

}  // namespace bge::twixt
