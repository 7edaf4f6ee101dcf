#include "tools/gui/gui_options.hpp"

#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "tools/gui/game_factory.hpp"

namespace bge::gui {

namespace {

constexpr const char* family_engines[] = {"tak", "gomoku", "twixt", "ur", "expendibots"};

Status check_names(const std::vector<EngineEntry>& engines) {
    std::set<std::string> names;
    for (const EngineEntry& engine : engines)
        if (!names.insert(engine.config.name).second)
            return make_error(fmt::format("two engines are named '{}': give one another name=", engine.config.name));
    return success();
}

Expected<int> parse_port(const std::string& text) {
    if (text.empty() || text.size() > 5 || text.find_first_not_of("0123456789") != std::string::npos || std::stoi(text) > 65535)
        return make_error(fmt::format("--port {}: a port is 0 to 65535", text));
    return std::stoi(text);
}

Status read_config_file(const std::string& path, GuiOptions& options) {
    std::ifstream file(path);
    if (!file) return make_error(fmt::format("--config {}: cannot open the file", path));
    std::string line;
    for (int number = 1; std::getline(file, line); ++number) {
        const auto words = split_quoted(line);
        if (words.empty() || words[0].starts_with('#')) continue;
        const std::string where = fmt::format("{} line {}", path, number);
        const std::vector<std::string> rest(words.begin() + 1, words.end());
        if (words[0] == "engine") {
            auto entry = parse_engine_entry(rest);
            if (!entry) return make_error(fmt::format("{}: {}", where, entry.error()));
            options.engines.push_back(std::move(*entry));
        } else if ((words[0] == "host" || words[0] == "port" || words[0] == "allow-origin" || words[0] == "static") &&
                   rest.size() == 1) {
            if (words[0] == "host") options.server.host = rest[0];
            if (words[0] == "allow-origin") options.server.allowed_origins.push_back(rest[0]);
            if (words[0] == "static") options.static_folder = rest[0];
            if (words[0] == "port") {
                auto port = parse_port(rest[0]);
                if (!port) return make_error(fmt::format("{}: {}", where, port.error()));
                options.server.port = *port;
            }
        } else {
            return make_error(fmt::format("{}: expected 'engine key=value...', 'host ADDRESS', 'port N', "
                                          "'allow-origin ORIGIN' or 'static DIR', not '{}'",
                                          where, line));
        }
    }
    return success();
}

}  // namespace

std::vector<std::string> split_quoted(std::string_view text) {
    std::vector<std::string> words;
    std::string word;
    bool quoted = false, any = false;
    for (const char c : text) {
        if (c == '"') {
            quoted = !quoted;
            any = true;
        } else if (!quoted && (c == ' ' || c == '\t' || c == '\r' || c == '\n')) {
            if (any) words.push_back(std::move(word));
            word.clear();
            any = false;
        } else {
            word += c;
            any = true;
        }
    }
    if (any) words.push_back(std::move(word));
    return words;
}

Expected<EngineEntry> parse_engine_entry(const std::vector<std::string>& words) {
    EngineEntry entry;
    std::vector<std::string> settings;
    for (const std::string& word : words) {
        if (word.starts_with("game=")) entry.game = word.substr(5);
        else settings.push_back(word);
    }
    if (entry.game.empty()) return make_error("an engine needs game=tak|gomoku|twixt|ur|expendibots");
    if (!factory_for(entry.game))
        return make_error(fmt::format("game={}: the games are tak, gomoku, twixt, ur and expendibots", entry.game));
    auto config = arbiter::parse_engine_settings(settings, false);
    if (!config) return make_error(config.error());
    entry.config = std::move(*config);
    return entry;
}

Expected<GuiOptions> parse_gui_options(const std::vector<std::string>& arguments) {
    GuiOptions options;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& flag = arguments[i];
        if (flag == "watch") {
            options.watch = true;
            options.watch_arguments.assign(arguments.begin() + static_cast<std::ptrdiff_t>(i) + 1, arguments.end());
            const auto& rest = options.watch_arguments;
            if (!rest.empty() && (rest[0] == "--feed" || rest[0] == "-feed")) {
                if (rest.size() != 2 || rest[1].empty())
                    return make_error("watch --feed takes one file (or - for standard input) and nothing else");
                options.watch_feed = rest[1];
                options.watch_arguments.clear();
            }
            break;
        }
        if (flag == "--help" || flag == "-h" || flag == "-help") {
            options.help = true;
            return options;
        }
        if (i + 1 >= arguments.size()) return make_error(fmt::format("{} needs a value (see --help)", flag));
        const std::string& value = arguments[++i];
        if (flag == "--host") {
            options.server.host = value;
        } else if (flag == "--port") {
            auto port = parse_port(value);
            if (!port) return make_error(port.error());
            options.server.port = *port;
        } else if (flag == "--engine") {
            auto entry = parse_engine_entry(split_quoted(value));
            if (!entry) return make_error(fmt::format("--engine \"{}\": {}", value, entry.error()));
            options.engines.push_back(std::move(*entry));
        } else if (flag == "--engines-dir") {
            add_family_engines(options, value);
        } else if (flag == "--config") {
            if (auto status = read_config_file(value, options); !status) return make_error(status.error());
        } else if (flag == "--allow-origin") {
            options.server.allowed_origins.push_back(value);
        } else if (flag == "--static") {
            options.static_folder = value;
        } else {
            return make_error(fmt::format("unknown flag '{}' (see --help)", flag));
        }
    }
    if (auto status = check_names(options.engines); !status) return make_error(status.error());
    return options;
}

