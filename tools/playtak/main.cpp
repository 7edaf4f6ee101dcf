// playtak: puts any TEI engine on a playtak.com-style game server as a bot (docs/playtak.md).
//
//   playtak --engine build/bin/tak --user MyBot --size 6 --time 600 --increment 10
//
// The password comes from an environment variable (--password-env, default PLAYTAK_PASSWORD)
// or a file (--password-file), never from the command line, and never appears in any output.

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/program_options.hpp>

#include "core/expected.hpp"
#include "core/tak/types.hpp"
#include "core/version.hpp"
#include "tools/playtak/bridge.hpp"

namespace {

namespace po = boost::program_options;
using namespace bge::playtak;

int usage_error(const std::string& message) {
    std::fputs(fmt::format("playtak: error: {}\n(playtak --help lists the flags)\n", message).c_str(), stderr);
    return exit_usage;
}

bge::Expected<std::string> read_password(const std::string& file, const std::string& variable) {
    if (!file.empty()) {
        std::ifstream in(file);
        if (!in) return bge::make_error(fmt::format("cannot read the password file {}", file));
        std::string password;
        std::getline(in, password);
        while (!password.empty() && (password.back() == '\r' || password.back() == '\n')) password.pop_back();
        if (password.empty()) return bge::make_error(fmt::format("the password file {} is empty", file));
        return password;
    }
    const char* value = std::getenv(variable.c_str());
    if (!value || !*value)
        return bge::make_error(fmt::format("--user needs a password: set ${} or give --password-file", variable));
    std::string password = value;
    // The engine is a child process: it has no business inheriting the password.
    ::unsetenv(variable.c_str());
    return password;
}

bool valid_client_name(const std::string& name) {
    if (name.size() < 4 || name.size() > 15) return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') return false;
    return true;
}

// An option as written, without anything that may be a value: "--name" up to any '=', or the
// first two characters of a short option ("-pSECRET" is "-p").
std::string option_name_only(std::string_view written) {
    if (written.starts_with("--")) return std::string(written.substr(0, written.find('=')));
    if (written.starts_with("-")) return std::string(written.substr(0, 2));
    return "an argument";
}

// A usage error that never echoes an argument that may be a password: only option names, cut
// before any '=', and never a value.
std::string safe_description(const po::error& error) {
    if (const auto* unknown = dynamic_cast<const po::unknown_option*>(&error))
        return fmt::format("unrecognised option {} (what follows the option name is not shown)",
                           option_name_only(unknown->get_option_name()));
    if (const auto* ambiguous = dynamic_cast<const po::ambiguous_option*>(&error))
        return fmt::format("ambiguous option {} (what follows the option name is not shown)",
                           option_name_only(ambiguous->get_option_name()));
    if (dynamic_cast<const po::validation_error*>(&error) || dynamic_cast<const po::invalid_option_value*>(&error)) {
        const auto& named = dynamic_cast<const po::error_with_option_name&>(error);
        return fmt::format("the value given to {} is not valid", option_name_only(named.get_option_name()));
    }
    if (const auto* named = dynamic_cast<const po::error_with_option_name*>(&error))
        return fmt::format("{} is not given as expected (see --help)", option_name_only(named->get_option_name()));
    if (dynamic_cast<const po::too_many_positional_options_error*>(&error))
        return "an argument that is not an option (every argument belongs to a --flag)";
    return "the command line cannot be read (see --help)";
}

bool looks_like_password_flag(std::string_view argument) {
    // --pass, --passw=..., --password ...: anything that abbreviates --password but is not one
    // of the two flags that name where the password is; and -p, -pSECRET.
    if (argument.starts_with("--pass")) {
        const std::string_view name = argument.substr(0, argument.find('='));
        return name != "--password-env" && name != "--password-file";
    }
    return argument.starts_with("-p");
}

}  // namespace

