#pragma once
// The arbiter's command line, cutechess-cli style: `-flag value` and `-engine key=value ...`.
// Parsing is game-agnostic; the game adapter checks the game-specific values (board size, komi).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/expected.hpp"
#include "core/shard.hpp"
#include "protocol/engine_spec.hpp"
#include "tools/arbiter/time_control.hpp"

namespace bge::arbiter {

// How a pbrain brain learns each position (docs/arbiter.md): `turn` as Gomocup's manager (Piskvork)
// drives it, for a brain that keeps its own board (BEGIN, or TURN x,y with the opponent's move;
// a BOARD block after a fresh START only for a book position or one it cannot follow); `board`
// statelessly, the whole BOARD block before every move.
enum class PbrainMode { turn, board };

struct EngineConfig {
    std::string name;
    std::string command;
    std::vector<std::string> arguments;
    std::string working_directory;
    std::string stderr_path;
    std::optional<protocol::Dialect> dialect;  // unset: the game's default
    std::optional<TimeControl> time_control;
    std::optional<std::int64_t> move_time_ms;  // st=
    std::optional<std::int64_t> nodes;
    std::optional<int> depth;
    std::int64_t time_margin_ms = 0;
    std::vector<std::pair<std::string, std::string>> options;  // option.NAME=VALUE, in order
    bool restart_every_game = false;                           // restart=on
    PbrainMode pbrain_mode = PbrainMode::turn;                 // pbrain=turn|board

    // Plays on a clock (tc or st), so thinking time matters and is recorded.
    bool has_clock() const { return move_time_ms || (time_control && !time_control->infinite); }
};

enum class OpeningFormat { tps, moves, ptn };
enum class OpeningOrder { sequential, random };

struct OpeningsConfig {
    std::string file;
    OpeningFormat format = OpeningFormat::tps;
    OpeningOrder order = OpeningOrder::sequential;
    int start = 1;  // 1-based index of the first opening used
    int plies = 0;  // > 0: use at most this many moves of each opening (cutechess plies=N)
};

enum class Tournament { round_robin, gauntlet };

// -sprt: a GSPRT on the first two engines' games that ends the match once H0 or H1 is accepted.
struct SprtSettings {
    double elo0 = 0;
    double elo1 = 5;
    double alpha = 0.05;
    double beta = 0.05;
};

// Engine-score adjudication, as cutechess's -draw and -resign.
struct DrawAdjudication {
    int move_number = 0;  // not before this full move
    int move_count = 0;   // consecutive moves (of each side) within +-score
    int score_cp = 0;
};
struct ResignAdjudication {
    int move_count = 0;  // consecutive moves of one side at or below -score
    int score_cp = 0;
};

// Liveness limits (-timeouts), in milliseconds; ping 0 turns the per-move ping off.
struct Timeouts {
    int startup_ms = 10'000;
    int new_game_ms = 10'000;
    int ping_ms = 5'000;
};

struct MatchConfig {
    std::string game = "tak";
    std::optional<int> size;
    int half_komi = 0;  // komi in half points (flats for Tak)
    std::string rule;   // -rule (Gomoku: freestyle, standard or renju); empty: the game's default
    std::string ruleset;  // -ruleset (Ur: finkel, masters or blitz); empty: the game's default
    int pieces = 0;       // -pieces (Ur: pieces per side, 1-7); 0: the ruleset's default
    std::vector<EngineConfig> engines;
    int rounds = 1;
    int games_per_encounter = 2;
    int concurrency = 1;
    int max_moves = 0;  // 0: no adjudication
    bool repetition_draw = false;
    std::optional<OpeningsConfig> openings;
    std::uint64_t seed = 0;
    std::string record_file;  // -pgnout
    bool recover = false;
    Tournament tournament = Tournament::round_robin;
    std::optional<SprtSettings> sprt;
    std::optional<DrawAdjudication> draw_adjudication;
    std::optional<ResignAdjudication> resign_adjudication;
    Timeouts timeouts;
    int rating_interval = 0;  // print the ratings every N games; 0: only at the end
    std::string results_file;  // -jsonout
    std::string state_file;    // -state: the journal that -resume continues from
    Shard shard;
};

struct CommandLine {
    bool help = false;
    MatchConfig config;
    std::vector<std::string> arguments;  // as given, for the results file and the journal
};

// Every error names the flag or value at fault.
Expected<CommandLine> parse_command_line(const std::vector<std::string>& arguments);

std::string help_text();

// The cores a match asks for at once: each of the `concurrency` games has one engine thinking at
// a time, with its Threads (option.Threads=, 1 without). A warning when that is more than
// `cores`, for searches sharing a core are slower and timed games weaker; nullopt otherwise.
std::optional<std::string> threads_warning(const std::vector<EngineConfig>& engines, int concurrency, int cores);

// Komi in half points from flats in steps of 0.5: "2", "2.5", "-1.5", "+0.5" (-komi).
Expected<int> parse_half_points(const std::string& text);

// One -engine style list of key=value words (as the book command also takes them).
Expected<EngineConfig> parse_engine_settings(const std::vector<std::string>& words, bool require_limit);

}  // namespace bge::arbiter
