#pragma once
// One engine process and its dialect (TEI, UGI, or Gomoku's pbrain), as the referee sees it: start and handshake,
// options, new game, and one search per move under a hard deadline. Game-agnostic: positions and
// moves are text here; the game runner builds the commands and checks the moves.
//
// Failures come back as values. An engine that crashes, closes its pipes or has to be killed
// because it ignores `stop` is marked as needing a restart; ensure_running() restarts it.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/engine_process.hpp"
#include "protocol/options.hpp"
#include "tools/arbiter/command_line.hpp"

namespace bge::arbiter {

using SteadyClock = std::chrono::steady_clock;

enum class EngineStatus {
    ok,
    stall,       // no answer within the protocol timeout
    disconnect,  // the process went away
    fatal,       // the process could not be started at all: the match cannot go on
};

// A mate score in centipawns (SearchInfo::score_cp): beyond any real evaluation.
constexpr int mate_cp = 100000;

// The last `info` line that had both a score and a depth, and the search's last principal
// variation (from that line or a later one: Rapfi gives its Bestline after its scores).
struct SearchInfo {
    int score_cp = 0;  // a `score mate N` counts as +-(100000 - plies to the end)
    int depth = 0;
    std::optional<int> mate;  // N of `score mate N`
    std::vector<std::string> pv;
};

// "+0.31/7", or a mate as cutechess writes it: "+M3/7", "-M2/6".
std::string score_text(const SearchInfo& info);

// One line a search prints, read field by field: a UCI-style `info` line, or a pbrain MESSAGE
// (ours carry an info line's words; Rapfi's its own fields, and its PV in a later Bestline).
struct SearchLine {
    std::optional<int> depth, seldepth;
    std::optional<int> score_cp;
    std::optional<int> mate;  // moves to mate, negative when being mated
    std::optional<std::int64_t> nodes, nps, time_ms;
    std::vector<std::string> pv;  // at most 64 moves
    std::string text;             // `info string ...` or a pbrain MESSAGE
};
std::optional<SearchLine> parse_search_line(std::string_view line);

struct EngineReply {
    enum class Kind { move, timeout, closed, interrupted, stall } kind = Kind::timeout;
    std::string move;             // the word after `bestmove` (may be empty or garbage: the caller checks it)
    std::int64_t elapsed_ms = 0;  // from just before `go` was written to the bestmove line
    std::optional<SearchInfo> info;
};

using SearchLineCallback = std::function<void(std::string_view line)>;

// A Gomoku position as a pbrain brain is told it: every stone in the order it was played (a start
// position's stones first), each with its owner, and whose move it is.
struct PbrainStone {
    int x = 0, y = 0;
    int owner = 1;  // 1 the first player, 2 the second, 3 a wall
    bool operator==(const PbrainStone&) const = default;
};
struct PbrainPosition {
    std::vector<PbrainStone> stones;
    int mover = 1;  // 1 or 2
};
// The BOARD block: "BOARD", one "x,y,field" line per stone (1 the mover's, 2 the opponent's,
// 3 a wall), "DONE"; newline-separated.
std::string pbrain_board_block(const PbrainPosition& position);

class EnginePlayer {
public:
    static constexpr std::chrono::milliseconds stop_timeout{1'000};  // bestmove after stop
    static constexpr std::chrono::milliseconds quit_timeout{1'500};

    // `interrupt`, when set, makes a running search give up at once (SIGINT).
    EnginePlayer(EngineConfig config, protocol::Dialect dialect, Timeouts timeouts = {},
                 const std::atomic<bool>* interrupt = nullptr);
    ~EnginePlayer() { quit(); }
    EnginePlayer(const EnginePlayer&) = delete;
    EnginePlayer& operator=(const EnginePlayer&) = delete;

    const EngineConfig& config() const { return config_; }
    const std::string& name() const { return config_.name; }
    protocol::Dialect dialect() const { return dialect_; }
    const std::string& last_error() const { return error_; }
    // What the engine says it is: its `id name` line (UGI, TEI), or the name and version of its
    // ABOUT answer (pbrain); empty until it has started, or when it does not say.
    const std::string& identity() const { return identity_; }

    // Starts (or restarts) the process if it is not serving, then handshakes and sends the
    // configured options. With restart=on, every call after the first starts a fresh process.
    // An engine found dead since its last game is a disconnect (restarted on the next call).
    EngineStatus ensure_running();
    bool declares_option(std::string_view name) const;
    // The options its handshake declared (a line that does not parse is kept as a string option
    // of that name, which only the command line sets).
    const std::vector<protocol::Option>& declared_options() const { return declared_options_; }

    // Sends the game's rule options, the new-game command, then isready and waits for readyok.
    EngineStatus start_game(const std::vector<std::pair<std::string, std::string>>& rule_options,
                            const std::string& new_game_command);

    // TEI and UGI: sends isready (unless the ping timeout is 0), the position and go commands in one go, and
    // waits for bestmove until `budget` after them. Whatever comes before readyok (a stale
    // bestmove, say) is discarded; no readyok within the ping timeout is a stall (the engine is
    // then killed, and needs a restart). `on_line`, when set, sees every line the search prints
    // before its bestmove (info lines: the GUI shows them live).
    EngineReply think(const std::string& position_command, const std::string& go_command,
                      std::chrono::milliseconds budget, const SearchLineCallback& on_line = {});

    // pbrain: the clock's INFO lines, then the position as the engine's pbrain= mode says
    // (PbrainMode), and waits for the answer until `budget` after them. In turn mode the brain's
    // board is followed from move to move: BEGIN on an empty board, TURN x,y when the position is
    // the brain's last one plus the opponent's move, and otherwise START again and a BOARD block.
    EngineReply think_pbrain(const PbrainPosition& position, const std::string& clock,
                             std::chrono::milliseconds budget, const SearchLineCallback& on_line = {});

    // After a search ran out of time: asks it to stop and discards its late bestmove; an engine
    // that does not answer is killed (and then needs a restart).
    void abandon_search();

    // Crashed, closed its pipes or was killed since it was last (re)started.
    bool needs_restart() const { return failed_; }
    void quit();

private:
    EngineStatus start_process();
    EngineStatus start_pbrain_game(const std::vector<std::pair<std::string, std::string>>& rule_options,
                                   const std::string& new_game_command);
    // pbrain: START (or RECTSTART) answered OK, then the rule and thread INFO lines.
    EngineStatus send_pbrain_start();
    // pbrain, turn mode: what to send for `position` (BEGIN, TURN x,y, or a BOARD block after a
    // fresh START); `status` says whether that START failed.
    std::string pbrain_turn_command(const PbrainPosition& position, EngineStatus& status);
    EngineStatus handshake();
    // pbrain: asks ABOUT and keeps the name and version of the answer as the identity.
    void ask_pbrain_identity();
    void send_configured_options();
    bool send(std::string_view line);
    EngineStatus fail(EngineStatus status, std::string message);
    // pbrain: waits until the engine's last answer is pbrain_settle old (see engine_player.cpp).
    void let_pbrain_settle();
    // Reads lines until one equals `wanted`; lines before it go to `on_line`.
    template <class OnLine>
    EngineStatus read_until(std::string_view wanted, std::chrono::milliseconds timeout, OnLine on_line);

    EngineConfig config_;
    protocol::Dialect dialect_;
    Timeouts timeouts_;
    const std::atomic<bool>* interrupt_;
    protocol::EngineProcess process_;
    bool serving_ = false;  // handshake done and not failed since
    bool failed_ = false;
    int games_started_ = 0;
    std::optional<std::chrono::steady_clock::time_point> pbrain_answered_at_;
    // pbrain: the game's START command and rule INFO lines (sent again when the brain's board
    // must be set afresh), and the stones on the brain's own board when they are known.
    std::string pbrain_start_command_;
    std::vector<std::pair<std::string, std::string>> pbrain_rule_options_;
    std::optional<std::vector<PbrainStone>> pbrain_board_;
    std::vector<protocol::Option> declared_options_;
    std::string identity_;
    std::string error_;
};

// "Rapfi 0.43.02" from a pbrain ABOUT answer such as
// name="Rapfi", version="0.43.02", author="...", country="..."; empty when it has no name.
std::string pbrain_identity(std::string_view about);

// Reads `score cp X` (or `score mate N`) and `depth D` from an info line (a pbrain engine's
// MESSAGE too), with its PV, if both a score and a depth are there.
std::optional<SearchInfo> parse_search_info(std::string_view line);
// What a search line adds to the search's report so far: a new score and depth (with the line's
// PV, or the last PV when it has none), or a PV alone (Rapfi's Bestline).
void update_search_info(std::optional<SearchInfo>& info, std::string_view line);

// What a pbrain engine's status MESSAGE says, in Rapfi's words ("MESSAGE Speed 605K | Depth 19-38 |
// Eval 136 | Node 587K | Time 970ms"); nullopt when it gives no depth or evaluation.
// Rapfi's per-depth line ("MESSAGE Depth 11-24 | Eval 37 | Time 12ms | H8 I9") ends with its PV.
struct PbrainStatus {
    std::optional<int> depth, seldepth, score_cp;
    std::optional<int> mate;  // "Eval +M23" (plies) as moves to mate: 12; "-M4": -2
    std::optional<std::int64_t> nodes, nps, time_ms;
    std::vector<std::string> pv;  // as pbrain_moves_from_labels gives it
};
std::optional<PbrainStatus> parse_pbrain_status(std::string_view line);

// Rapfi's move labels ("H8", "Pass"): the column's letter from A, the row's number from 1 at
// pbrain's y = 0, the top row. Turned into pbrain's own "x,y" ("7,7"), which the gomoku rules
// read; nullopt unless every word is such a label (our engines' PVs are in the game's notation).
std::optional<std::vector<std::string>> pbrain_moves_from_labels(const std::vector<std::string_view>& words);

// A line a pbrain engine writes that is not an answer: MESSAGE, DEBUG, SUGGEST, UNKNOWN (its
// reply to a command it does not know, such as YXSTOP), or an empty line.
bool is_pbrain_remark(std::string_view line);

// A pbrain answer "x,y" as its two numbers (any integers: the rules decide whether the cell is on
// the board); nullopt for anything else.
std::optional<std::pair<int, int>> parse_pbrain_cell(std::string_view text);

}  // namespace bge::arbiter
