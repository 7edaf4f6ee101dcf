#pragma once
// The machine-readable results file (-jsonout), which `arbiter merge` adds up and `arbiter report`
// turns into a web page. Layout in docs/arbiter.md ("Results file").

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "tools/arbiter/command_line.hpp"
#include "tools/arbiter/json.hpp"
#include "tools/arbiter/results.hpp"

namespace bge::arbiter {

// What the results file says about the match besides its games.
struct MatchDescription {
    std::string game;
    std::string variant;
    std::vector<std::string> arguments;
    std::uint64_t seed = 0;
    Shard shard;
    std::vector<std::string> engine_names;
    std::vector<std::string> engine_commands;
    // What each engine said it is (`id name`, or pbrain's ABOUT: name and version); empty when it
    // did not say, or did not start in this run.
    std::vector<std::string> engine_ids;
    Tournament tournament = Tournament::round_robin;
    int games_per_encounter = 2;
    int scheduled_games = 0;  // in this shard
    int total_games = 0;      // in the whole schedule
    std::optional<SprtSettings> sprt;
};

Json results_json(const MatchDescription& match, const Results& results);
// Writes atomically (a temporary file, then rename), so readers never see half a file.
Status write_results_file(const std::string& path, const MatchDescription& match, const Results& results);

struct ResultsFile {
    MatchDescription match;
    std::vector<FinishedGame> games;
    Json document;
};
Expected<ResultsFile> read_results_file(const std::string& path);
// The same from a document already parsed (the live feed's header); `where` names it in errors.
Expected<ResultsFile> results_from_json(Json document, std::string_view where);

// The arguments that fix the schedule: without the flags that only say where output goes,
// how many games run at once, or which shard this is.
std::vector<std::string> schedule_arguments(const std::vector<std::string>& arguments);

}  // namespace bge::arbiter
