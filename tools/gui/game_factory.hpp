#pragma once
// Makes the sessions of one game from the page's requests (the only place a game's name from
// the page is turned into types). One factory per game, each in its own file so the five games
// compile in parallel.

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "tools/arbiter/command_line.hpp"
#include "tools/arbiter/journal.hpp"
#include "tools/arbiter/results_file.hpp"
#include "tools/gui/engine_options.hpp"
#include "tools/gui/session.hpp"

namespace bge::gui {

// Plays an arbiter's live feed (`gui watch --feed`) into a watch session made by new_watch().
class FeedReplay {
public:
    virtual ~FeedReplay() = default;
    // The match as the feed's first line described it (its games so far, when it was resumed).
    virtual void start() = 0;
    // One event of the feed after its first line. One that does not fit the match (a game not
    // started, a move that is not legal) is refused with the reason and changes nothing.
    virtual Status apply(const Json& event) = 0;
    virtual bool over() const = 0;  // the feed said the match is over
};

class GameFactory {
public:
    virtual ~GameFactory() = default;
    // {"type": "new_game", "game", "variant": {...}, "players": ["person" | engine name, x2],
    //  "tc": "5+0.1" (optional), "limit": {"movetime" ms, "depth", "nodes"} (optional),
    //  "position": text (optional), "seed": dice seed (optional),
    //  "options": [{"Hash": 128}, {}] (optional: each seat's engine options, engine_options.hpp)}
    virtual Expected<std::shared_ptr<Session>> new_game(std::int64_t id, const Json& request,
                                                        const std::vector<EngineEntry>& engines,
                                                        EngineOptionsCache& options) const = 0;
    // {"type": "analyse", "game", "variant", "position" (optional), "moves": "a1 f6 ..." (optional)}
    // or {"type": "load_record", "game", "text": the record file, "index": game number from 0,
    //     "at": "start" (the default) or "end": the ply shown first}
    virtual Expected<std::shared_ptr<Session>> new_analysis(std::int64_t id, const Json& request,
                                                            const std::vector<EngineEntry>& engines,
                                                            std::shared_ptr<EngineOptionsCache> options) const = 0;
    // {"type": "preview", "game", "variant", "position" (optional), "for": any text}: the board of
    // that start, for the page to show before any game ({"type": "preview", "game", "board", "for"}).
    virtual Expected<Json> preview(const Json& request) const = 0;
    // The game's dialect for engines that name none, and the options its rules set.
    virtual protocol::Dialect default_dialect() const = 0;
    virtual std::span<const std::string_view> rule_option_names() const = 0;
    // A watch session for a match of this game, and the match itself (blocking; the exit status).
    virtual std::shared_ptr<Session> new_watch(std::int64_t id, const arbiter::MatchConfig& config) const = 0;
    virtual int run_match(Session& watch, const arbiter::MatchConfig& config, const std::vector<std::string>& arguments,
                          const std::optional<arbiter::JournalContents>& resume) const = 0;
    // The replay of a running arbiter's feed into `watch`, from the feed's first line.
    virtual Expected<std::unique_ptr<FeedReplay>> new_feed_replay(Session& watch, const arbiter::MatchConfig& config,
                                                                  const arbiter::ResultsFile& header) const = 0;
};

// nullptr for an unknown game.
const GameFactory* factory_for(std::string_view game);

const GameFactory& tak_factory();
const GameFactory& gomoku_factory();
const GameFactory& twixt_factory();
const GameFactory& ur_factory();
const GameFactory& expendibots_factory();

}  // namespace bge::gui
