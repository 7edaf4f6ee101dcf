#include "tools/arbiter/analysis.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "tools/arbiter/analyser.hpp"
#include "tools/arbiter/expendibots_adapter.hpp"
#include "tools/arbiter/flag_reader.hpp"
#include "tools/arbiter/gomoku_adapter.hpp"
#include "tools/arbiter/tak_adapter.hpp"
#include "tools/arbiter/twixt_adapter.hpp"
#include "tools/arbiter/ur_adapter.hpp"

namespace bge::arbiter {

namespace {

// The limit is what makes an analysis repeatable and comparable: a clock has no place in it.
Status check_engine_limit(const EngineConfig& engine) {
    if (engine.time_control)
        return make_error(fmt::format(
            "-engine (cmd={}): tc= has no meaning for an analysis; give nodes=, depth= or st=", engine.command));
    if (!engine.depth && !engine.nodes && !engine.move_time_ms)
        return make_error(fmt::format("-engine (cmd={}): needs a limit: nodes=, depth= or st=", engine.command));
    if (engine.dialect == protocol::Dialect::pbrain && !engine.move_time_ms)
        return make_error(fmt::format(
            "-engine (cmd={}): pbrain has no node or depth limit; give st= (seconds a position)", engine.command));
    return success();
}

Expected<int> centipawns_of(FlagReader& reader, const std::string& flag) {
    auto value = reader.integer_of(flag, 1, 1'000'000);
    if (!value) return make_error(value.error());
    return static_cast<int>(*value);
}

int usage_error(const std::string& message) {
    std::fputs(
        fmt::format("arbiter: error: analyse: {}\n(arbiter analyse -help lists the flags)\n", message).c_str(), stderr);
    return analysis_detail::exit_usage;
}

}  // namespace

Expected<AnalysisConfig> parse_analysis_command_line(const std::vector<std::string>& arguments) {
    AnalysisConfig config;
    FlagReader reader(arguments);
    bool engine_given = false;
    while (!reader.done()) {
        const std::string flag = reader.take();
        Status status = success();
        if (flag == "-help" || flag == "--help" || flag == "-h") {
            config.help = true;
        } else if (!flag.starts_with('-')) {
            config.inputs.push_back(flag);
        } else if (auto variant = read_variant_flag(reader, flag, config.rules); !variant) {
            return make_error(variant.error());
        } else if (*variant) {
            // read into config.rules
        } else if (flag == "-out" || flag == "-data") {
            auto value = reader.value_of(flag);
            if (!value) return make_error(value.error());
            if (value->empty()) return make_error(fmt::format("{} needs a value", flag));
            (flag == "-out" ? config.out_file : config.data_file) = *value;
        } else if (flag == "-mistake" || flag == "-blunder") {
            auto value = centipawns_of(reader, flag);
            if (!value) return make_error(value.error());
            (flag == "-mistake" ? config.mistake_cp : config.blunder_cp) = *value;
        } else if (flag == "-concurrency") {
            auto value = reader.integer_of(flag, 1, 256);
            if (!value) return make_error(value.error());
            config.concurrency = static_cast<int>(*value);
        } else if (flag == "-shard" || flag == "--shard") {
            auto value = reader.value_of(flag);
            if (!value) return make_error(value.error());
            auto shard = parse_shard(*value);
            if (!shard) return make_error("-shard: " + shard.error());
            config.shard = *shard;
        } else if (flag == "-resume") {
            config.resume = true;
        } else if (flag == "-engine") {
            if (engine_given) return make_error("-engine given twice: an analysis has one engine");
            const std::vector<std::string> words = reader.settings();
            if (words.empty()) return make_error("-engine needs key=value words (cmd=PATH nodes=N ...)");
            auto engine = parse_engine_settings(words, false);
            if (!engine) return make_error(engine.error());
            if (status = check_engine_limit(*engine); !status) return make_error(status.error());
            config.engine = std::move(*engine);
            engine_given = true;
        } else {
            return make_error(fmt::format("unknown flag '{}'", flag));
        }
    }
    if (config.help) return config;
    if (!engine_given) return make_error("-engine is missing: which engine analyses (cmd=PATH nodes=N ...)");
    if (config.inputs.empty()) return make_error("which records? give one or more files after the flags");
    if (config.out_file.empty() && config.data_file.empty())
        return make_error("nothing to write: give -out FILE (the annotated records), -data FILE (the dataset), or both");
    if (config.resume && config.data_file.empty())
        return make_error("-resume continues the -data file of a run that stopped: give -data FILE");
    if (config.mistake_cp > config.blunder_cp)
        return make_error(fmt::format("-mistake {} is more than -blunder {}: a blunder loses more than a mistake",
                                      config.mistake_cp, config.blunder_cp));
    for (const std::string& input : config.inputs)
        if (input == config.out_file || input == config.data_file)
            return make_error(fmt::format("{} is both a record to read and a file to write", input));
    return config;
}

std::string analysis_limit_text(const EngineConfig& engine) {
    std::string limit;
    auto add = [&](const std::string& word) { limit += (limit.empty() ? "" : " ") + word; };
    if (engine.nodes) add(fmt::format("nodes={}", *engine.nodes));
    if (engine.depth) add(fmt::format("depth={}", *engine.depth));
    if (engine.move_time_ms) add(fmt::format("st={}", static_cast<double>(*engine.move_time_ms) / 1000.0));
    return limit;
}

std::string analysis_help_text() {
    return R"(arbiter analyse - computer analysis of game records

usage: arbiter analyse -game GAME [variant flags]
                       -engine cmd=PATH nodes=N|depth=N|st=S [key=value ...]
                       [-out FILE] [-data FILE] [-mistake CP] [-blunder CP] [-concurrency N]
                       [-shard k/K] [-resume] RECORD_FILE...

  -game G            tak (PTN), gomoku, twixt, ur (the arbiter's records), expendibots (the
                     referee's log); default tak
  -size, -komi, -rule, -ruleset, -pieces
                     the variant, as for a match; a Tak record's own Size and Komi tags rule
  -engine key=value  the analysing engine: cmd= name= args= dir= proto= stderr= option.NAME= and
                     one fixed limit: nodes=, depth= or st= (seconds; pbrain engines take only st=)
  -out FILE          the records again, each move with its evaluation after the move from the
                     mover's side ({+0.45/12}), ? and ?? on moves that lose -mistake and -blunder
                     centipawns against the engine's best move (with the best move in the comment)
  -data FILE         one JSON line per position: file, game, ply, variant, position, side,
                     score_cp, mate, depth, best, pv, played, result, outcome, engine, limit
  -mistake CP        a move that loses at least CP is marked ? (default 100)
  -blunder CP        ... and ?? from CP (default 300)
  -concurrency N     engine processes at once, each on its own record (default 1)
  -shard k/K         analyse only block k of K of the records (all files, in order)
  -resume            continue the -data file of a run that was stopped: positions already in it
                     are not searched again

Every position of every record is searched once (not positions after the end, nor Ur's rolls).
A record with an illegal move is analysed up to it; an engine that dies or stalls on a position
is restarted and the position left out; messages name the file, the game and the ply.
Details: docs/arbiter.md.
)";
}

int run_analysis(const std::vector<std::string>& arguments) {
    auto config = parse_analysis_command_line(arguments);
    if (!config) return usage_error(config.error());
    if (config->help) {
        std::fputs(analysis_help_text().c_str(), stdout);
        return analysis_detail::exit_done;
    }
    const std::string& game = config->rules.game;
    if (game == "tak") return analyse_records<TakAdapter>(*config);
    if (game == "gomoku") return analyse_records<GomokuAdapter>(*config);
    if (game == "twixt") return analyse_records<TwixtAdapter>(*config);
    if (game == "ur") return analyse_records<UrAdapter>(*config);
    if (game == "expendibots") return analyse_records<ExpendibotsAdapter>(*config);
    return usage_error(fmt::format("-game {}: unknown game (known: tak, gomoku, twixt, ur, expendibots)", game));
}

}  // namespace bge::arbiter
