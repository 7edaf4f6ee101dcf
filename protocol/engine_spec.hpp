#pragma once
// What a game's engine tells the shared protocol loop about itself: its name, its options, how
// the rules (Variant) follow from the options, which players (search algorithms) it offers, and
// the positions `bench` searches. engines/<game>/ fills one of these in and hands it to
// EngineLoop; everything else about the protocol is shared.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.hpp"
#include "core/version.hpp"
#include "protocol/line_reader.hpp"
#include "protocol/options.hpp"
#include "search/player.hpp"

namespace bge::protocol {

enum class Dialect { tei, ugi, pbrain };  // pbrain: Gomoku's Gomocup protocol (protocol/pbrain_loop.hpp)

template <Game G>
struct PlayerEntry {
    std::string name;
    std::string help;
    // The player may keep the registry reference and read its options at each search.
    std::function<std::unique_ptr<search::Player<G>>(const OptionRegistry&)> make;
};

template <Game G>
struct EngineSpec {
    std::string name;
    std::string version = version_text();  // the project version and commit (core/version.hpp)
    std::string author;
    Dialect default_dialect = Dialect::ugi;  // used when no handshake comes first

    // Declares the game's own options (rules such as HalfKomi, and its players' settings). Threads
    // and Hash are declared by the loop for every engine (protocol/search_options.hpp).
    std::function<void(OptionRegistry&)> add_options;
    std::int64_t hash_default_mib = 64;
    // The rules for the next game, from the options.
    std::function<Expected<typename G::Variant>(const OptionRegistry&)> variant;
    // TEI's `teinewgame <argument>` (the board size for Tak). Empty: the command takes none.
    std::function<Status(OptionRegistry&, std::string_view)> new_game_argument;

    std::vector<PlayerEntry<G>> players;
    std::string default_player;

    // `query score` (UGI extension): the game's score of a position and its outcome, as the
    // `response` text (Tak: the study's score from White's point of view, docs/tak.md). Empty, or
    // nullopt for a position: the engine has no score and the query is refused with an error.
    std::function<std::optional<std::string>(const typename G::State&, const Outcome&)> score_text;

    // When the first command belongs to another protocol (Gomoku's pbrain), this takes the session
    // over: it gets that line, the rest of the input, the options and the current player, and
    // returns the exit status. nullopt (or no hook) leaves the line to the loop.
    std::function<std::optional<int>(std::string_view first_line, LineReader& input, OptionRegistry& options,
                                     search::Player<G>& player)>
        take_over;

    // `bench`: fixed positions searched to a fixed depth by the current player.
    std::vector<std::string> bench_positions;
    int bench_depth = 5;
};

}  // namespace bge::protocol
