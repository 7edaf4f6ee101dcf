#pragma once
// Every finished game of a match, as the results file, the journal, `merge` and `report` see it,
// and the statistics computed from them. Game-agnostic: the record is already text.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "tools/arbiter/json.hpp"
#include "tools/arbiter/schedule.hpp"
#include "tools/arbiter/statistics.hpp"

namespace bge::arbiter {

// Writes a scheduled game's place (number, round, encounter, pair, colours, opening) into
// `value`: the results file's game entries and the live feed's game events share these fields.
void write_scheduled_game(const ScheduledGame& game, Json& value);
// Reads them back; `what` names the object in the error ("a game entry", "a game event").
Expected<ScheduledGame> read_scheduled_game(const Json& value, std::string_view what);

struct FinishedGame {
    ScheduledGame scheduled{};
    std::string result;       // "1-0", "0-1" or "1/2-1/2"
    std::string termination;  // the Termination tag: road, flats, time forfeit, ...
    std::string reason;       // the text in the braces of the Finished line
    int plies = 0;
    std::string record;  // the game record in the game's own notation (PTN for Tak)

    double white_points() const { return result == "1-0" ? 1.0 : result == "0-1" ? 0.0 : 0.5; }
    Json to_json() const;
    static Expected<FinishedGame> from_json(const Json& value);
};

class Results {
public:
    Results(std::vector<std::string> names, std::vector<EnginePair> pairs)
        : names_(std::move(names)), pairs_(std::move(pairs)) {}

    void add(FinishedGame game) { games_.push_back(std::move(game)); }
    const std::vector<FinishedGame>& games() const { return games_; }
    const std::vector<std::string>& names() const { return names_; }
    const std::vector<EnginePair>& pairs() const { return pairs_; }
    bool contains(int number) const;

    // From the pair's first engine's point of view.
    Tally tally(int pair) const;
    // Over encounters whose two games have both finished.
    Pentanomial pentanomial(int pair) const;
    std::vector<GameResult> game_results() const;

private:
    std::vector<std::string> names_;
    std::vector<EnginePair> pairs_;
    std::vector<FinishedGame> games_;
};

}  // namespace bge::arbiter
