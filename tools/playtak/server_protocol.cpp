#include "tools/playtak/server_protocol.hpp"

#include <algorithm>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "protocol/text.hpp"

namespace bge::playtak {

using protocol::excerpt;
using protocol::split_words;

// ---- client to server -----------------------------------------------------------------------

std::string client_line(std::string_view client_name) { return fmt::format("Client {}", client_name); }
std::string protocol_line() { return "Protocol 2"; }
std::string login_line(std::string_view user, std::string_view password) {
    return fmt::format("Login {} {}", user, password);
}
std::string guest_login_line(std::string_view token) { return fmt::format("Login Guest {}", token); }

std::string make_guest_token() {
    std::random_device device;
    std::uniform_int_distribution<int> letter(0, 25);
    std::string token;
    for (int i = 0; i < 20; ++i) token += static_cast<char>('a' + letter(device));
    return token;
}

std::optional<std::string> user_name_problem(std::string_view user) {
    const auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
    if (user.size() < 4 || user.size() > 16)
        return fmt::format("the user name must be 4-16 characters long (it has {})", user.size());
    if (!is_letter(user[0])) return std::string("the user name must begin with a letter");
    for (char c : user)
        if (!is_letter(c) && !is_digit(c) && c != '_')
            return std::string("the user name may hold only letters, digits and '_'");
    if (user.starts_with("Guest"))
        return std::string("the server reads a user name beginning with 'Guest' as a guest login");
    return std::nullopt;
}

std::optional<std::string> password_problem(std::string_view password) {
    // Never quote the password: only its length and the kind of fault.
    if (password.size() < 6 || password.size() > 50)
        return fmt::format("the password must be 6-50 characters long (it has {})", password.size());
    for (char c : password)
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')
            return std::string("the password must not hold spaces or other white space");
    return std::nullopt;
}

SeekAdjustment server_adjusted_seek(const SeekSettings& seek) {
    SeekAdjustment result{seek, {}};
    SeekSettings& s = result.seek;
    if (s.size < 3 || s.size > 8) {
        result.changes.push_back(fmt::format("board size {} becomes 5 (the server allows 3-8)", s.size));
        s.size = 5;
    }
    if (s.half_komi < 0) {
        result.changes.push_back(fmt::format("half-komi {} becomes 0 (the server reads no negative komi)", s.half_komi));
        s.half_komi = 0;
    } else if (s.half_komi > 8) {
        result.changes.push_back(fmt::format("half-komi {} becomes 8 (the server's maximum)", s.half_komi));
        s.half_komi = 8;
    }
    if (s.pieces < 10 || s.pieces > 80) {
        const int held = std::clamp(s.pieces, 10, 80);
        result.changes.push_back(fmt::format("{} stones become {} (the server allows 10-80)", s.pieces, held));
        s.pieces = held;
    }
    if (s.capstones > 5) {
        result.changes.push_back(fmt::format("{} capstones become 5 (the server's maximum)", s.capstones));
        s.capstones = 5;
    }
    return result;
}

std::string seek_line(const SeekSettings& seek) {
    return fmt::format("Seek {} {} {} {} {} {} {} {} {} {} {} {}", seek.size, seek.time_s, seek.increment_s, seek.color,
                       seek.half_komi, seek.pieces, seek.capstones, seek.unrated ? 1 : 0, seek.tournament ? 1 : 0,
                       seek.trigger_move, seek.extra_time_s, seek.opponent);
}

std::string remove_seek_line() {
    SeekSettings none;
    none.size = none.time_s = none.increment_s = none.pieces = none.capstones = 0;
    return seek_line(none);
}

std::string accept_line(std::int64_t seek_number) { return fmt::format("Accept {}", seek_number); }
std::string game_line(std::int64_t game, std::string_view what) { return fmt::format("Game#{} {}", game, what); }

std::string loggable(std::string_view line) {
    const auto words = split_words(line);
    // The password, and a guest's token (it names the guest), are never logged.
    if (words.size() >= 3 && words[0] == "Login") return fmt::format("Login {} ********", words[1]);
    return std::string(line);
}

// ---- server to client -----------------------------------------------------------------------

namespace {

// Splits on single spaces and keeps empty fields: `Seek new` writes an empty opponent as nothing
// between two spaces.
std::vector<std::string_view> split_fields(std::string_view line) {
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    for (;;) {
        const std::size_t space = line.find(' ', start);
        if (space == std::string_view::npos) {
            fields.push_back(line.substr(start));
            return fields;
        }
        fields.push_back(line.substr(start, space - start));
        start = space + 1;
    }
}

// Reads numeric fields in order and remembers the first failure.
class FieldReader {
public:
    explicit FieldReader(const std::vector<std::string_view>& fields) : fields_(fields) {}