int add_family_engines(GuiOptions& options, const std::string& folder) {
    int added = 0;
    for (const char* game : family_engines) {
        const auto path = std::filesystem::path(folder) / game;
        std::error_code error;
        if (!std::filesystem::is_regular_file(path, error)) continue;
        EngineEntry entry;
        entry.game = game;
        entry.config.name = game;
        entry.config.command = path.string();
        options.engines.push_back(std::move(entry));
        ++added;
    }
    return added;
}

std::string gui_help_text() {
    return R"(Usage: gui [FLAG]...
  or:  gui [FLAG]... watch ARBITER-FLAG...
  or:  gui [FLAG]... watch --feed FILE|-
Play, analyse and watch engines of the five games in a browser (docs/gui.md). gui serves the
page; with watch, it also runs a match (as arbiter would, with arbiter's flags) and shows it live;
with watch --feed, it shows the match a running arbiter writes to its live feed (arbiter -feed
FILE; - reads the feed from standard input, as `arbiter -live PORT` gives it).

  --host ADDRESS         listen on ADDRESS (default 127.0.0.1: this machine only)
  --port N               listen on port N (default 8080; 0 picks a free one)
  --engine "game=G k=v"  an engine the page may start: game= (tak, gomoku, twixt, ur,
                         expendibots) and the arbiter's -engine keys: cmd=, name=, args=, dir=,
                         proto=, option.NAME=, st=, tc=, depth=, nodes=, stderr=
  --engines-dir DIR      the family's own engines found in DIR (tak, gomoku, twixt, ur, expendibots);
                         with no --engine, --engines-dir or config engines, the folder gui itself
                         is in (build/bin, or /usr/bin once installed)
  --config FILE          lines 'engine game=G k=v...', 'host A', 'port N', 'allow-origin O', 'static DIR'
  --allow-origin ORIGIN  also accept WebSocket connections from pages at ORIGIN
  --static DIR           serve the page's files from DIR instead of the built-in copy
  --help                 this text
  --version              the version and the commit it was built from

The page is at http://HOST:PORT/ once the server prints "gui: serving ...".
)";
}

}  // namespace bge::gui
