#include "tools/arbiter/command_line.hpp"

#include "tools/arbiter/flag_reader.hpp"

#include <cctype>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "protocol/text.hpp"

namespace bge::arbiter {

namespace {

// One key=value token of -engine, -each or -openings, with the flag it came from (for errors).
struct Setting {
    std::string key;
    std::string value;
    std::string flag;
};

// FlagReader, and the key=value settings after -engine and -each split into their parts.
class ArgumentReader : public FlagReader {
public:
    using FlagReader::FlagReader;

    // The key=value tokens that follow a flag, up to the next flag.
    Expected<std::vector<Setting>> settings_of(const std::string& flag) {
        std::vector<Setting> settings;
        for (const std::string& token : words()) {
            const std::size_t equals = token.find('=');
            if (equals == std::string::npos || equals == 0)
                return make_error(fmt::format("{}: expected key=value, got '{}'", flag, token));
            settings.push_back({token.substr(0, equals), token.substr(equals + 1), flag});
        }
        return settings;
    }
};

// Splits args="..." like a shell would: whitespace separates, quotes group.
Expected<std::vector<std::string>> split_arguments(const std::string& text) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (char c : text) {
        if (quote != 0) {
            if (c == quote)
                quote = 0;
            else
                word += c;
        } else if (c == '"' || c == '\'') {
            quote = c;
            in_word = true;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (quote != 0) return make_error(fmt::format("unbalanced quote in '{}'", text));
    if (in_word) words.push_back(std::move(word));
    return words;
}

Expected<std::int64_t> integer_value(const std::string& flag, const std::string& text, std::int64_t min,
                                     std::int64_t max) {
    auto value = protocol::parse_integer(text, min, max, flag);
    if (!value) return make_error(value.error());
    return *value;
}

std::string describe(const Setting& setting) {
    return fmt::format("{} {}={}", setting.flag, setting.key, setting.value);
}

// Applies one engine setting; an error names the flag, key and value.
Status apply_engine_setting(EngineConfig& engine, const Setting& s) {
    auto fail = [&](const std::string& why) { return make_error(fmt::format("{}: {}", describe(s), why)); };
    auto integer = [&](std::int64_t min, std::int64_t max) {
        return protocol::parse_integer(s.value, min, max, s.key);
    };
    if (s.key == "cmd")
        engine.command = s.value;
    else if (s.key == "name")
        engine.name = s.value;
    else if (s.key == "dir")
        engine.working_directory = s.value;
    else if (s.key == "stderr")
        engine.stderr_path = s.value;
    else if (s.key == "args") {
        auto words = split_arguments(s.value);
        if (!words) return fail(words.error());
        engine.arguments = std::move(*words);
    } else if (s.key == "proto") {
        if (s.value == "tei")
            engine.dialect = protocol::Dialect::tei;
        else if (s.value == "ugi")
            engine.dialect = protocol::Dialect::ugi;
        else if (s.value == "pbrain")
            engine.dialect = protocol::Dialect::pbrain;
        else
            return fail("expected tei, ugi or pbrain");
    } else if (s.key == "tc") {
        auto tc = parse_time_control(s.value);
        if (!tc) return fail(tc.error());
        engine.time_control = *tc;
    } else if (s.key == "st") {
        auto ms = detail::parse_decimal_seconds(s.value);
        if (!ms) return fail(ms.error());
        if (*ms <= 0) return fail("the time per move must be positive");
        engine.move_time_ms = *ms;
    } else if (s.key == "nodes") {
        auto n = integer(1, std::int64_t{1} << 50);
        if (!n) return fail(n.error());
        engine.nodes = *n;
    } else if (s.key == "depth") {
        auto n = integer(1, 1000);
        if (!n) return fail(n.error());
        engine.depth = static_cast<int>(*n);
    } else if (s.key == "timemargin") {
        auto n = integer(0, 3'600'000);
        if (!n) return fail(n.error());
        engine.time_margin_ms = *n;
    } else if (s.key == "restart") {
        if (s.value != "on" && s.value != "off") return fail("expected on or off");
        engine.restart_every_game = s.value == "on";
    } else if (s.key == "pbrain") {
        if (s.value != "turn" && s.value != "board") return fail("expected turn or board");
        engine.pbrain_mode = s.value == "turn" ? PbrainMode::turn : PbrainMode::board;
    } else if (s.key.starts_with("option.") && s.key.size() > 7) {
        engine.options.emplace_back(s.key.substr(7), s.value);
    } else {
        return make_error(
            fmt::format("{}: unknown key '{}' (known: cmd name args dir proto pbrain tc st nodes depth "
                        "timemargin restart stderr option.NAME)",
                        s.flag, s.key));
    }
    return success();
}

// -each settings first, then the engine's own: a key given in both takes the engine's value.
std::vector<Setting> overlay(const std::vector<Setting>& each, const std::vector<Setting>& own) {
    std::vector<Setting> merged = each;
    for (const Setting& setting : own) {
        auto same_key = [&](const Setting& s) { return s.key == setting.key; };
        std::erase_if(merged, same_key);
        merged.push_back(setting);
    }
    return merged;
}

Status check_engine(const EngineConfig& engine, const std::string& flag, bool require_limit = true) {
    if (engine.command.empty()) return make_error(fmt::format("{}: cmd= is missing", flag));
    if (engine.time_control && engine.move_time_ms)
        return make_error(fmt::format("{} (cmd={}): give tc= or st=, not both", flag, engine.command));
    const bool limited = engine.has_clock() || engine.nodes || engine.depth;
    if (!limited && require_limit)
        return make_error(
            fmt::format("{} (cmd={}): needs a limit: tc=, st=, nodes= or depth= (tc=inf only with "
                        "nodes= or depth=)",
                        flag, engine.command));
    return success();
}

Expected<EngineConfig> make_engine(const std::vector<Setting>& each, const std::vector<Setting>& own) {
    EngineConfig engine;
    for (const Setting& setting : overlay(each, own))
        if (auto status = apply_engine_setting(engine, setting); !status) return make_error(status.error());
    if (auto status = check_engine(engine, "-engine"); !status) return make_error(status.error());
    if (engine.name.empty()) engine.name = std::filesystem::path(engine.command).filename().string();
    return engine;
}

// Two engines with the same name get "-2", "-3"... so the score lines stay unambiguous.
void make_names_unique(std::vector<EngineConfig>& engines) {
    std::map<std::string, int> seen;
    for (const EngineConfig& engine : engines) seen[engine.name] = 0;
    std::map<std::string, int> uses;
    for (EngineConfig& engine : engines) {
        if (++uses[engine.name] == 1) continue;
        int suffix = uses[engine.name];
        while (seen.count(fmt::format("{}-{}", engine.name, suffix))) ++suffix;
        engine.name = fmt::format("{}-{}", engine.name, suffix);
        seen[engine.name] = 0;
    }
}

Expected<OpeningsConfig> make_openings(const std::vector<Setting>& settings) {
    OpeningsConfig openings;
    for (const Setting& s : settings) {
        auto fail = [&](const std::string& why) { return make_error(fmt::format("{}: {}", describe(s), why)); };
        if (s.key == "file")
            openings.file = s.value;
        else if (s.key == "format") {
            if (s.value == "tps" || s.value == "fen" || s.value == "epd")
                openings.format = OpeningFormat::tps;
            else if (s.value == "moves")
                openings.format = OpeningFormat::moves;
            else if (s.value == "ptn" || s.value == "pgn")
                openings.format = OpeningFormat::ptn;
            else
                return fail("expected tps, moves or ptn");
        } else if (s.key == "order") {
            if (s.value == "sequential")
                openings.order = OpeningOrder::sequential;
            else if (s.value == "random")
                openings.order = OpeningOrder::random;
            else
                return fail("expected sequential or random");
        } else if (s.key == "start") {
            auto n = protocol::parse_integer(s.value, 1, 1'000'000'000, "start");
            if (!n) return fail(n.error());
            openings.start = static_cast<int>(*n);
        } else if (s.key == "plies") {
            auto n = protocol::parse_integer(s.value, 1, 1'000'000, "plies");
            if (!n) return fail(n.error());
            openings.plies = static_cast<int>(*n);
        } else {
            return make_error(fmt::format("-openings: unknown key '{}' (known: file format order start plies)", s.key));
        }
    }
    if (openings.file.empty()) return make_error("-openings: file= is missing");
    return openings;
}

// Reads key=value settings of -sprt, -draw, -resign and -timeouts into named numbers.
Status read_numbers(const std::vector<Setting>& settings, const std::string& flag,
                    const std::map<std::string, std::function<Status(const std::string&)>>& keys) {
    for (const Setting& s : settings) {
        const auto found = keys.find(s.key);
        if (found == keys.end()) {
            std::string known;
            for (const auto& [key, unused] : keys) known += (known.empty() ? "" : " ") + key;
            return make_error(fmt::format("{}: unknown key '{}' (known: {})", flag, s.key, known));
        }
        if (auto status = found->second(s.value); !status)
            return make_error(fmt::format("{}: {}", describe(s), status.error()));
    }
    return success();
}

Expected<double> decimal_value(const std::string& text, double min, double max) {
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (...) {
        used = 0;
    }
    if (used == 0 || used != text.size() || !(value >= min && value <= max))
        return make_error(fmt::format("expected a number from {} to {}, got '{}'", min, max, text));
    return value;
}

std::function<Status(const std::string&)> set_decimal(double& target, double min, double max) {
    return [&target, min, max](const std::string& text) -> Status {
        auto value = decimal_value(text, min, max);
        if (!value) return make_error(value.error());
        target = *value;
        return success();
    };
}

std::function<Status(const std::string&)> set_integer(int& target, std::int64_t min, std::int64_t max) {
    return [&target, min, max](const std::string& text) -> Status {
        auto value = protocol::parse_integer(text, min, max, "the value");
        if (!value) return make_error(value.error());
        target = static_cast<int>(*value);
        return success();
    };
}

using FlagHandler = std::function<Status(ArgumentReader&, const std::string&)>;

// Handlers for flags that take one integer.
FlagHandler integer_flag(int& target, std::int64_t min, std::int64_t max) {
    return [&target, min, max](ArgumentReader& reader, const std::string& flag) -> Status {
        auto text = reader.value_of(flag);
        if (!text) return make_error(text.error());
        auto value = integer_value(flag, *text, min, max);
        if (!value) return make_error(value.error());
        target = static_cast<int>(*value);
        return success();
    };
}

}  // namespace

Expected<int> parse_half_points(const std::string& text) {
    std::string_view rest = text;
    const bool negative = rest.starts_with('-');
    if (negative || rest.starts_with('+')) rest.remove_prefix(1);
    int whole = 0, digits = 0;
    while (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0]))) {
        if (++digits > 3) return make_error(fmt::format("-komi {}: too large", text));
        whole = whole * 10 + (rest[0] - '0');
        rest.remove_prefix(1);
    }
    int half = 2 * whole;
    if (rest == ".5")
        half += 1;
    else if (!rest.empty() && rest != ".0")
        return make_error(fmt::format("-komi {}: expected a number in steps of 0.5, e.g. 2 or 2.5", text));
    if (digits == 0) return make_error(fmt::format("-komi {}: expected a number in steps of 0.5, e.g. 2 or 2.5", text));
    return negative ? -half : half;
}