    std::int64_t integer(std::size_t at, std::string_view what, std::int64_t min, std::int64_t max,
                         std::optional<std::int64_t> fallback = std::nullopt) {
        if (at >= fields_.size()) {
            if (!fallback) fail(fmt::format("{} is missing", what));
            return fallback.value_or(0);
        }
        auto value = protocol::parse_integer(fields_[at], min, max, what);
        if (!value) {
            fail(value.error());
            return fallback.value_or(0);
        }
        return *value;
    }
    bool flag(std::size_t at, std::string_view what) { return integer(at, what, 0, 1, 0) != 0; }
    const std::optional<std::string>& error() const { return error_; }

private:
    void fail(std::string message) {
        if (!error_) error_ = std::move(message);
    }
    const std::vector<std::string_view>& fields_;
    std::optional<std::string> error_;
};

constexpr std::int64_t max_number = std::int64_t{1} << 53;
constexpr std::int64_t max_seconds = 1'000'000'000;

Malformed malformed(std::string_view what, std::string_view line) {
    return Malformed{fmt::format("{}: '{}'", what, excerpt(line, 100))};
}

ServerMessage parse_seek(std::string_view line, const std::vector<std::string_view>& words) {
    if (words.size() < 3) return malformed("a Seek line without a seek number", line);
    if (words[1] == "remove") {
        auto number = protocol::parse_integer(words[2], 0, max_number, "seek number");
        if (!number) return malformed(number.error(), line);
        return SeekRemove{*number};
    }
    if (words[1] != "new") return malformed("a Seek line that is neither new nor remove", line);
    // Seek new <no> <name> <size> <time> <inc> <color> <halfkomi> <pieces> <caps> <unrated>
    //          <tournament> <trigger> <extra> <opponent> <bot>; old servers stop after <time>.
    const auto fields = split_fields(line);
    FieldReader read(fields);
    SeekNew seek;
    seek.number = read.integer(2, "seek number", 0, max_number);
    seek.player = fields.size() > 3 ? std::string(fields[3]) : std::string();
    if (seek.player.empty()) return malformed("a Seek new line without a player", line);
    SeekSettings& s = seek.settings;
    s.size = static_cast<int>(read.integer(4, "board size", 0, 100));
    s.time_s = static_cast<int>(read.integer(5, "time", 0, max_seconds));
    s.increment_s = static_cast<int>(read.integer(6, "increment", 0, max_seconds, 0));
    s.color = 'A';
    if (fields.size() > 7) {
        if (fields[7] != "W" && fields[7] != "B" && fields[7] != "A")
            return malformed("a Seek new line whose colour is not W, B or A", line);
        s.color = fields[7][0];
    }
    s.half_komi = static_cast<int>(read.integer(8, "half komi", -100, 100, 0));
    s.pieces = static_cast<int>(read.integer(9, "pieces", 0, 1000, 0));
    s.capstones = static_cast<int>(read.integer(10, "capstones", -1, 100, -1));
    s.unrated = read.flag(11, "unrated");
    s.tournament = read.flag(12, "tournament");
    s.trigger_move = static_cast<int>(read.integer(13, "trigger move", 0, 100000, 0));
    s.extra_time_s = static_cast<int>(read.integer(14, "extra time", 0, max_seconds, 0));
    // Protocol 2 writes an empty opponent as "0" (no player name begins with a digit); older
    // servers wrote nothing between two spaces.
    if (fields.size() > 15 && fields[15] != "0") s.opponent = std::string(fields[15]);
    seek.bot = read.flag(16, "bot");
    if (read.error()) return malformed(*read.error(), line);
    return seek;
}

ServerMessage parse_game_start(std::string_view line, const std::vector<std::string_view>& words) {
    // Protocol 2: Game Start <no> <white> vs <black> <color> <size> <time> <inc> <halfkomi>
    //             <pieces> <caps> <unrated> <tournament> <trigger> <extra> <isBot>
    // Older:      Game Start <no> <size> <white> vs <black> <color> [<time> <halfkomi> <pieces> <caps>]
    GameStart start;
    FieldReader read(words);
    start.game = read.integer(2, "game number", 0, max_number);
    std::size_t color_at = 0;
    if (words.size() > 6 && words[4] == "vs") {
        start.white = std::string(words[3]);
        start.black = std::string(words[5]);
        color_at = 6;
        start.size = static_cast<int>(read.integer(7, "board size", 0, 100));
        start.time_s = static_cast<int>(read.integer(8, "time", 0, max_seconds, 0));
        start.increment_s = static_cast<int>(read.integer(9, "increment", 0, max_seconds, 0));
        start.half_komi = static_cast<int>(read.integer(10, "half komi", -100, 100, 0));
        start.pieces = static_cast<int>(read.integer(11, "pieces", 0, 1000, 0));
        start.capstones = static_cast<int>(read.integer(12, "capstones", -1, 100, -1));
        start.unrated = read.flag(13, "unrated");
        start.tournament = read.flag(14, "tournament");
        start.trigger_move = static_cast<int>(read.integer(15, "trigger move", 0, 100000, 0));
        start.extra_time_s = static_cast<int>(read.integer(16, "extra time", 0, max_seconds, 0));
        start.bot_game = read.flag(17, "bot");
    } else if (words.size() > 7 && words[5] == "vs") {
        start.size = static_cast<int>(read.integer(3, "board size", 0, 100));
        start.white = std::string(words[4]);
        start.black = std::string(words[6]);
        color_at = 7;
        start.time_s = static_cast<int>(read.integer(8, "time", 0, max_seconds, 0));
        start.half_komi = static_cast<int>(read.integer(9, "half komi", -100, 100, 0));
        start.pieces = static_cast<int>(read.integer(10, "pieces", 0, 1000, 0));
        start.capstones = static_cast<int>(read.integer(11, "capstones", -1, 100, -1));
    } else {
        return malformed("a Game Start line without '<white> vs <black>'", line);
    }
    if (color_at >= words.size() || (words[color_at] != "white" && words[color_at] != "black"))
        return malformed("a Game Start line whose colour is neither white nor black", line);
    start.we_are_white = words[color_at] == "white";
    if (read.error()) return malformed(*read.error(), line);
    return start;
}

ServerMessage parse_game_line(std::string_view line, const std::vector<std::string_view>& words) {
    auto game = protocol::parse_integer(words[0].substr(5), 0, max_number, "game number");
    if (!game) return malformed(game.error(), line);
    if (words.size() < 2) return malformed("a Game# line without a command", line);
    const std::string_view command = words[1];
    if (command == "P" || command == "M") {
        return GameMove{*game, protocol::join_words(words, 1, words.size())};
    }
    if (command == "Time" || command == "Timems") {
        if (words.size() != 4) return malformed("a clock line needs two times", line);
        auto white = protocol::parse_integer(words[2], -max_number, max_number, "White's time");
        auto black = protocol::parse_integer(words[3], -max_number, max_number, "Black's time");
        if (!white) return malformed(white.error(), line);
        if (!black) return malformed(black.error(), line);
        const std::int64_t scale = command == "Time" ? 1000 : 1;
        return GameTime{*game, *white * scale, *black * scale};
    }
    if (command == "Over") {
        if (words.size() < 3 || !is_result_token(words[2])) return malformed("a game end without a known result", line);
        return GameOver{*game, std::string(words[2])};
    }
    if (command.starts_with("Abandoned")) return GameAbandoned{*game, std::string(line)};
    using Kind = GameRequest::Kind;
    if (command == "OfferDraw") return GameRequest{Kind::offer_draw, *game};
    if (command == "RemoveDraw") return GameRequest{Kind::remove_draw, *game};
    if (command == "RequestUndo") return GameRequest{Kind::request_undo, *game};
    if (command == "RemoveUndo") return GameRequest{Kind::remove_undo, *game};
    if (command == "Undo") return GameRequest{Kind::undo, *game};
    if (command == "Show" || command == "GivenTime") return Chatter{};
    return malformed("an unknown game command", line);
}

}  // namespace

ServerMessage parse_server_line(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
    const auto words = split_words(line);
    if (words.empty()) return Chatter{};
    const std::string_view first = words[0];

    if (line == "Welcome!") return Greeting{};
    if (line == "Login or Register") return LoginPrompt{};
    if (first == "Welcome" && words.size() == 2 && words[1].size() > 1 && words[1].back() == '!')
        return LoggedIn{std::string(words[1].substr(0, words[1].size() - 1))};
    if (line.starts_with("Authentication failure")) return AuthenticationFailure{};
    if (line.starts_with("You're already logged in")) return AlreadyLoggedIn{};
    if (line == "OK") return Ok{};
    if (line == "NOK") return Nok{};
    if (first.starts_with("Error")) return ServerError{std::string(line)};
    if (first == "Seek") return parse_seek(line, words);
    if (first == "Game" && words.size() > 1 && words[1] == "Start") return parse_game_start(line, words);
    if (first.starts_with("Game#")) return parse_game_line(line, words);
    for (std::string_view chatter : {"Message", "Shout", "ShoutRoom", "Online", "OnlinePlayers", "GameList", "Observe",
                                     "Tell", "Told", "Joined", "Registered", "Name", "Login", "Welcome", "Client",
                                     "Protocol", "Is", "CmdReply", "sudoReply", "Rematch", "Accept"})
        if (first == chatter) return Chatter{};
    return malformed("an unknown message", line);
}

bool is_result_token(std::string_view token) {
    for (std::string_view known : {"R-0", "0-R", "F-0", "0-F", "1/2-1/2", "1-0", "0-1", "0-0"})
        if (token == known) return true;
    return false;
}

int result_for(std::string_view result, bool we_are_white) {
    int white_score = 0;
    if (result == "R-0" || result == "F-0" || result == "1-0") white_score = 1;
    if (result == "0-R" || result == "0-F" || result == "0-1") white_score = -1;
    return we_are_white ? white_score : -white_score;
}

}  // namespace bge::playtak
