#include "tools/arbiter/results_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

namespace bge::arbiter {

namespace {

constexpr const char* results_format = "bge-arbiter-results";

json::Value pair_summary(const Results& results, int pair) {
    const EnginePair& p = results.pairs()[static_cast<std::size_t>(pair)];
    const Tally tally = results.tally(pair);
    const EloEstimate elo = estimate_elo(tally);
    const Pentanomial pentanomial = results.pentanomial(pair);
    json::Value value;
    value["first"] = p.first;
    value["second"] = p.second;
    value["wins"] = tally.wins;
    value["losses"] = tally.losses;
    value["draws"] = tally.draws;
    value["score"] = tally.score();
    value["elo"] = elo.elo;
    value["elo_error_95"] = elo.error_95;
    value["los_percent"] = elo.los_percent;
    json::Array counts;
    for (int count : pentanomial.counts) counts.emplace_back(count);
    value["pentanomial"] = std::move(counts);
    return value;
}

}  // namespace

json::Value results_json(const MatchDescription& match, const Results& results) {
    json::Value doc;
    doc["format"] = results_format;
    doc["version"] = 1;
    doc["game"] = match.game;
    doc["variant"] = match.variant;
    std::string command_line = "arbiter";
    json::Array arguments;
    for (const std::string& argument : match.arguments) {
        command_line += " " + argument;
        arguments.emplace_back(argument);
    }
    doc["command_line"] = command_line;
    doc["arguments"] = std::move(arguments);
    doc["seed"] = match.seed;
    doc["shard"]["index"] = match.shard.index;
    doc["shard"]["count"] = match.shard.count;
    doc["tournament"] = match.tournament == Tournament::gauntlet ? "gauntlet" : "round-robin";
    json::Array engines;
    for (std::size_t i = 0; i < match.engine_names.size(); ++i) {
        json::Value engine;
        engine["name"] = match.engine_names[i];
        engine["command"] = i < match.engine_commands.size() ? match.engine_commands[i] : std::string();
        engines.push_back(std::move(engine));
    }
    doc["engines"] = std::move(engines);
    doc["games_per_encounter"] = match.games_per_encounter;
    doc["scheduled_games"] = match.scheduled_games;
    doc["total_games"] = match.total_games;
    if (match.sprt) {
        doc["sprt"]["elo0"] = match.sprt->elo0;
        doc["sprt"]["elo1"] = match.sprt->elo1;
        doc["sprt"]["alpha"] = match.sprt->alpha;
        doc["sprt"]["beta"] = match.sprt->beta;
    }
    std::vector<const FinishedGame*> games;
    for (const FinishedGame& game : results.games()) games.push_back(&game);
    std::sort(games.begin(), games.end(),
              [](const FinishedGame* a, const FinishedGame* b) { return a->scheduled.number < b->scheduled.number; });
    json::Array game_list;
    for (const FinishedGame* game : games) game_list.push_back(game->to_json());
    doc["games"] = std::move(game_list);
    json::Array pairs;
    for (std::size_t pair = 0; pair < results.pairs().size(); ++pair)
        pairs.push_back(pair_summary(results, static_cast<int>(pair)));
    doc["summary"]["pairs"] = std::move(pairs);
    return doc;
}

Status write_results_file(const std::string& path, const MatchDescription& match, const Results& results) {
    const std::string text = json::write(results_json(match, results), true) + "\n";
    const std::string temporary = path + ".tmp";
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return make_error(fmt::format("cannot write {}: {}", temporary, std::strerror(errno)));
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::close(fd);
            return make_error(fmt::format("cannot write {}: {}", temporary, std::strerror(errno)));
        }
        done += static_cast<std::size_t>(n);
    }
    ::fsync(fd);
    ::close(fd);
    if (std::rename(temporary.c_str(), path.c_str()) != 0)
        return make_error(fmt::format("cannot replace {}: {}", path, std::strerror(errno)));
    return success();
}

Expected<ResultsFile> read_results_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return make_error(fmt::format("cannot read {}", path));
    std::ostringstream text;
    text << file.rdbuf();
    auto doc = json::parse(text.str());
    if (!doc) return make_error(fmt::format("{}: {}", path, doc.error()));
    if ((*doc)["format"].as_string() != results_format)
        return make_error(fmt::format("{} is not an arbiter results file", path));
    ResultsFile result;
    MatchDescription& match = result.match;
    match.game = (*doc)["game"].as_string();
    match.variant = (*doc)["variant"].as_string();
    for (const json::Value& argument : (*doc)["arguments"].as_array()) match.arguments.push_back(argument.as_string());
    match.seed = static_cast<std::uint64_t>((*doc)["seed"].as_integer());
    match.shard.index = static_cast<int>((*doc)["shard"]["index"].as_integer(1));
    match.shard.count = static_cast<int>((*doc)["shard"]["count"].as_integer(1));
    match.tournament = (*doc)["tournament"].as_string() == "gauntlet" ? Tournament::gauntlet : Tournament::round_robin;
    for (const json::Value& engine : (*doc)["engines"].as_array()) {
        match.engine_names.push_back(engine["name"].as_string());
        match.engine_commands.push_back(engine["command"].as_string());
    }
    match.games_per_encounter = static_cast<int>((*doc)["games_per_encounter"].as_integer(2));
    match.scheduled_games = static_cast<int>((*doc)["scheduled_games"].as_integer());
    match.total_games = static_cast<int>((*doc)["total_games"].as_integer());
    if ((*doc)["sprt"].is_object()) {
        const json::Value& sprt = (*doc)["sprt"];
        match.sprt = SprtSettings{sprt["elo0"].as_number(), sprt["elo1"].as_number(), sprt["alpha"].as_number(),
                                  sprt["beta"].as_number()};
    }
    if (match.engine_names.size() < 2) return make_error(fmt::format("{}: fewer than two engines", path));
    std::set<int> numbers;
    for (const json::Value& entry : (*doc)["games"].as_array()) {
        auto game = FinishedGame::from_json(entry);
        if (!game) return make_error(fmt::format("{}: {}", path, game.error()));
        const int engines = static_cast<int>(match.engine_names.size());
        const auto& s = game->scheduled;
        if (s.white < 0 || s.white >= engines || s.black < 0 || s.black >= engines || s.white == s.black)
            return make_error(fmt::format("{}: game {} names engines that are not in the file", path, s.number));
        if (!numbers.insert(s.number).second)
            return make_error(fmt::format("{}: game {} appears twice", path, s.number));
        result.games.push_back(std::move(*game));
    }
    result.document = std::move(*doc);
    return result;
}

std::vector<std::string> schedule_arguments(const std::vector<std::string>& arguments) {
    static const std::set<std::string> output_flags = {"-shard", "--shard", "-pgnout", "-jsonout", "-state",
                                                       "-concurrency", "-ratinginterval"};
    std::vector<std::string> kept;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        if (output_flags.count(arguments[i])) {
            ++i;  // and its value
            continue;
        }
        kept.push_back(arguments[i]);
    }
    return kept;
}

}  // namespace bge::arbiter
