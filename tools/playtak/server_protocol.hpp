#pragma once
// The playtak text protocol (protocol 2): the lines the bridge sends, and the lines the server
// sends parsed into values. Parsing never throws: a line it cannot read is `Malformed` with the
// reason, and lines it has no use for are `Chatter`. docs/playtak.md lists the messages.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace bge::playtak {

// The settings of a seek, as `Seek` sends them and `Seek new` announces them.
struct SeekSettings {
    int size = 6;
    int time_s = 600;
    int increment_s = 10;
    char color = 'A';  // W, B or A (any)
    int half_komi = 0;
    int pieces = 30;
    int capstones = 1;
    bool unrated = false;
    bool tournament = false;
    int trigger_move = 0;  // extra time is added at this move (0: never)
    int extra_time_s = 0;
    std::string opponent;  // empty: anyone may accept
};

// ---- client to server -----------------------------------------------------------------------

std::string client_line(std::string_view client_name);  // Client <name>
std::string protocol_line();                            // Protocol 2
std::string login_line(std::string_view user, std::string_view password);
// Login Guest <token>: the server keeps one guest name per token (20 lowercase letters), so a
// bridge that logs in again with the same token gets its guest name, and its game, back.
std::string guest_login_line(std::string_view token);
// 20 random lowercase letters, for guest_login_line.
std::string make_guest_token();

// Why the server could not read `Login <user> <password>`, or nothing. The server matches
// ^Login ([a-zA-Z][a-zA-Z0-9_]{3,15}) ([^\s]{6,50}) and answers a line it cannot match with a
// bare NOK; a name beginning with "Guest" matches its guest login first.
std::optional<std::string> user_name_problem(std::string_view user);
std::optional<std::string> password_problem(std::string_view password);

// A seek as the server will post it (its Seek class): a negative half-komi does not match the
// seek pattern and is read as an old short seek (komi 0); half-komi above 8 becomes 8; stones are
// held to 10..80, capstones to at most 5; a size outside 3..8 becomes 5. `changes` says what
// changed, one entry per field, for a warning.
struct SeekAdjustment {
    SeekSettings seek;
    std::vector<std::string> changes;
};
SeekAdjustment server_adjusted_seek(const SeekSettings& seek);
// Seek in the V3 form. The opponent is the last field, after a space even when it is empty.
std::string seek_line(const SeekSettings& seek);
// Removes our seek: a seek of board size 0 (the server drops a seek it cannot play).
std::string remove_seek_line();
std::string accept_line(std::int64_t seek_number);
std::string game_line(std::int64_t game, std::string_view what);  // Game#<no> <what>
// The line as it may be logged: the password of a Login line is masked.
std::string loggable(std::string_view line);

// ---- server to client -----------------------------------------------------------------------

struct Greeting {};     // "Welcome!"
struct LoginPrompt {};  // "Login or Register"
struct LoggedIn {
    std::string name;  // "Welcome <name>!"
};
struct AuthenticationFailure {};
struct AlreadyLoggedIn {};  // the server still holds an older session of this account
struct Ok {};
struct Nok {};
struct ServerError {
    std::string text;  // "Error..." lines
};
struct SeekNew {
    std::int64_t number = 0;
    std::string player;
    SeekSettings settings;
    bool bot = false;
};
struct SeekRemove {
    std::int64_t number = 0;
};
struct GameStart {
    std::int64_t game = 0;
    std::string white, black;
    bool we_are_white = true;
    int size = 0;
    int time_s = 0;
    int increment_s = 0;
    int half_komi = 0;
    int pieces = 0;      // 0: not told (old protocol); the standard count applies
    int capstones = -1;  // -1: not told
    bool unrated = false;
    bool tournament = false;
    int trigger_move = 0;
    int extra_time_s = 0;
    bool bot_game = false;
};
struct GameMove {
    std::int64_t game = 0;
    std::string move;  // "P A1 W", "M A1 C1 1 2": checked by move_conversion
};
struct GameTime {
    std::int64_t game = 0;
    std::int64_t white_ms = 0;
    std::int64_t black_ms = 0;
};
struct GameOver {
    std::int64_t game = 0;
    std::string result;  // R-0, 0-R, F-0, 0-F, 1/2-1/2, 1-0, 0-1, 0-0
};
struct GameAbandoned {
    std::int64_t game = 0;
    std::string text;
};
struct GameRequest {
    enum class Kind { offer_draw, remove_draw, request_undo, remove_undo, undo } kind = Kind::offer_draw;
    std::int64_t game = 0;
};
struct Chatter {};  // Message, Shout, Online, OnlinePlayers, GameList, Observe, Tell, ...: nothing for a bot to do
struct Malformed {
    std::string why;
};

using ServerMessage =
    std::variant<Greeting, LoginPrompt, LoggedIn, AuthenticationFailure, AlreadyLoggedIn, Ok, Nok, ServerError, SeekNew,
                 SeekRemove, GameStart, GameMove, GameTime, GameOver, GameAbandoned, GameRequest, Chatter, Malformed>;

// One line from the server, without its line ending (a trailing "\r" is ignored).
ServerMessage parse_server_line(std::string_view line);

// The result token of a Game#N Over line: R-0 0-R F-0 0-F 1/2-1/2 1-0 0-1 0-0.
bool is_result_token(std::string_view token);
// From our side: 1 a win, -1 a loss, 0 a draw or no result.
int result_for(std::string_view result, bool we_are_white);

}  // namespace bge::playtak
