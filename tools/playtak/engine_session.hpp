#pragma once
// One TEI engine process, spoken to through protocol::EngineProcess: start and handshake, the
// options it declares, a new game, and one search. Every call blocks for a bounded time and
// reports failure as a value; the engine worker runs these calls on its own thread.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/expected.hpp"
#include "protocol/engine_process.hpp"
#include "tools/playtak/logger.hpp"

namespace bge::playtak {

struct EngineConfig {
    std::string command;
    std::vector<std::string> arguments;
    std::vector<std::pair<std::string, std::string>> options;  // setoption after every start
    std::string stderr_path;                                   // empty: the bridge's stderr
    std::chrono::milliseconds startup_timeout{10'000};         // for teiok, and for readyok
};

struct SpinRange {
    int min = 0;
    int max = 0;
};

// What the engine told us in its handshake that decides which games it can play.
struct EngineCapabilities {
    std::string name;                    // from `id name`, or the command
    std::optional<SpinRange> half_komi;  // it declares HalfKomi (with this range)
    int min_size = 3;                    // from its Size option, when it declares one
    int max_size = 8;
};

// Why the engine cannot play a game with these rules, or nothing when it can. Board sizes and
// komi come from the handshake; pieces and capstones must be the standard counts for the size
// (a negative count means the server did not say, which is taken as standard).
std::optional<std::string> unplayable_reason(const EngineCapabilities& engine, int size, int half_komi, int pieces,
                                             int capstones);

struct SearchOutcome {
    enum class Kind { move, cancelled, failed } kind = Kind::failed;
    std::string move;   // the word after bestmove
    std::string error;  // why it failed
};

class EngineSession {
public:
    static constexpr std::chrono::milliseconds stop_timeout{1'500};
    static constexpr std::chrono::milliseconds quit_timeout{1'500};

    EngineSession(EngineConfig config, Logger& log) : config_(std::move(config)), log_(log) {}
    ~EngineSession() { quit(); }
    EngineSession(const EngineSession&) = delete;
    EngineSession& operator=(const EngineSession&) = delete;

    // (Re)starts the process, handshakes (tei ... teiok) and sends the configured options.
    Status start();
    bool alive() { return process_.running(); }
    // "exit status N" / "killed by signal N" once the process is gone, else "running".
    std::string exit_description() const;
    int pid() const { return process_.pid(); }
    const EngineCapabilities& capabilities() const { return capabilities_; }

    // setoption HalfKomi (when declared), teinewgame <size>, isready ... readyok.
    Status new_game(int size, int half_komi);

    // Sends the position and go commands and waits for bestmove. `cancelled` is polled every few
    // milliseconds: when it turns true the search is stopped and its move discarded. Past
    // `budget` the search is stopped too, and a move that still comes is returned.
    SearchOutcome search(const std::string& position, const std::string& go, std::chrono::milliseconds budget,
                         const std::function<bool()>& cancelled);

    void kill() { process_.kill(); }
    void quit();

private:
    bool send(const std::string& line);
    Status wait_for(const std::string& wanted, std::chrono::milliseconds timeout);
    std::optional<std::string> stop_and_collect();

    EngineConfig config_;
    Logger& log_;
    protocol::EngineProcess process_;
    EngineCapabilities capabilities_;
};

}  // namespace bge::playtak
