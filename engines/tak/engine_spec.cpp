#include "engines/tak/engine_spec.hpp"

#include <fmt/format.h>

#include "core/tak/scoring.hpp"
#include "engines/tak/players.hpp"
#include "protocol/text.hpp"

namespace bge::tak {

protocol::EngineSpec<Tak> tak_engine_spec() {
    protocol::EngineSpec<Tak> spec;
    spec.name = "tak";
    spec.author = "the bge team";
    spec.default_dialect = protocol::Dialect::tei;

    spec.add_options = [](protocol::OptionRegistry& options) {
        options.add_spin("HalfKomi", 0, -20, 20, "komi in half flats, added to Black's flat count");
        options.add_spin("Size", 6, min_size, max_size, "board size for startpos (teinewgame <size> sets it)");
        options.add_check("RepetitionDraw", false, "threefold repetition is a draw (not a standard Tak rule)");
        add_player_options(options);
    };
    spec.variant = [](const protocol::OptionRegistry& options) -> Expected<Variant> {
        Variant variant;
        variant.size = static_cast<int>(options.integer("Size"));
        variant.half_komi = static_cast<int>(options.integer("HalfKomi"));
        variant.repetition_draw = options.boolean("RepetitionDraw");
        return variant;
    };
    spec.new_game_argument = [](protocol::OptionRegistry& options, std::string_view argument) -> Status {
        auto size = protocol::parse_integer(argument, min_size, max_size, "board size");
        if (!size) return make_error(size.error());
        return options.assign("Size", argument);
    };

    // `query score`: the study's score of a finished game from White's point of view (docs/tak.md).
    spec.score_text = [](const State& position, const Outcome& outcome) -> std::optional<std::string> {
        if (!outcome.is_over()) return "none";
        return std::to_string(study_score(position, outcome));
    };

    spec.players = tak_players();
    spec.default_player = "alphabeta";
    // 256 MiB holds eight million positions, enough for the longer searches of a 10-minute game;
    // the memory is only taken as the search fills it (search/transposition_table.hpp).
    spec.hash_default_mib = 256;

    // Openings, middlegames and endgames on every size, with roads, walls and tall stacks.
    spec.bench_positions = {
        "x5/x5/x5/x5/x5 1 1",
        "x6/x6/x6/x6/x6/x6 1 1",
        "2,x4/x5/x2,1,x2/x5/x4,1 1 3",
        "x2,2,x2,1/x3,1,x2/x,2,2C,1,1,x/x,2,x,1C,x2/x2,2,1,x2/x6 2 8",
        "2,1,1,1,1,2S/1,12,1,x,1C,1/2,2,2C,2,21,x/2,x2,121,x,1/21,x,2,1,1,x/2,x,2,x,2,1 2 18",
        "x,1,x4/x,1,2,x3/x,1,12C,2,x2/x,1,21C,2,2,x/x,1,x,1,x2/x6 2 10",
        "1,1,1,1,2S,2,2/x2,2,1C,x3/x,2,x5/x,2,1,x4/x,2C,x,1,x3/x2,2,1,x3/x7 1 10",
        "x8/x8/x3,2,x4/x2,2,1C,1,x3/x2,1,2C,x4/x3,1,x4/x8/x8 1 5",
        "x3,1/x,2,1,x/x,21S,x2/2,x3 1 6",
        "2,2,x,1,1/x,2,1,1,x/2,1,12C,2,x/1,2,21,2S,1/x,1,1,2,2 2 13",
    };
    spec.bench_depth = 7;
    return spec;
}

}  // namespace bge::tak
