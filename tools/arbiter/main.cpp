// arbiter: runs engine-vs-engine matches with a cutechess-cli style command line, and the tools
// around them (docs/arbiter.md):
//   arbiter <match flags>                 play a match
//   arbiter -resume STATEFILE             continue a match from its -state journal
//   arbiter merge A.json B.json ...       add up the results files of shards
//   arbiter report RESULTS.json [-o F]    a self-contained HTML page of a results file
//   arbiter book <flags>                  generate an opening book
//   arbiter analyse <flags> FILES         computer analysis of game records

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/version.hpp"
#include "protocol/search_options.hpp"
#include "tools/arbiter/analysis.hpp"
#include "tools/arbiter/book.hpp"
#include "tools/arbiter/command_line.hpp"
#include "tools/arbiter/expendibots_adapter.hpp"
#include "tools/arbiter/gomoku_adapter.hpp"
#include "tools/arbiter/html_report.hpp"
#include "tools/arbiter/live_feed.hpp"
#include "tools/arbiter/match.hpp"
#include "tools/arbiter/merge.hpp"
#include "tools/arbiter/tak_adapter.hpp"
#include "tools/arbiter/twixt_adapter.hpp"
#include "tools/arbiter/ur_adapter.hpp"

namespace {

using namespace bge::arbiter;

int usage_error(const std::string& message) {
    std::fputs(fmt::format("arbiter: error: {}\n(arbiter -help lists the flags)\n", message).c_str(), stderr);
    return exit_usage;
}

// A variant flag of another game is refused rather than silently ignored (-size and -komi are
// checked by each adapter, with the game's own wording).
std::optional<std::string> foreign_variant_flag(const MatchConfig& config) {
    struct Flag {
        std::string_view name;
        bool given;
        std::initializer_list<std::string_view> games;
    };
    const Flag flags[] = {
        {"-rule", !config.rule.empty(), {"gomoku"}},
        {"-ruleset", !config.ruleset.empty(), {"ur"}},
        {"-pieces", config.pieces != 0, {"ur"}},
    };
    for (const Flag& flag : flags) {
        if (!flag.given) continue;
        bool known = false;
        for (std::string_view game : flag.games) known = known || game == config.game;
        if (!known) return fmt::format("{} has no meaning in {}", flag.name, config.game);
    }
    return std::nullopt;
}

// Who watches the match (docs/arbiter.md, "Live feed"): -feed FILE writes the live feed to a
// file; -live PORT hands it to the GUI's `gui watch --feed -`, started from the arbiter's own
// folder, which shows the match at http://127.0.0.1:PORT/. Neither is part of the match's
// arguments, so -resume and the results file never see them.
std::optional<int> live_port;
std::string feed_file;

// The gui installed or built beside this arbiter.
std::string gui_beside_arbiter() {
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::string("gui") : (self.parent_path() / "gui").string();
}

template <GameAdapter A>
int run(const CommandLine& command_line, const std::optional<JournalContents>& resume) {
    const MatchConfig& config = command_line.config;
    if (const auto warning = threads_warning(config.engines, config.concurrency, bge::protocol::machine_cores()))
        std::fputs(fmt::format("arbiter: warning: {}\n", *warning).c_str(), stderr);
    if (!live_port && feed_file.empty()) return run_match<A>(config, command_line.arguments, resume);
    FeedOutput output;
    if (!feed_file.empty())
        if (auto status = output.open_file(feed_file); !status) return usage_error(status.error());
    if (live_port) {
        const std::string gui = gui_beside_arbiter();
        std::error_code error;
        if (!std::filesystem::is_regular_file(gui, error))
            return usage_error(fmt::format(
                "-live needs the gui program beside arbiter, and there is no {} (build it: cmake --build build "
                "--target gui); or write the match's feed with -feed FILE and show it with `gui watch --feed FILE`",
                gui));
        output.start_viewer(gui, *live_port);
    }
    LiveFeed<A> feed(output);
    const int status = run_match<A>(config, command_line.arguments, resume, &feed);
    output.close();
    return output.viewer_failed() ? exit_stopped : status;
}

int play(const CommandLine& command_line, const std::optional<JournalContents>& resume) {
    const MatchConfig& config = command_line.config;
    const bool known_game = config.game == "tak" || config.game == "expendibots" || config.game == "gomoku" ||
                            config.game == "twixt" || config.game == "ur";
    if (known_game)
        if (const auto foreign = foreign_variant_flag(config)) return usage_error(*foreign);
    if (config.game == "tak") return run<TakAdapter>(command_line, resume);
    if (config.game == "expendibots") return run<ExpendibotsAdapter>(command_line, resume);
    if (config.game == "gomoku") return run<GomokuAdapter>(command_line, resume);
    if (config.game == "twixt") return run<TwixtAdapter>(command_line, resume);
    if (config.game == "ur") return run<UrAdapter>(command_line, resume);
    return usage_error(fmt::format("-game {}: unknown game (known: tak, gomoku, twixt, ur, expendibots)", config.game));
}

int resume(const std::vector<std::string>& arguments) {
    if (arguments.size() != 2) return usage_error("-resume takes the state file and nothing else");
    const std::string& path = arguments[1];
    auto journal = Journal::load(path);
    if (!journal) return usage_error(journal.error());
    auto command_line = parse_command_line(journal->header.arguments);
    if (!command_line)
        return usage_error(fmt::format("{}: its command line no longer parses: {}", path, command_line.error()));
    command_line->config.state_file = path;
    return play(*command_line, *journal);
}

int report(const std::vector<std::string>& arguments) {
    std::string input, output;
    for (std::size_t i = 1; i < arguments.size(); ++i) {
        if (arguments[i] == "-o" && i + 1 < arguments.size())
            output = arguments[++i];
        else if (input.empty() && !arguments[i].starts_with('-'))
            input = arguments[i];
        else
            return usage_error(fmt::format(
                "report: unexpected '{}' (usage: arbiter report RESULTS.json [-o PAGE.html])", arguments[i]));
    }
    if (input.empty()) return usage_error("report: which results file? (arbiter report RESULTS.json [-o PAGE.html])");
    auto results = read_results_file(input);
    if (!results) return usage_error(results.error());
    if (output.empty()) output = (input.ends_with(".json") ? input.substr(0, input.size() - 5) : input) + ".html";
    std::ofstream page(output, std::ios::binary | std::ios::trunc);
    page << html_report(results->document);
    page.flush();
    if (!page) return usage_error(fmt::format("report: cannot write {}", output));
    std::fputs(fmt::format("arbiter: wrote {}\n", output).c_str(), stderr);
    return exit_complete;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> arguments(argv + 1, argv + argc);
    if (bge::print_version_if_asked(argc, argv, "arbiter")) return exit_complete;
    const bool subcommand = !arguments.empty() && (arguments[0] == "merge" || arguments[0] == "report" || arguments[0] == "book" ||
                                                   arguments[0] == "analyse" || arguments[0] == "analyze");
    // -live PORT and -feed FILE: taken out before the match's own flags are read.
    for (std::size_t i = 0; !subcommand && i < arguments.size();) {
        const std::string& flag = arguments[i];
        const bool live = flag == "-live" || flag == "--live", feed = flag == "-feed" || flag == "--feed";
        if (!live && !feed) {
            ++i;
            continue;
        }
        const std::string value = i + 1 < arguments.size() ? arguments[i + 1] : "";
        if (live) {
            if (value.empty() || value.size() > 5 || value.find_first_not_of("0123456789") != std::string::npos ||
                std::stoi(value) > 65535)
                return usage_error(fmt::format("-live {}: a port is 0 to 65535", value));
            live_port = std::stoi(value);
        } else {
            if (value.empty()) return usage_error("-feed needs a file");
            feed_file = value;
        }
        arguments.erase(arguments.begin() + static_cast<std::ptrdiff_t>(i), arguments.begin() + static_cast<std::ptrdiff_t>(i) + 2);
    }
    if (!arguments.empty()) {
        if (arguments[0] == "-resume" || arguments[0] == "--resume") return resume(arguments);
        if (arguments[0] == "merge") return run_merge(std::vector<std::string>(arguments.begin() + 1, arguments.end()));
        if (arguments[0] == "report") return report(arguments);
        if (arguments[0] == "book") return run_book(std::vector<std::string>(arguments.begin() + 1, arguments.end()));
        if (arguments[0] == "analyse" || arguments[0] == "analyze")
            return run_analysis(std::vector<std::string>(arguments.begin() + 1, arguments.end()));
    }
    auto command_line = parse_command_line(arguments);
    if (!command_line) return usage_error(command_line.error());
    if (command_line->help) {
        std::fputs(help_text().c_str(), stdout);
        return exit_complete;
    }
    return play(*command_line, std::nullopt);
}
