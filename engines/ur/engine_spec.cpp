#include "engines/ur/engine_spec.hpp"

#include "engines/ur/players.hpp"

namespace bge::ur {

protocol::EngineSpec<Ur> ur_engine_spec() {
    protocol::EngineSpec<Ur> spec;
    spec.name = "ur";
    spec.author = "the bge team";
    spec.default_dialect = protocol::Dialect::ugi;

    spec.add_options = [](protocol::OptionRegistry& options) { add_player_options(options); };
    spec.variant = [](const protocol::OptionRegistry& options) -> Expected<Variant> {
        const std::string& name = options.text("Ruleset");
        Variant variant;
        variant.ruleset = name == "masters" ? Ruleset::masters : name == "blitz" ? Ruleset::blitz : Ruleset::finkel;
        variant.pieces = static_cast<int>(options.integer("Pieces"));
        return resolve_variant(variant);
    };

    spec.players = ur_players();
    // td beats the hand-written expectimax on every ruleset at the same depth (Finkel 0.69,
    // Masters 0.67, Blitz 0.62 over 2000 games each: docs/experiments/ur.md), so it plays by default.
    spec.default_player = "td";

    // Finkel positions with the roll known: the opening, then positions from random games
    // (every 12th decision or so), with at least three legal moves.
    spec.bench_positions = {
        "....__../......../....__.. 7,0 7,0 l 2", ".L..__../..D...L./...D__.. 5,0 5,0 l 1",
        "L..L__../...DD.../DD.D__.. 4,1 2,0 d 3", "..L.__L./.DL....D/DDD.__.. 4,0 2,0 d 3",
        "LLL.__../.....D.L/D.D.__.. 3,0 3,1 l 3", "....__L./L.....DD/.D.D__DD 4,1 1,0 d 3",
        "..L.__../..DL...L/.D.D__.. 3,1 1,3 l 2",
    };
    spec.bench_depth = 5;
    return spec;
}

}  // namespace bge::ur
