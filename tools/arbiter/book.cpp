#include "tools/arbiter/book.hpp"

#include <cctype>
#include <cstdio>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "protocol/text.hpp"
#include "tools/arbiter/book_generator.hpp"
#include "tools/arbiter/flag_reader.hpp"
#include "tools/arbiter/expendibots_adapter.hpp"
#include "tools/arbiter/gomoku_adapter.hpp"
#include "tools/arbiter/twixt_adapter.hpp"
#include "tools/arbiter/tak_adapter.hpp"

namespace bge::arbiter {

namespace {

Status check_engine_limit(const EngineConfig& engine) {
    if (engine.time_control)
        return make_error(
            fmt::format("-engine (cmd={}): tc= has no meaning for a book; give depth=, nodes= or st=", engine.command));
    if (!engine.depth && !engine.nodes && !engine.move_time_ms)
        return make_error(fmt::format("-engine (cmd={}): needs a limit: depth=, nodes= or st=", engine.command));
    return success();
}

Expected<BookConfig> parse(const std::vector<std::string>& arguments) {
    BookConfig config;
    FlagReader reader(arguments);
    bool plies_given = false, count_given = false, max_eval_given = false;
    while (!reader.done()) {
        const std::string flag = reader.take();
        if (flag == "-help" || flag == "--help" || flag == "-h") {
            config.help = true;
        } else if (auto variant = read_variant_flag(reader, flag, config.rules); !variant) {
            return make_error(variant.error());
        } else if (*variant) {
            config.game = config.rules.game;
        } else if (flag == "-plies") {
            auto value = reader.integer_of(flag, 1, 1000);
            if (!value) return make_error(value.error());
            config.plies = static_cast<int>(*value);
            plies_given = true;
        } else if (flag == "-count") {
            auto value = reader.integer_of(flag, 1, 10'000'000);
            if (!value) return make_error(value.error());
            config.count = static_cast<int>(*value);
            count_given = true;
        } else if (flag == "-srand") {
            auto value = reader.integer_of(flag, 0, std::numeric_limits<std::int64_t>::max());
            if (!value) return make_error(value.error());
            config.seed = static_cast<std::uint64_t>(*value);
        } else if (flag == "-out") {
            auto value = reader.value_of(flag);
            if (!value) return make_error(value.error());
            if (value->empty()) return make_error("-out needs a file name");
            config.out_file = *value;
        } else if (flag == "-format") {
            auto value = reader.value_of(flag);
            if (!value) return make_error(value.error());
            if (*value == "moves")
                config.format = BookFormat::moves;
            else if (*value == "tps")
                config.format = BookFormat::tps;
            else
                return make_error(fmt::format("-format {}: expected moves or tps", *value));
        } else if (flag == "-engine") {
            const std::vector<std::string> words = reader.words();
            if (words.empty()) return make_error("-engine needs key=value words (cmd=PATH depth=N ...)");
            auto engine = parse_engine_settings(words, false);
            if (!engine) return make_error(engine.error());
            if (auto status = check_engine_limit(*engine); !status) return make_error(status.error());
            config.engine = std::move(*engine);
        } else if (flag == "-maxeval") {
            auto value = reader.integer_of(flag, 0, 1'000'000'000);
            if (!value) return make_error(value.error());
            config.max_eval_cp = static_cast<int>(*value);
            max_eval_given = true;
        } else if (flag == "-radius") {
            auto value = reader.integer_of(flag, 1, 100);
            if (!value) return make_error(value.error());
            config.radius = static_cast<int>(*value);
        } else if (flag == "-tries") {
            auto value = reader.integer_of(flag, 1, 1'000'000'000);
            if (!value) return make_error(value.error());
            config.max_tries = static_cast<int>(*value);
        } else {
            return make_error(fmt::format("unknown flag '{}'", flag));
        }
    }
    if (config.help) return config;
    if (!plies_given) return make_error("-plies is missing: how many moves each opening has");
    if (!count_given) return make_error("-count is missing: how many openings to generate");
    if (max_eval_given && !config.engine) return make_error("-maxeval needs an -engine to evaluate the openings");
    if (config.max_tries == 0 && config.count > std::numeric_limits<int>::max() / 50)
        config.max_tries = std::numeric_limits<int>::max();
    return config;
}

int usage_error(const std::string& message) {
    std::fputs(fmt::format("arbiter: error: book: {}\n(arbiter book -help lists the flags)\n", message).c_str(),
               stderr);
    return book_detail::exit_usage;
}

}  // namespace

Expected<BookConfig> parse_book_command_line(const std::vector<std::string>& arguments) { return parse(arguments); }

std::string book_help_text() {
    return R"(arbiter book - generates an opening book of distinct random lines

usage: arbiter book -game tak -size N [-komi K] -plies P -count C [-srand SEED] [-out FILE]
                    [-format moves|tps] [-engine cmd=PATH depth=N|nodes=N|st=S ...] [-maxeval CP]
                    [-radius R]

  -game tak          the game (default tak)
  -size N            board size (tak: 3..8, default 6)
  -komi K            komi in flats, steps of 0.5 (default 0); the engine is told it
  -plies P           moves in each opening (required)
  -count C           openings to generate (required)
  -srand SEED        seed of the random moves (default 0): same seed, same book
  -out FILE          write the book to FILE (default: stdout)
  -format moves|tps  one line of moves from the start (default), or the final position
  -engine key=value  keep only openings this engine scores within +-maxeval
                     (cmd= name= args= dir= proto= stderr= option.NAME= and a limit:
                     depth=, nodes= or st=)
  -maxeval CP        the bound in centipawns (default 100)
  -tries N           give up after N candidates (default 50 * count)
  -radius R          gomoku: every move within R cells (in any direction) of the centre

Openings are distinct by final position and never finished. The file reads back with
-openings file=FILE format=moves (or format=tps). Details: docs/arbiter.md.
)";
}

int run_book(const std::vector<std::string>& arguments) {
    auto config = parse(arguments);
    if (!config) return usage_error(config.error());
    if (config->help) {
        std::fputs(book_help_text().c_str(), stdout);
        return book_detail::exit_done;
    }
    if (config->game == "tak") return generate_book<TakAdapter>(*config);
    if (config->game == "expendibots") return generate_book<ExpendibotsAdapter>(*config);
    if (config->game == "gomoku") return generate_book<GomokuAdapter>(*config);
    if (config->game == "twixt") return generate_book<TwixtAdapter>(*config);
    if (config->game == "ur")
        return usage_error("-game ur: no books; the arbiter's dice (-srand) already make every game different");
    return usage_error(
        fmt::format("-game {}: unknown game (known: tak, gomoku, twixt, expendibots)", config->game));
}

}  // namespace bge::arbiter
