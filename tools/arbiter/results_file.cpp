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

Json pair_summary(const Results& results, int pair) {
    const EnginePair& p = results.pairs()[static_cast<std::size_t>(pair)];
    const Tally tally = results.tally(pair);
    const EloEstimate elo = estimate_elo(tally);
    const Pentanomial pentanomial = results.pentanomial(pair);
    Json value;
    value["first"] = p.first;
    value["second"] = p.second;
    value["wins"] = tally.wins;
    value["losses"] = tally.losses;
    value["draws"] = tally.draws;
    value["score"] = tally.score();
    value["elo"] = elo.elo;
    value["elo_error_95"] = elo.error_95;
    value["los_percent"] = elo.los_percent;
    Json counts = Json::array();
    for (int count : pentanomial.counts) counts.push_back(count);
    value["pentanomial"] = std::move(counts);
    return value;
}

}  // namespace

Json results_json(const MatchDescription& match, const Results& results) {
    Json doc;
    doc["format"] = results_format;
    doc["version"] = 1;
    doc["game"] = match.game;
    doc["variant"] = match.variant;
    std::string command_line = "arbiter";
    for (const std::string& argument : match.arguments) command_line += " " + argument;
    doc["command_line"] = command_line;
    doc["arguments"] = match.arguments;
    doc["seed"] = match.seed;
    doc["shard"]["index"] = match.shard.index;
    doc["shard"]["count"] = match.shard.count;
    doc["tournament"] = match.tournament == Tournament::gauntlet ? "gauntlet" : "round-robin";
    Json engines = Json::array();
    for (std::size_t i = 0; i < match.engine_names.size(); ++i) {
        Json engine;
        engine["name"] = match.engine_names[i];
        engine["command"] = i < match.engine_commands.size() ? match.engine_commands[i] : std::string();
        engine["id"] = i < match.engine_ids.size() ? match.engine_ids[i] : std::string();
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
    Json game_list = Json::array();
    for (const FinishedGame* game : games) game_list.push_back(game->to_json());
    doc["games"] = std::move(game_list);
    Json pairs = Json::array();
    for (std::size_t pair = 0; pair < results.pairs().size(); ++pair)
        pairs.push_back(pair_summary(results, static_cast<int>(pair)));
    doc["summary"]["pairs"] = std::move(pairs);
    return doc;
}

Status write_results_file(const std::string& path, const MatchDescription& match, const Results& results) {
    const std::string text = json::dump(results_json(match, results), true) + "\n";
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
    return results_from_json(std::move(*doc), path);
}

Expected<ResultsFile> results_from_json(Json doc, std::string_view where) {
    const std::string path(where);
    if (json::text(doc, "format") != results_format)
        return make_error(fmt::format("{} is not an arbiter results file", path));
    // Fields other than the games fall back to their defaults when missing or mistyped, as they
    // always have; merge compares what it reads.
    ResultsFile result;
    MatchDescription& match = result.match;
    match.game = json::text(doc, "game");
    match.variant = json::text(doc, "variant");
    for (const Json& argument : json::items(doc, "arguments"))
        match.arguments.push_back(argument.is_string() ? argument.get<std::string>() : std::string());
    match.seed = static_cast<std::uint64_t>(json::integer(doc, "seed").value_or(0));  // -srand takes 0 to 2^63-1
    if (const Json* shard = json::find(doc, "shard")) {
        match.shard.index = json::small_integer(*shard, "index").value_or(1);
        match.shard.count = json::small_integer(*shard, "count").value_or(1);
    }
    match.tournament = json::text(doc, "tournament") == "gauntlet" ? Tournament::gauntlet : Tournament::round_robin;
    for (const Json& engine : json::items(doc, "engines")) {
        match.engine_names.push_back(json::text(engine, "name"));
        match.engine_commands.push_back(json::text(engine, "command"));
        match.engine_ids.push_back(json::text(engine, "id"));  // files before the field have none
    }
    match.games_per_encounter = json::small_integer(doc, "games_per_encounter").value_or(2);
    match.scheduled_games = json::small_integer(doc, "scheduled_games").value_or(0);
    match.total_games = json::small_integer(doc, "total_games").value_or(0);
    if (const Json* sprt = json::find(doc, "sprt"); sprt && sprt->is_object())
        match.sprt =
            SprtSettings{json::number(*sprt, "elo0").value_or(0.0), json::number(*sprt, "elo1").value_or(0.0),
                         json::number(*sprt, "alpha").value_or(0.0), json::number(*sprt, "beta").value_or(0.0)};
    if (match.engine_names.size() < 2) return make_error(fmt::format("{}: fewer than two engines", path));
    std::set<int> numbers;
    for (const Json& entry : json::items(doc, "games")) {
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
    result.document = std::move(doc);
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
