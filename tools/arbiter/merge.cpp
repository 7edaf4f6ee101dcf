#include "tools/arbiter/merge.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "tools/arbiter/match.hpp"
#include "tools/arbiter/match_report.hpp"
#include "tools/arbiter/results_file.hpp"

namespace bge::arbiter {

namespace {

int fail(const std::string& message) {
    std::fputs(fmt::format("arbiter merge: error: {}\n", message).c_str(), stderr);
    return exit_usage;
}

}  // namespace

int run_merge(const std::vector<std::string>& arguments) {
    std::vector<std::string> inputs;
    std::string json_output, record_output;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        if (arguments[i] == "-jsonout" && i + 1 < arguments.size()) json_output = arguments[++i];
        else if (arguments[i] == "-pgnout" && i + 1 < arguments.size()) record_output = arguments[++i];
        else if (!arguments[i].starts_with('-')) inputs.push_back(arguments[i]);
        else return fail(fmt::format("unexpected '{}' (usage: arbiter merge A.json B.json ... [-jsonout FILE] "
                                     "[-pgnout FILE])", arguments[i]));
    }
    if (inputs.empty()) return fail("no results files given");

    std::vector<ResultsFile> files;
    for (const std::string& input : inputs) {
        auto file = read_results_file(input);
        if (!file) return fail(file.error());
        files.push_back(std::move(*file));
    }
    const MatchDescription& first = files.front().match;
    const auto schedule = schedule_arguments(first.arguments);
    std::map<int, std::string> shard_files;
    std::map<int, const FinishedGame*> games;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const MatchDescription& match = files[i].match;
        if (schedule_arguments(match.arguments) != schedule || match.engine_names != first.engine_names ||
            match.total_games != first.total_games || match.shard.count != first.shard.count)
            return fail(fmt::format("{} is not a shard of the same match as {}", inputs[i], inputs[0]));
        if (!shard_files.emplace(match.shard.index, inputs[i]).second)
            return fail(fmt::format("{} and {} are both shard {}/{}", shard_files[match.shard.index], inputs[i],
                                    match.shard.index, match.shard.count));
        for (const FinishedGame& game : files[i].games)
            if (!games.emplace(game.scheduled.number, &game).second)
                return fail(fmt::format("game {} is in two files", game.scheduled.number));
    }

    // The games go in by number, the order a single run at -concurrency 1 plays them, and with an
    // SPRT the count ends where that run would have stopped: the merged report is that run's.
    Results results(first.engine_names, engine_pairs(first.tournament, static_cast<int>(first.engine_names.size())));
    std::optional<SprtConfig> sprt_config;
    std::optional<SprtStatus> sprt_status;
    if (first.sprt) sprt_config = SprtConfig{first.sprt->elo0, first.sprt->elo1, first.sprt->alpha, first.sprt->beta};
    int decided_at = 0, left_out = 0;
    for (auto it = games.begin(); it != games.end();) {
        if (decided_at > 0) {
            it = games.erase(it);
            ++left_out;
            continue;
        }
        results.add(*it->second);
        if (sprt_config) {
            sprt_status = first.games_per_encounter == 2 ? sprt(results.pentanomial(0), *sprt_config)
                                                         : sprt(results.tally(0), *sprt_config);
            if (sprt_status->verdict != SprtStatus::Verdict::continue_testing) decided_at = it->first;
        }
        ++it;
    }
    if (decided_at > 0 && left_out > 0)
        std::fputs(fmt::format("arbiter merge: the SPRT decided at game {}, where a single run stops; the {} later "
                               "games of the shards are left out\n",
                               decided_at, left_out)
                       .c_str(),
                   stderr);
    if (static_cast<int>(shard_files.size()) < first.shard.count)
        std::fputs(fmt::format("arbiter merge: note: {} of {} shards given\n", shard_files.size(), first.shard.count)
                       .c_str(),
                   stderr);

    MatchDescription merged = first;
    // An engine's identity from the first shard that knows it; shards that ran different builds
    // of an engine are worth a word, since their games were not played by one program.
    for (const ResultsFile& file : files) {
        for (std::size_t engine = 0; engine < merged.engine_ids.size() && engine < file.match.engine_ids.size(); ++engine) {
            const std::string& id = file.match.engine_ids[engine];
            if (id.empty()) continue;
            if (merged.engine_ids[engine].empty()) {
                merged.engine_ids[engine] = id;
            } else if (merged.engine_ids[engine] != id) {
                std::fputs(fmt::format("arbiter merge: warning: engine {} is '{}' in one shard and '{}' in another\n",
                                       merged.engine_names[engine], merged.engine_ids[engine], id)
                               .c_str(),
                           stderr);
            }
        }
    }
    merged.arguments = schedule;
    merged.shard = Shard{};
    merged.scheduled_games = 0;
    for (const ResultsFile& file : files) merged.scheduled_games += file.match.scheduled_games;

    MatchReport report(first.engine_names, first.total_games, 0);
    report.summary(results, sprt_status, sprt_config);

    if (!json_output.empty())
        if (auto status = write_results_file(json_output, merged, results); !status) return fail(status.error());
    if (!record_output.empty()) {
        std::ofstream file(record_output, std::ios::binary | std::ios::trunc);
        for (const auto& [number, game] : games) file << game->record << '\n';
        if (!file) return fail(fmt::format("cannot write {}", record_output));
    }
    return exit_complete;
}

}  // namespace bge::arbiter