Expected<CommandLine> parse_command_line(const std::vector<std::string>& arguments) {
    CommandLine result;
    MatchConfig& config = result.config;
    std::vector<std::vector<Setting>> engine_settings;
    std::vector<Setting> each_settings;
    std::vector<Setting> opening_settings;
    bool openings_given = false;

    const std::map<std::string, FlagHandler> handlers = {
        {"-game",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto value = r.value_of(flag);
             if (!value) return make_error(value.error());
             config.game = *value;
             return success();
         }},
        {"-size",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto text = r.value_of(flag);
             if (!text) return make_error(text.error());
             auto value = integer_value(flag, *text, 1, 1000);  // the game adapter checks the range
             if (!value) return make_error(value.error());
             config.size = static_cast<int>(*value);
             return success();
         }},
        {"-komi",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto value = r.value_of(flag);
             if (!value) return make_error(value.error());
             auto half = parse_half_points(*value);
             if (!half) return make_error(half.error());
             config.half_komi = *half;
             return success();
         }},
        {"-rule",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto value = r.value_of(flag);
             if (!value) return make_error(value.error());
             config.rule = *value;  // the game adapter checks it
             return success();
         }},
        {"-ruleset",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto value = r.value_of(flag);
             if (!value) return make_error(value.error());
             config.ruleset = *value;  // the game adapter checks it
             return success();
         }},
        {"-pieces",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto text = r.value_of(flag);
             if (!text) return make_error(text.error());
             auto value = integer_value(flag, *text, 1, 7);
             if (!value) return make_error(value.error());
             config.pieces = static_cast<int>(*value);
             return success();
         }},
        {"-engine",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto settings = r.settings_of(flag);
             if (!settings) return make_error(settings.error());
             if (settings->empty()) return make_error("-engine needs key=value settings, at least cmd=PATH");
             engine_settings.push_back(std::move(*settings));
             return success();
         }},
        {"-each",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto settings = r.settings_of(flag);
             if (!settings) return make_error(settings.error());
             each_settings = overlay(each_settings, *settings);
             return success();
         }},
        {"-openings",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto settings = r.settings_of(flag);
             if (!settings) return make_error(settings.error());
             opening_settings = std::move(*settings);
             openings_given = true;
             return success();
         }},
        {"-rounds", integer_flag(config.rounds, 1, 1'000'000)},
        {"-games", integer_flag(config.games_per_encounter, 1, 2)},
        {"-concurrency", integer_flag(config.concurrency, 1, 256)},
        {"-maxmoves", integer_flag(config.max_moves, 1, 100'000)},
        {"-srand",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto value = r.value_of(flag);
             if (!value) return make_error(value.error());
             auto seed = integer_value(flag, *value, 0, std::numeric_limits<std::int64_t>::max());
             if (!seed) return make_error(seed.error());
             config.seed = static_cast<std::uint64_t>(*seed);
             return success();
         }},
        {"-pgnout",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto value = r.value_of(flag);
             if (!value) return make_error(value.error());
             config.record_file = *value;
             return success();
         }},
        {"-repetition",
         [&](ArgumentReader&, const std::string&) -> Status {
             config.repetition_draw = true;
             return success();
         }},
        {"-recover",
         [&](ArgumentReader&, const std::string&) -> Status {
             config.recover = true;
             return success();
         }},
        {"-repeat",  // cutechess compatibility: the games of an encounter always share an opening
         [&](ArgumentReader&, const std::string&) -> Status { return success(); }},
        {"-tournament",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto value = r.value_of(flag);
             if (!value) return make_error(value.error());
             if (*value == "round-robin")
                 config.tournament = Tournament::round_robin;
             else if (*value == "gauntlet")
                 config.tournament = Tournament::gauntlet;
             else
                 return make_error(fmt::format("-tournament {}: expected round-robin or gauntlet", *value));
             return success();
         }},
        {"-sprt",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto settings = r.settings_of(flag);
             if (!settings) return make_error(settings.error());
             SprtSettings sprt;
             if (auto status = read_numbers(*settings, flag,
                                            {{"elo0", set_decimal(sprt.elo0, -1000, 1000)},
                                             {"elo1", set_decimal(sprt.elo1, -1000, 1000)},
                                             {"alpha", set_decimal(sprt.alpha, 1e-9, 0.5)},
                                             {"beta", set_decimal(sprt.beta, 1e-9, 0.5)}});
                 !status)
                 return status;
             if (sprt.elo1 <= sprt.elo0) return make_error("-sprt: elo1 must be greater than elo0");
             config.sprt = sprt;
             return success();
         }},
        {"-draw",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto settings = r.settings_of(flag);
             if (!settings) return make_error(settings.error());
             DrawAdjudication draw;
             if (auto status = read_numbers(*settings, flag,
                                            {{"movenumber", set_integer(draw.move_number, 0, 100'000)},
                                             {"movecount", set_integer(draw.move_count, 1, 100'000)},
                                             {"score", set_integer(draw.score_cp, 0, 100'000)}});
                 !status)
                 return status;
             if (draw.move_count == 0) return make_error("-draw: movecount= is required");
             config.draw_adjudication = draw;
             return success();
         }},
        {"-resign",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto settings = r.settings_of(flag);
             if (!settings) return make_error(settings.error());
             ResignAdjudication resign;
             if (auto status = read_numbers(*settings, flag,
                                            {{"movecount", set_integer(resign.move_count, 1, 100'000)},
                                             {"score", set_integer(resign.score_cp, 1, 1'000'000)}});
                 !status)
                 return status;
             if (resign.move_count == 0 || resign.score_cp == 0)
                 return make_error("-resign: movecount= and score= are required");
             config.resign_adjudication = resign;
             return success();
         }},
        {"-timeouts",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto settings = r.settings_of(flag);
             if (!settings) return make_error(settings.error());
             return read_numbers(*settings, flag,
                                 {{"startup", set_integer(config.timeouts.startup_ms, 1, 3'600'000)},
                                  {"newgame", set_integer(config.timeouts.new_game_ms, 1, 3'600'000)},
                                  {"ping", set_integer(config.timeouts.ping_ms, 0, 3'600'000)}});
         }},
        {"-ratinginterval", integer_flag(config.rating_interval, 0, 1'000'000)},
        {"-jsonout",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto value = r.value_of(flag);
             if (!value) return make_error(value.error());
             config.results_file = *value;
             return success();
         }},
        {"-state",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto value = r.value_of(flag);
             if (!value) return make_error(value.error());
             config.state_file = *value;
             return success();
         }},
        {"-shard",
         [&](ArgumentReader& r, const std::string& flag) -> Status {
             auto value = r.value_of(flag);
             if (!value) return make_error(value.error());
             auto shard = parse_shard(*value);
             if (!shard) return make_error("-shard: " + shard.error());
             config.shard = *shard;
             return success();
         }},
    };

    result.arguments = arguments;
    ArgumentReader reader(arguments);
    while (!reader.done()) {
        std::string flag = reader.take();
        if (flag == "--shard") flag = "-shard";  // the spelling the sharding docs use
        if (flag == "-help" || flag == "--help" || flag == "-h") {
            result.help = true;
            return result;
        }
        const auto handler = handlers.find(flag);
        if (handler == handlers.end()) return make_error(fmt::format("unknown flag '{}' (see -help)", flag));
        if (auto status = handler->second(reader, flag); !status) return make_error(status.error());
    }

    for (const auto& own : engine_settings) {
        auto engine = make_engine(each_settings, own);
        if (!engine) return make_error(engine.error());
        config.engines.push_back(std::move(*engine));
    }
    if (config.engines.size() < 2)
        return make_error(fmt::format("-engine: need at least two engines, got {}", config.engines.size()));
    make_names_unique(config.engines);
    if (config.sprt && config.engines.size() != 2)
        return make_error(fmt::format("-sprt: needs exactly two engines, got {}", config.engines.size()));
    if (openings_given) {
        auto openings = make_openings(opening_settings);
        if (!openings) return make_error(openings.error());
        config.openings = *openings;
    }
    return result;
}

Expected<EngineConfig> parse_engine_settings(const std::vector<std::string>& words, bool require_limit) {
    ArgumentReader reader(words);
    auto settings = reader.settings_of("-engine");
    if (!settings) return make_error(settings.error());
    if (!reader.done()) return make_error(fmt::format("-engine: unexpected '{}'", reader.take()));
    EngineConfig engine;
    for (const Setting& setting : *settings)
        if (auto status = apply_engine_setting(engine, setting); !status) return make_error(status.error());
    if (auto status = check_engine(engine, "-engine", require_limit); !status) return make_error(status.error());
    if (engine.name.empty()) engine.name = std::filesystem::path(engine.command).filename().string();
    return engine;
}

std::optional<std::string> threads_warning(const std::vector<EngineConfig>& engines, int concurrency, int cores) {
    std::int64_t most = 1;
    std::string who;
    for (const auto& engine : engines)
        for (const auto& [name, value] : engine.options) {
            if (!protocol::equals_ignoring_case(name, "Threads")) continue;
            const auto threads = protocol::parse_integer(value, 1, 1 << 20, "Threads");
            if (threads && *threads > most) {
                most = *threads;
                who = engine.name;
            }
        }
    const std::int64_t wanted = most * std::max(1, concurrency);
    if (wanted <= cores) return std::nullopt;
    return fmt::format("{} game{} at once with Threads {} ({}) ask for {} cores and this machine has {}: the "
                       "searches will share cores, so timed games are played weaker than their settings say",
                       concurrency, concurrency == 1 ? "" : "s", most, who, wanted, cores);
}

std::string help_text() {
    return R"(Usage: arbiter -engine cmd=PATH [key=value...] -engine cmd=PATH [key=value...] [flags]
  or:  arbiter -resume STATEFILE
  or:  arbiter merge A.json B.json ... [-jsonout F] [-pgnout F]
  or:  arbiter report RESULTS.json [-o PAGE.html]
  or:  arbiter book -game tak -size N -plies P -count C [...]
Runs engine-vs-engine matches (a cutechess-cli style command line) and tallies the results.
-resume continues a match from its -state journal, merge adds up the results files of shards,
report writes an HTML page of a results file, and book generates an opening book.

Game:
  -game NAME              the game: tak (default), gomoku, twixt, ur or expendibots
  -size N                 board size, 3..8 for tak (default 6)
                          5..24 for twixt (default 24)
  -komi K                 komi in flats, steps of 0.5 (default 0)
  -rule R                 gomoku: freestyle, standard (exactly five) or renju (default freestyle)
  -ruleset R              ur: finkel, masters or blitz (default finkel); the arbiter rolls the dice
  -pieces N               ur: pieces per side, 1..7 (default 7; 5 for blitz)
  -repetition             threefold repetition is a draw
  -maxmoves N             adjudicate a draw after N full moves
  -draw movenumber=N movecount=N score=CP     draw when both engines' scores stay small
  -resign movecount=N score=CP                 loss for an engine whose score stays below -CP

Engines (at least two; -each applies to all, an engine's own keys win):
  -engine key=value...    cmd=PATH name=NAME args="a b" dir=DIR proto=tei|ugi|pbrain
                          tc=[moves/]time[+inc] (seconds or m:s, or inf)  st=SECONDS
                          nodes=N depth=N timemargin=MS restart=on|off stderr=FILE
                          option.NAME=VALUE  pbrain=turn|board (how a pbrain brain
                          learns the position: BEGIN/TURN as Piskvork, or a BOARD each move)
  -each key=value...
  -timeouts startup=MS newgame=MS ping=MS      liveness limits (default 10000 10000 5000;
                          ping=0: no isready before each move)

Match:
  -tournament round-robin|gauntlet   every pair, or the first engine against each other one
  -rounds N               rounds (default 1); each round plays every pair once
  -games N                games per pair and round: 1, or 2 with colours swapped (default 2)
  -repeat                 accepted for cutechess compatibility (a pair's games share an opening)
  -concurrency N          games played at once (default 1)
  -openings file=F format=tps|moves|ptn order=sequential|random start=K plies=N
  -srand SEED             seed for order=random (default 0)
  -sprt elo0=E0 elo1=E1 alpha=A beta=B   stop when the GSPRT accepts H0 or H1 (two engines)
  -ratinginterval N       print the ratings every N games
  -recover                restart an engine that crashed and go on (default: stop the match)
  -shard k/K              play only this slice of the schedule (merge the results afterwards)

Output:
  -pgnout FILE            append the game records (PTN for tak) to FILE
  -jsonout FILE           the results file (for merge and report)
  -state FILE             a journal that -resume continues from, even after SIGKILL
  -feed FILE              write the match's live feed to FILE: games move by move, engine
                          lines and results as JSON lines (gui watch --feed FILE shows it)
  -live PORT              also show the match live in a browser at http://127.0.0.1:PORT/
                          (starts gui --port PORT watch --feed - from arbiter's folder)
  -help                   this text
  -version                the version and the commit it was built from

Exit status: 0 all games played (or the SPRT decided), 1 match stopped early or an engine
could not be run, 2 bad command line, 130 interrupted (SIGINT/SIGTERM; the summary so far is
printed). Details: docs/arbiter.md.
)";
}

}  // namespace bge::arbiter