int main(int argc, char** argv) {
    if (bge::print_version_if_asked(argc, argv, "playtak")) return exit_ok;
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument = argv[i];
        if (looks_like_password_flag(argument))
            return usage_error(fmt::format(
                "{} is refused: the password is never taken from the command line (set $PLAYTAK_PASSWORD, or "
                "the variable --password-env names, or give --password-file)",
                option_name_only(argument)));
    }

    BridgeConfig config;
    EngineConfig engine;
    std::string color = "A", on_interrupt = "finish", password_env = "PLAYTAK_PASSWORD", password_file, log_file;
    std::vector<std::string> engine_options;
    int port = 10000;
    long ping_ms = 30'000, ping_timeout_ms = 10'000, reconnect_min_ms = 1'000, reconnect_max_ms = 60'000, resume_ms = 30'000,
         seek_retry_ms = 10'000, idle_ms = 90'000, settle_ms = 300;
    bool verbose = false;
    SeekSettings& seek = config.seek_settings;

    // clang-format off
    po::options_description connection("Server");
    connection.add_options()
        ("host", po::value(&config.host)->default_value(config.host), "game server host")
        ("port", po::value(&port)->default_value(port), "game server port (plain TCP)")
        ("user", po::value(&config.user), "account name; without it the bridge logs in as a guest")
        ("password-env", po::value(&password_env)->default_value(password_env),
         "environment variable holding the password")
        ("password-file", po::value(&password_file), "file whose first line is the password (instead of the variable)")
        ("client-name", po::value(&config.client_name)->default_value(config.client_name),
         "name sent with 'Client' (4-15 characters: letters, digits, '-', '.')");
    po::options_description engine_flags("Engine");
    engine_flags.add_options()
        ("engine", po::value(&engine.command)->required(), "TEI engine executable")
        ("engine-arg", po::value(&engine.arguments)->composing(), "argument for the engine (repeatable)")
        ("engine-option", po::value(&engine_options)->composing(),
         "NAME=VALUE: setoption after every engine start (repeatable)")
        ("engine-log", po::value(&engine.stderr_path), "append the engine's stderr to this file")
        ("lag-margin-ms", po::value(&config.lag_margin_ms)->default_value(config.lag_margin_ms),
         "taken off both clocks before 'go', for network lag")
        ("movetime-ms", po::value(&config.movetime_ms)->default_value(0),
         "think this long per move (go movetime, at most a tenth of our clock) instead of on the clock");
    po::options_description games("Games");
    games.add_options()
        ("size", po::value(&seek.size)->default_value(6), "seek: board size")
        ("time", po::value(&seek.time_s)->default_value(600), "seek: seconds on each clock")
        ("increment", po::value(&seek.increment_s)->default_value(10), "seek: increment in seconds")
        ("color", po::value(&color)->default_value(color), "seek: our colour, W, B or A (any)")
        ("half-komi", po::value(&seek.half_komi)->default_value(0), "seek: komi in half flats")
        ("unrated", po::bool_switch(&seek.unrated), "seek: an unrated game")
        ("tournament", po::bool_switch(&seek.tournament), "seek: a tournament game")
        ("trigger-move", po::value(&seek.trigger_move)->default_value(0), "seek: move at which extra time is added")
        ("extra-time", po::value(&seek.extra_time_s)->default_value(0), "seek: extra seconds added at that move")
        ("opponent", po::value(&seek.opponent), "seek: only this player may accept")
        ("accept-from", po::value(&config.accept_from)->composing(),
         "accept the seeks of this player instead of seeking (repeatable)")
        ("games", po::value(&config.games)->default_value(0), "stop after this many games (0: run forever)")
        ("accept-draws", po::bool_switch(&config.accept_draws), "accept draw offers (declined by default)")
        ("accept-undo", po::bool_switch(&config.accept_undo), "accept undo requests (declined by default)")
        ("ptn-dir", po::value(&config.ptn_dir), "write a PTN record of every game into this directory")
        ("on-interrupt", po::value(&on_interrupt)->default_value(on_interrupt),
         "on SIGINT/SIGTERM during a game: finish it, or resign it");
    po::options_description advanced("Logging and timing");
    advanced.add_options()
        ("log-file", po::value(&log_file), "append the log to this file too (it always goes to stderr)")
        ("verbose", po::bool_switch(&verbose), "log every line, engine traffic included")
        ("ping-interval-ms", po::value(&ping_ms)->default_value(ping_ms),
         "PING this often (100..55000: the server drops a client that sends no PING for 60 s)")
        ("ping-timeout-ms", po::value(&ping_timeout_ms)->default_value(ping_timeout_ms),
         "a PING unanswered this long means the connection is dead: reconnect")
        ("idle-timeout-ms", po::value(&idle_ms)->default_value(idle_ms),
         "reconnect when nothing arrives for this long (more than ping interval + ping timeout)")
        ("reconnect-min-ms", po::value(&reconnect_min_ms)->default_value(reconnect_min_ms),
         "first reconnection delay (doubled after each failure)")
        ("reconnect-max-ms", po::value(&reconnect_max_ms)->default_value(reconnect_max_ms),
         "longest reconnection delay")
        ("resume-timeout-ms", po::value(&resume_ms)->default_value(resume_ms),
         "after logging in again, how long to wait for the server to resend our game")
        ("seek-retry-ms", po::value(&seek_retry_ms)->default_value(seek_retry_ms),
         "seek again when the server has not announced our seek within this time")
        ("settle-ms", po::value(&settle_ms)->default_value(settle_ms),
         "after Game Start, wait this long (or for the clock) before thinking, so a replay can arrive")
        ("help", "print this help")
        ("version", "print the version and the commit it was built from (only as the first argument)");
    // clang-format on
    po::options_description all("playtak: connects a TEI engine to a playtak game server");
    all.add(connection).add(engine_flags).add(games).add(advanced);

    po::variables_map values;
    try {
        // No abbreviations: "--pass=..." must not be taken for a password flag, nor echoed.
        const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
        po::store(po::command_line_parser(argc, argv).options(all).style(style).run(), values);
        if (values.count("help")) {
            std::cout << all << "\nSee docs/playtak.md.\n";
            return exit_ok;
        }
        po::notify(values);
    } catch (const po::error& error) {
        return usage_error(safe_description(error));
    }

    if (color != "W" && color != "B" && color != "A") return usage_error("--color must be W, B or A");
    seek.color = color[0];
    if (seek.size < bge::tak::min_size || seek.size > bge::tak::max_size)
        return usage_error(fmt::format("--size must be {}..{} (the server would make any other size 5)",
                                       bge::tak::min_size, bge::tak::max_size));
    if (seek.time_s <= 0 || seek.increment_s < 0 || seek.trigger_move < 0 || seek.extra_time_s < 0)
        return usage_error("--time must be positive; --increment, --trigger-move and --extra-time not negative");
    const bge::tak::Reserves reserves = bge::tak::reserves_for(seek.size);
    seek.pieces = reserves.stones;
    seek.capstones = reserves.caps;
    if (port <= 0 || port > 65535) return usage_error("--port must be 1..65535");
    config.port = std::to_string(port);
    if (!valid_client_name(config.client_name))
        return usage_error("--client-name must be 4-15 characters: letters, digits, '-' and '.'");
    if (on_interrupt != "finish" && on_interrupt != "resign")
        return usage_error("--on-interrupt must be finish or resign");
    config.resign_on_interrupt = on_interrupt == "resign";
    config.seek = config.accept_from.empty();
    if (config.games < 0 || config.lag_margin_ms < 0 || config.movetime_ms < 0)
        return usage_error("--games, --lag-margin-ms and --movetime-ms must not be negative");
    for (long value : {ping_ms, ping_timeout_ms, reconnect_min_ms, reconnect_max_ms, resume_ms, seek_retry_ms, idle_ms})
        if (value <= 0) return usage_error("the timing flags must be positive");
    if (ping_ms < 100 || ping_ms > 55'000)
        return usage_error("--ping-interval-ms must be 100..55000: the server drops a client that sends no PING for 60 s");
    if (ping_timeout_ms < 100 || ping_timeout_ms > 55'000) return usage_error("--ping-timeout-ms must be 100..55000");
    if (idle_ms <= ping_ms + ping_timeout_ms)
        return usage_error(fmt::format(
            "--idle-timeout-ms ({}) must be more than --ping-interval-ms + --ping-timeout-ms ({}): on a quiet "
            "connection the PING answers are all the server sends",
            idle_ms, ping_ms + ping_timeout_ms));
    if (reconnect_min_ms > reconnect_max_ms)
        return usage_error("--reconnect-min-ms must not be more than --reconnect-max-ms");
    if (settle_ms < 0) return usage_error("--settle-ms must not be negative");
    config.ping_interval = Milliseconds(ping_ms);
    config.ping_timeout = Milliseconds(ping_timeout_ms);
    config.idle_timeout = Milliseconds(idle_ms);
    config.reconnect_min = Milliseconds(reconnect_min_ms);
    config.reconnect_max = Milliseconds(reconnect_max_ms);
    config.resume_timeout = Milliseconds(resume_ms);
    config.seek_retry = Milliseconds(seek_retry_ms);
    config.settle = Milliseconds(settle_ms);
    for (const std::string& option : engine_options) {
        const auto equals = option.find('=');
        if (equals == std::string::npos || equals == 0)
            return usage_error(fmt::format("--engine-option '{}' is not NAME=VALUE", option));
        engine.options.emplace_back(option.substr(0, equals), option.substr(equals + 1));
    }
    if (!config.user.empty()) {
        if (auto problem = user_name_problem(config.user)) return usage_error(fmt::format("--user: {}", *problem));
        auto password = read_password(password_file, password_env);
        if (!password) return usage_error(password.error());
        config.password = *password;
        // The server answers a Login line it cannot read with a bare NOK: say why here instead.
        if (auto problem = password_problem(config.password)) return usage_error(*problem);
    } else {
        config.guest_token = make_guest_token();
    }
    const SeekAdjustment adjusted = server_adjusted_seek(seek);
    const std::vector<std::string> seek_changes = config.seek ? adjusted.changes : std::vector<std::string>{};
    seek = adjusted.seek;

    Logger log(verbose);
    log.add_secret(config.password);
    log.add_secret(config.guest_token);
    if (!log_file.empty()) {
        std::string error;
        if (!log.open_file(log_file, error)) return usage_error(error);
    }

    for (const std::string& change : seek_changes)
        log.info(fmt::format("warning: the server changes this seek: {}; seeking that instead", change));

    boost::asio::io_context io;
    Bridge bridge(io, config, engine, log);
    boost::asio::signal_set signals(io, SIGINT, SIGTERM);
    std::function<void()> wait_for_signal = [&] {
        signals.async_wait([&](const boost::system::error_code& error, int) {
            if (error) return;
            bridge.interrupt();
            wait_for_signal();
        });
    };
    wait_for_signal();
    bridge.start();
    io.run();
    return bridge.exit_code();
}
