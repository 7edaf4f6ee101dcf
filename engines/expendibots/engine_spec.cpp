#include "engines/expendibots/engine_spec.hpp"

#include "engines/expendibots/players.hpp"

namespace bge::expendibots {

protocol::EngineSpec<Expendibots> expendibots_engine_spec() {
    protocol::EngineSpec<Expendibots> spec;
    spec.name = "expendibots";
    spec.author = "the bge team";
    spec.default_dialect = protocol::Dialect::ugi;

    spec.add_options = [](protocol::OptionRegistry& options) { add_player_options(options); };
    spec.variant = [](const protocol::OptionRegistry&) -> Expected<Variant> { return Variant{}; };

    spec.players = expendibots_players();
    spec.default_player = "alphabeta";

    // Out of the opening book, so bench measures search: early middlegames, contact positions
    // with tall stacks and chain reactions, and endgames.
    // (Positions from games of the engine against itself, every 8th to 40th action.)
    spec.bench_positions = {
        "b,b,x,b,b,x,b,b/b,x,b,x3,b,b/x8/x8/x8/x8/w,w,x,w,x2,w,w2/w,w,x,w,x2,w,x w 8",
        "x,b,x,b,b,x,b,b/b2,b,x4,b,b/x8/x8/x2,w,x5/x8/w,w,x4,w,w/w,w,x4,w,w w 8",
        "b,b,x2,b,x,b,b/b,b,x4,b,b/x3,b2,w,x,w,x/x3,b,x4/x8/x8/w,w,x,w,x2,w,w/w,w,x,w,x2,w,w w 8",
        "x4,b,x,b,b/x,b3,x4,b,b/x6,w,x/x8/x8/x,b,x6/w,x2,w3,x2,w,w/x,w,x,w,x2,w,w w 16",
        "b,b,x,b,b,x,b,x/x6,b,x/b,x7/x,w,x6/x8/x8/x,w3,x6/x6,w,w w 24",
        "x4,b,x3/x,b,x,w,x4/x8/w,x2,w,x4/x,b,x2,b,x3/x8/x6,w,w/x3,w,x2,w,w w 24",
        "b,b,x4,b,b/x8/x4,b,x3/x8/x3,w,x4/x4,b,x3/x,w,x,w,x3,w/x,w,x4,w,x w 24",
        "x3,b2,x2,b,x/x7,b/x8/x8/x8/x,w,x6/x7,w/x,w,x3,w,x2 w 32",
        "x4,b,x,b,x/x8/x3,b,x4/x8/x3,b,x4/x2,w,x3,w,x/w,x7/x6,w,x w 40",
        "x,b,x6/x3,w,x2,b4,x/x8/x8/x5,w2,x2/x8/x6,b,x/x6,w,w w 40",
    };
    spec.bench_depth = 8;
    return spec;
}

}  // namespace bge::expendibots
