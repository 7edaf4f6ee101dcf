#pragma once
// Fake playtak servers for the bridge's tests, written from the real server (the Java server of
// USTakAssociation/playtak-api, server/src/main/java/tak: Client, Seek, Game, Player; protocol 2),
// not from the bridge's code. Both listen on 127.0.0.1 only, on an ephemeral port:
// - FakeServer / FakeConnection: each test scripts the server's side in straight-line code with
//   plain sockets and poll(); the scripts answer as the real server does (see the helpers in
//   playtak_test.cpp);
// - FakePlaytakServer: a whole server on its own thread (logins, guests, seeks, games, clocks,
//   reconnections, PING liveness), for bridges playing each other.
// Their move codec is their own, so the bridge's move conversion is checked against an
// independent reading.

#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "core/random.hpp"
#include "core/tak/notation.hpp"
#include "core/tak/rules.hpp"
#include "engine_session.hpp"

namespace bge::testing {

using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

// The server's end of one connection.
class FakeConnection {
public:
    static constexpr std::chrono::milliseconds patience{20'000};

    explicit FakeConnection(int fd) : fd_(fd) {}
    ~FakeConnection() { close(); }
    FakeConnection(const FakeConnection&) = delete;
    FakeConnection& operator=(const FakeConnection&) = delete;

    void send(const std::string& line) { send_raw(line + "\n"); }
    void send_raw(const std::string& bytes) {
        if (fd_ < 0) return;
        std::size_t sent = 0;
        while (sent < bytes.size()) {
            const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
            if (n <= 0) return;  // the bridge went away; the test notices elsewhere
            sent += static_cast<std::size_t>(n);
        }
    }

    // The next line, or nothing on timeout or when the bridge closed the connection.
    std::optional<std::string> read_line(std::chrono::milliseconds timeout) {
        const auto deadline = SteadyClock::now() + timeout;
        for (;;) {
            const auto newline = buffer_.find('\n');
            if (newline != std::string::npos) {
                std::string line = buffer_.substr(0, newline);
                buffer_.erase(0, newline + 1);
                if (!line.empty() && line.back() == '\r') line.pop_back();
                received.push_back(line);
                return line;
            }
            if (fd_ < 0 || eof_) return std::nullopt;
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
            if (left.count() <= 0) return std::nullopt;
            pollfd poll_fd{fd_, POLLIN, 0};
            if (::poll(&poll_fd, 1, static_cast<int>(left.count())) <= 0) continue;
            char chunk[4096];
            const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
            if (n <= 0) {
                eof_ = true;
                continue;
            }
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }

    // Reads until a line satisfies `wanted` and returns it, answering PING with OK on the way.
    // Fails the test on timeout or a closed connection.
    std::string expect(const std::function<bool(const std::string&)>& wanted, const std::string& what,
                       std::chrono::milliseconds timeout = patience) {
        const auto deadline = SteadyClock::now() + timeout;
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
            auto line = read_line(std::max(left, std::chrono::milliseconds(0)));
            INFO("waiting for: " << what);
            REQUIRE(line.has_value());
            if (*line == "PING") {
                ++pings;
                send("OK");
                continue;
            }
            if (wanted(*line)) return *line;
        }
    }
    std::string expect_prefix(const std::string& prefix, std::chrono::milliseconds timeout = patience) {
        return expect([&](const std::string& line) { return line.rfind(prefix, 0) == 0; }, prefix, timeout);
    }

    // True when the bridge closed its end (reads nothing more within the timeout but EOF).
    bool wait_closed(std::chrono::milliseconds timeout) {
        const auto deadline = SteadyClock::now() + timeout;
        while (SteadyClock::now() < deadline) {
            const auto line = read_line(50ms);
            if (!line && eof_) return true;
        }
        return false;
    }

    void close() {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }

    std::vector<std::string> received;
    int pings = 0;

private:
    int fd_;
    std::string buffer_;
    bool eof_ = false;
};

class FakeServer {
public:
    FakeServer() {
        listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        REQUIRE(listen_fd_ >= 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = 0;
        REQUIRE(::bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        REQUIRE(::listen(listen_fd_, 4) == 0);
        socklen_t length = sizeof address;
        REQUIRE(::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0);
        port_ = ntohs(address.sin_port);
    }
    ~FakeServer() { ::close(listen_fd_); }
    FakeServer(const FakeServer&) = delete;
    FakeServer& operator=(const FakeServer&) = delete;

    int port() const { return port_; }

    std::unique_ptr<FakeConnection> accept(std::chrono::milliseconds timeout = FakeConnection::patience) {
        pollfd poll_fd{listen_fd_, POLLIN, 0};
        INFO("waiting for the bridge to connect");
        REQUIRE(::poll(&poll_fd, 1, static_cast<int>(timeout.count())) == 1);
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        REQUIRE(fd >= 0);
        const int on = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        return std::make_unique<FakeConnection>(fd);
    }

private:
    int listen_fd_ = -1;
    int port_ = 0;
};

// ---- the server's own move codec --------------------------------------------------------------

// "P A1 [W|C]" or "M A1 C1 1 2" as a legal move in `state`, or nothing.
inline std::optional<tak::Move> fake_parse_move(const tak::State& state, const std::string& text) {
    const auto words = words_of(text);
    const auto square = [&](const std::string& word) -> std::optional<int> {
        if (word.size() != 2 || word[0] < 'A' || word[0] >= 'A' + state.size || word[1] < '1' ||
            word[1] >= '1' + state.size)
            return std::nullopt;
        return tak::square_at(word[0] - 'A', word[1] - '1');
    };
    if (words.size() >= 2 && words[0] == "P") {
        const auto at = square(words[1]);
        if (!at || words.size() > 3) return std::nullopt;
        tak::Stone stone = tak::Stone::flat;
        if (words.size() == 3) {
            if (words[2] == "W")
                stone = tak::Stone::wall;
            else if (words[2] == "C")
                stone = tak::Stone::cap;
            else
                return std::nullopt;
        }
        const tak::Move move = tak::Move::place(*at, stone);
        if (!tak::is_legal(state, move)) return std::nullopt;
        return move;
    }
    if (words.size() >= 4 && words[0] == "M") {
        const auto from = square(words[1]);
        const auto to = square(words[2]);
        if (!from || !to) return std::nullopt;
        const int dc = tak::column_of(*to) - tak::column_of(*from);
        const int dr = tak::row_of(*to) - tak::row_of(*from);
        if ((dc == 0) == (dr == 0)) return std::nullopt;  // not a straight line, or no line at all
        const tak::Direction direction = dc > 0   ? tak::Direction::right
                                         : dc < 0 ? tak::Direction::left
                                         : dr > 0 ? tak::Direction::up
                                                  : tak::Direction::down;
        const int distance = std::abs(dc + dr);
        if (distance != static_cast<int>(words.size()) - 3) return std::nullopt;
        int carried = 0;
        unsigned pattern = 0;
        for (std::size_t i = 3; i < words.size(); ++i) {
            if (words[i].size() != 1 || words[i][0] < '1' || words[i][0] > '8') return std::nullopt;
            carried += words[i][0] - '0';
            if (carried > 8) return std::nullopt;
            pattern |= 1u << (carried - 1);
        }
        const tak::Move move = tak::Move::spread(*from, direction, static_cast<std::uint8_t>(pattern));
        if (!tak::is_legal(state, move)) return std::nullopt;
        return move;
    }
    return std::nullopt;
}

inline std::string fake_format_move(tak::Move move) {
    const auto name = [](int square) {
        return std::string(1, static_cast<char>('A' + tak::column_of(square))) +
               std::string(1, static_cast<char>('1' + tak::row_of(square)));
    };
    if (move.is_placement()) {
        const char* kind = move.stone() == tak::Stone::wall ? " W" : move.stone() == tak::Stone::cap ? " C" : "";
        return "P " + name(move.square()) + kind;
    }
    std::string drops;
    int squares = 0, since_last = 0;
    for (int i = 0; i < 8; ++i) {
        if (!(move.pattern() >> i)) break;
        ++since_last;
        if (move.pattern() & (1u << i)) {
            drops += " " + std::to_string(since_last);
            since_last = 0;
            ++squares;
        }
    }
    return "M " + name(move.square()) + " " + name(move.square() + tak::step_of(move.direction()) * squares) + drops;
}

// ---- a game as the server runs it ------------------------------------------------------------

struct FakeGame {
    std::int64_t id = 1;
    std::string white = "TestBot", black = "Opponent";
    bool bridge_white = true;
    int size = 5;
    int half_komi = 0;
    int time_s = 30;
    int increment_s = 0;
    tak::State state{};
    std::vector<tak::Move> moves;
    std::int64_t white_ms = 0, black_ms = 0;
    Random random{12345};
    SteadyClock::time_point turn_started = SteadyClock::now();

    void begin() {
        state = tak::start_state(tak::Variant{size, half_komi, false});
        moves.clear();
        white_ms = black_ms = std::int64_t{time_s} * 1000;
        turn_started = SteadyClock::now();
    }
    bool bridge_to_move() const { return (state.side_to_move() == Side::first) == bridge_white; }
    bool over() const { return tak::outcome(state).is_over(); }

    std::string start_line() const {
        return "Game Start " + std::to_string(id) + " " + white + " vs " + black + " " +
               (bridge_white ? "white" : "black") + " " + std::to_string(size) + " " + std::to_string(time_s) + " " +
               std::to_string(increment_s) + " " + std::to_string(half_komi) + " " +
               std::to_string(tak::reserves_for(size).stones) + " " + std::to_string(tak::reserves_for(size).caps) +
               " 1 0 0 0 0";
    }
    std::string prefix() const { return "Game#" + std::to_string(id) + " "; }
    std::string time_line() const {
        return prefix() + "Timems " + std::to_string(white_ms) + " " + std::to_string(black_ms);
    }

    // Charges the mover's clock with the real time since the turn started, adds the increment.
    void play(tak::Move move) {
        const auto spent =
            std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - turn_started).count();
        std::int64_t& clock = state.side_to_move() == Side::first ? white_ms : black_ms;
        clock = std::max<std::int64_t>(clock - spent, 0) + std::int64_t{increment_s} * 1000;
        tak::play(state, move);
        moves.push_back(move);
        turn_started = SteadyClock::now();
    }

    // The server's Undo: the last move is taken back.
    void undo() {
        REQUIRE(!moves.empty());
        moves.pop_back();
        state = tak::start_state(tak::Variant{size, half_komi, false});
        for (tak::Move move : moves) tak::play(state, move);
        turn_started = SteadyClock::now();
    }

    tak::Move random_move() {
        auto list = std::make_unique<FixedVector<tak::Move, tak::max_legal_moves>>();
        tak::generate_moves(state, *list);
        const auto& moves_here = *list;
        REQUIRE(moves_here.size() > 0);
        return moves_here[random.below(static_cast<std::uint32_t>(moves_here.size()))];
    }

    // Game Start, every move so far, the clock and a message: what the server sends a player who
    // logs in again (Game.playerRejoin).
    void resend(FakeConnection& connection) const {
        connection.send(start_line());
        tak::State replay = tak::start_state(tak::Variant{size, half_komi, false});
        for (tak::Move move : moves) {
            connection.send(prefix() + fake_format_move(move));
            tak::play(replay, move);
        }
        connection.send(time_line());
        connection.send("Message Your game is resumed");
    }
};

// ---- a whole server on its own thread ----------------------------------------------------------

struct FakeServerOptions {
    // The real server drops a client that has sent no PING for 60 s (its cleanup runs every 30 s,
    // so after 60-90 s): only PING counts, not moves or any other line.
    std::chrono::milliseconds ping_timeout{60'000};
    // How long a player who left a game has to come back before it is scored as abandoned.
    std::chrono::milliseconds reconnect_grace{120'000};
    std::map<std::string, std::string> accounts;  // name -> password
    std::uint64_t seed = 1;                       // who is white in a seek for either colour
};

class FakePlaytakServer {
public:
    explicit FakePlaytakServer(FakeServerOptions options = {}) : options_(std::move(options)), random_(options_.seed) {
        listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        REQUIRE(listen_fd_ >= 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        REQUIRE(::listen(listen_fd_, 8) == 0);
        socklen_t length = sizeof address;
        REQUIRE(::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0);
        port_ = ntohs(address.sin_port);
        thread_ = std::thread([this] { run(); });
    }
    ~FakePlaytakServer() {
        stop_ = true;
        thread_.join();
        for (auto& [number, client] : clients_)
            if (client.fd >= 0) ::close(client.fd);
        ::close(listen_fd_);
    }
    FakePlaytakServer(const FakePlaytakServer&) = delete;
    FakePlaytakServer& operator=(const FakePlaytakServer&) = delete;

    int port() const { return port_; }

    // Every line in order: "<who> < line" from a client, "<who> > line" to it; <who> is the
    // player's name once logged in, "#<n>" before.
    std::vector<std::string> transcript() const {
        std::lock_guard lock(mutex_);
        return transcript_;
    }
    // When each transcript entry happened, in the same order (for measuring, never for tests).
    std::vector<SteadyClock::time_point> transcript_times() const {
        std::lock_guard lock(mutex_);
        return transcript_times_;
    }
    // Waits until `done` holds for the transcript; false on timeout.
    bool wait_for(const std::function<bool(const std::vector<std::string>&)>& done,
                  std::chrono::milliseconds timeout = std::chrono::milliseconds(20'000)) const {
        const auto deadline = SteadyClock::now() + timeout;
        for (;;) {
            {
                std::lock_guard lock(mutex_);
                if (done(transcript_)) return true;
            }
            if (SteadyClock::now() > deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    bool wait_for_entry(const std::string& entry, std::chrono::milliseconds timeout = std::chrono::milliseconds(20'000)) {
        return wait_for([&](const auto& lines) { return std::find(lines.begin(), lines.end(), entry) != lines.end(); },
                        timeout);
    }
    // Closes the player's connection at once, as a network failure would.
    void drop(const std::string& name) {
        std::lock_guard lock(mutex_);
        if (Client* client = client_of(name)) quit(*client, "dropped by the test");
    }
    // From now on nothing passes either way on the player's connection, which stays open: a
    // half-dead connection.
    void stall(const std::string& name) {
        std::lock_guard lock(mutex_);
        if (Client* client = client_of(name)) client->stalled = true;
    }
    struct FinishedGame {
        int number = 0;
        std::string white, black, result;
        std::vector<std::string> moves;  // server notation
    };
    std::vector<FinishedGame> finished_games() const {
        std::lock_guard lock(mutex_);
        return finished_;
    }

private:
    struct Client {
        int number = 0;
        int fd = -1;
        std::string input;
        bool stalled = false;
        SteadyClock::time_point last_ping = SteadyClock::now();
        std::string player;  // empty until logged in
    };
    struct Player {
        std::string name;
        bool guest = false;
        int client = 0;  // 0: logged out
        int game = 0;
        SteadyClock::time_point logged_out{};
    };
    struct Seek {
        int number = 0;
        std::string owner;
        int size = 5, time = 0, increment = 0;
        char color = 'A';
        int komi = 0, pieces = 21, caps = 1, unrated = 0, tournament = 0, trigger = 0, extra = 0;
        std::string opponent;
    };
    struct Game {
        int number = 0;
        Seek seek;
        std::string white, black;
        tak::State state{};
        std::vector<std::string> moves;
        std::int64_t white_ms = 0, black_ms = 0;
        bool clock_running = false;
        SteadyClock::time_point last_update{};
        std::string draw_offered_by, undo_requested_by;
        bool over = false;
    };

    static std::optional<int> number(const std::string& text) {
        if (text.empty() || text.size() > 9) return std::nullopt;  // Integer.parseInt would throw
        return std::stoi(text);
    }

    Client* client_of(const std::string& name) {
        auto player = players_.find(name);
        if (player == players_.end() || player->second.client == 0) return nullptr;
        auto client = clients_.find(player->second.client);
        return client == clients_.end() ? nullptr : &client->second;
    }
    void record(std::string entry) {
        transcript_.push_back(std::move(entry));
        transcript_times_.push_back(SteadyClock::now());
    }
    static std::string who(const Client& client) {
        return client.player.empty() ? "#" + std::to_string(client.number) : client.player;
    }
    void send(Client& client, const std::string& line) {
        if (client.fd < 0 || client.stalled) return;
        record(who(client) + " > " + line);
        const std::string bytes = line + "\n";
        std::size_t sent = 0;
        while (sent < bytes.size()) {
            const ssize_t n = ::send(client.fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
            if (n <= 0) {
                if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
                return;
            }
            sent += static_cast<std::size_t>(n);
        }
    }
    void send_to(const std::string& name, const std::string& line) {
        if (Client* client = client_of(name)) send(*client, line);
    }
    void send_all_online(const std::string& line) {
        for (auto& [number, client] : clients_)
            if (!client.player.empty()) send(client, line);
    }
    void send_online() {
        int online = 0;
        std::string names;
        for (auto& [number, client] : clients_) {
            if (client.fd < 0) continue;
            ++online;  // every connection counts, logged in or not
            if (client.player.empty()) continue;
            names += (names.empty() ? "\"" : ", \"") + client.player + "\"";
        }
        send_all_online("Online " + std::to_string(online));
        send_all_online("OnlinePlayers [" + names + "]");
    }

    // Seek.buildSeekStringArray, protocol 2: an empty opponent is written "0"; the last field says
    // whether the seeker is a bot.
    static std::string seek_text(const Seek& s) {
        return std::to_string(s.number) + " " + s.owner + " " + std::to_string(s.size) + " " + std::to_string(s.time) +
               " " + std::to_string(s.increment) + " " + std::string(1, s.color) + " " + std::to_string(s.komi) + " " +
               std::to_string(s.pieces) + " " + std::to_string(s.caps) + " " + std::to_string(s.unrated) + " " +
               std::to_string(s.tournament) + " " + std::to_string(s.trigger) + " " + std::to_string(s.extra) + " " +
               (s.opponent.empty() ? "0" : s.opponent) + " 0";
    }
    void remove_seek_of(const std::string& owner) {
        for (auto it = seeks_.begin(); it != seeks_.end(); ++it)
            if (it->second.owner == owner) {
                const std::string text = seek_text(it->second);
                seeks_.erase(it);
                send_all_online("Seek remove " + text);
                return;
            }
    }
    // The Seek constructor's limits: komi at most 8, 10..80 stones, at most 5 capstones, a size
    // outside 3..8 becomes 5.
    void add_seek(Seek seek) {
        remove_seek_of(seek.owner);
        seek.number = ++seek_counter_;
        seek.komi = std::min(seek.komi, 8);
        seek.pieces = std::max(std::min(seek.pieces, 80), 10);
        seek.caps = std::min(seek.caps, 5);
        if (seek.size < 3 || seek.size > 8) seek.size = 5;
        seeks_[seek.number] = seek;
        send_all_online("Seek new " + seek_text(seek));
    }

    std::string game_start(const Game& game, const std::string& name) const {
        const Seek& s = game.seek;
        return "Game Start " + std::to_string(game.number) + " " + game.white + " vs " + game.black + " " +
               (name == game.white ? "white" : "black") + " " + std::to_string(s.size) + " " + std::to_string(s.time) +
               " " + std::to_string(s.increment) + " " + std::to_string(s.komi) + " " + std::to_string(s.pieces) +
               " " + std::to_string(s.caps) + " " + std::to_string(s.unrated) + " " + std::to_string(s.tournament) +
               " " + std::to_string(s.trigger) + " " + std::to_string(s.extra) + " 0";
    }
    std::string prefix(const Game& game) const { return "Game#" + std::to_string(game.number) + " "; }
    void charge_clock(Game& game) {
        if (!game.clock_running || game.over) return;
        const auto now = SteadyClock::now();
        const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(now - game.last_update).count();
        (game.state.side_to_move() == Side::first ? game.white_ms : game.black_ms) -= spent;
        game.last_update = now;
    }
    std::string time_line(const Game& game) const {
        return prefix(game) + "Timems " + std::to_string(std::max<std::int64_t>(game.white_ms, 0)) + " " +
               std::to_string(std::max<std::int64_t>(game.black_ms, 0));
    }
    void to_players(const Game& game, const std::string& line) {
        send_to(game.white, line);
        send_to(game.black, line);
    }
    void end_game(Game& game, const std::string& result, const std::string& abandoned_by = "") {
        game.over = true;
        for (const std::string& name : {game.white, game.black}) {
            if (abandoned_by == name) continue;
            send_to(name, abandoned_by.empty() ? prefix(game) + "Over " + result
                                               : prefix(game) + "Abandoned. " + abandoned_by + " quit");
        }
        players_[game.white].game = players_[game.black].game = 0;
        finished_.push_back({game.number, game.white, game.black, result, game.moves});
        send_all_online("GameList Remove " + std::to_string(game.number) + " " + game.white + " " + game.black);
    }

    void rejoin(Player& player) {
        auto found = games_.find(player.game);
        if (found == games_.end() || found->second.over) return;
        Game& game = found->second;
        send_to(player.name, game_start(game, player.name));
        for (const std::string& move : game.moves) send_to(player.name, prefix(game) + move);
        charge_clock(game);
        send_to(player.name, time_line(game));
        send_to(player.name, "Message Your game is resumed");
        send_to(player.name == game.white ? game.black : game.white, "Message " + player.name + " has reconnected.");
    }

    void log_in(Client& client, const std::string& name, bool guest) {
        Player& player = players_[name];
        player.name = name;
        player.guest = guest;
        if (player.client != 0 && player.client != client.number) {
            // The older session is told and closed before the new one is logged in.
            if (Client* old = client_of(name)) {
                send(*old, "Message You've logged in from another window. Disconnecting");
                quit(*old, "logged in from another window");
            }
        }
        player.client = client.number;
        client.player = name;
        // A guest's game is resent before its Welcome, an account's after it (Client.run).
        if (guest) rejoin(player);
        send(client, "Welcome " + name + "!");
        if (!guest) rejoin(player);
        for (const auto& [number, seek] : seeks_) send(client, "Seek new " + seek_text(seek));
        for (const auto& [number, game] : games_)
            if (!game.over) send(client, "GameList Add " + std::to_string(number) + " " + game.white + " " + game.black);
        send_online();
    }

    void quit(Client& client, const std::string& why) {
        if (client.fd < 0) return;
        record(who(client) + " closed: " + why);
        ::close(client.fd);
        client.fd = -1;
        if (client.player.empty()) return;
        Player& player = players_[client.player];
        if (player.client == client.number) {
            if (player.game != 0) {
                Game& game = games_[player.game];
                send_to(player.name == game.white ? game.black : game.white,
                        "Message " + player.name + " has disconnected. They have " +
                            std::to_string(options_.reconnect_grace.count() / 1000) + " seconds to reconnect");
                player.logged_out = SteadyClock::now();
            }
            remove_seek_of(player.name);
            player.client = 0;
        }
        client.player.clear();
        send_online();
    }

    void handle(Client& client, const std::string& raw) {
        std::string line = raw;
        while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
        record(who(client) + " < " + line);
        static const std::regex ping("^PING$"), client_re("^Client ([A-Za-z.0-9-]{1,60})"),
            protocol_re("^Protocol ([0-9]{1,8})"), guest_re("^Login Guest ?(([a-z]{20})?)"),
            login_re("^Login ([a-zA-Z][a-zA-Z0-9_]{3,15}) ([^\\n\\r\\s]{6,50})"),
            seek_v3("^Seek (\\d) (\\d+) (\\d+) ([WBA]) (\\d+) (\\d+) (\\d+) (0|1) (0|1) (\\d+) (\\d+) ([A-Za-z0-9_]*)"),
            seek_v2("^Seek (\\d) (\\d+) (\\d+) ([WBA]) (\\d+) (\\d+) (\\d+) (0|1) (0|1) ([A-Za-z0-9_]*)"),
            seek_v1("^Seek (\\d) (\\d+) (\\d+)( [WB])?"), accept_re("^Accept (\\d+)"), list_re("^List"),
            place_re("^Game#(\\d+) P ([A-Z])(\\d)( C)?( W)?"), move_re("^Game#(\\d+) M ([A-Z])(\\d) ([A-Z])(\\d)(( \\d)+)"),
            undo_re("^Game#(\\d+) RequestUndo"), remove_undo_re("^Game#(\\d+) RemoveUndo"),
            draw_re("^Game#(\\d+) OfferDraw"), remove_draw_re("^Game#(\\d+) RemoveDraw"),
            resign_re("^Game#(\\d+) Resign"), game_list_re("^GameList");
        std::smatch m;
        if (line == "quit") return quit(client, "quit");
        if (std::regex_search(line, ping)) {
            client.last_ping = SteadyClock::now();
            return send(client, "OK");
        }
        if (client.player.empty()) {
            if (std::regex_search(line, client_re) || std::regex_search(line, protocol_re)) return send(client, "OK");
            if (std::regex_search(line, m, guest_re)) {
                const std::string token = m.str(1);
                std::string name;
                if (!token.empty() && guests_by_token_.count(token)) {
                    name = guests_by_token_[token];
                } else {
                    name = "Guest" + std::to_string(++guest_counter_);
                    if (!token.empty()) guests_by_token_[token] = name;
                }
                return log_in(client, name, true);
            }
            if (std::regex_search(line, m, login_re)) {
                auto account = options_.accounts.find(m.str(1));
                if (account == options_.accounts.end() || account->second != m.str(2))
                    return send(client, "Authentication failure");
                return log_in(client, m.str(1), false);
            }
            return send(client, "NOK");
        }
        Player& player = players_[client.player];
        Game* game = player.game != 0 ? &games_[player.game] : nullptr;
        const auto in_this_game = [&](const std::smatch& match) { return game && number(match.str(1)) == game->number; };
        if (std::regex_search(line, list_re)) {
            for (const auto& [number, seek] : seeks_) send(client, "Seek new " + seek_text(seek));
            return;
        }
        const bool v3 = std::regex_search(line, m, seek_v3);
        if (!game && (v3 || std::regex_search(line, m, seek_v2))) {
            Seek seek;
            seek.owner = player.name;
            seek.size = *number(m.str(1));
            const auto time = number(m.str(2)), increment = number(m.str(3)), komi = number(m.str(5)), pieces = number(m.str(6)),
                       caps = number(m.str(7));
            if (!time || !increment || !komi || !pieces || !caps) return;
            if (seek.size == 0) return remove_seek_of(player.name);  // "Seek 0 ...": no answer
            seek.time = *time;
            seek.increment = *increment;
            seek.color = m.str(4)[0];
            seek.komi = *komi;
            seek.pieces = *pieces;
            seek.caps = *caps;
            seek.unrated = m.str(8) == "1";
            seek.tournament = m.str(9) == "1";
            if (v3) {
                seek.trigger = number(m.str(10)).value_or(0);
                seek.extra = number(m.str(11)).value_or(0);
                seek.opponent = m.str(12);
            } else {
                seek.opponent = m.str(10);
            }
            return add_seek(seek);  // no answer but the Seek new sent to everyone
        }
        if (!game && std::regex_search(line, m, seek_v1)) {
            // The old short seek: what follows the increment (komi, a negative one too) is not read.
            Seek seek;
            seek.owner = player.name;
            seek.size = *number(m.str(1));
            if (seek.size == 0) return remove_seek_of(player.name);
            seek.time = number(m.str(2)).value_or(0);
            seek.increment = number(m.str(3)).value_or(0);
            seek.color = m.str(4).empty() ? 'A' : m.str(4)[1];
            const tak::Reserves standard = tak::reserves_for(seek.size >= 3 && seek.size <= 8 ? seek.size : 5);
            seek.pieces = seek.size >= 3 && seek.size <= 8 ? standard.stones : 0;
            seek.caps = seek.size >= 3 && seek.size <= 8 ? standard.caps : 0;
            return add_seek(seek);
        }
        if (!game && std::regex_search(line, m, accept_re)) {
            auto found = number(m.str(1)) ? seeks_.find(*number(m.str(1))) : seeks_.end();
            if (found == seeks_.end()) return send(client, "NOK");
            const Seek seek = found->second;
            const bool for_us = seek.opponent.empty() || lower(seek.opponent) == lower(player.name);
            if (seek.owner == player.name || players_[seek.owner].game != 0 || !for_us) return send(client, "NOK");
            remove_seek_of(player.name);
            remove_seek_of(seek.owner);
            Game created;
            created.number = ++game_counter_;
            created.seek = seek;
            const bool seeker_white = seek.color == 'W' || (seek.color == 'A' && random_.below(2) == 0);
            created.white = seeker_white ? seek.owner : player.name;
            created.black = seeker_white ? player.name : seek.owner;
            created.state = tak::start_state(tak::Variant{seek.size, seek.komi, false});
            created.white_ms = created.black_ms = std::int64_t{seek.time} * 1000;
            games_[created.number] = created;
            player.game = players_[seek.owner].game = created.number;
            send_all_online("GameList Add " + std::to_string(created.number) + " " + created.white + " " +
                            created.black);
            send(client, game_start(created, player.name));  // the acceptor first, no other answer
            send_to(seek.owner, game_start(created, seek.owner));
            return;
        }
        const bool place = std::regex_search(line, m, place_re) && in_this_game(m);
        if (place || (std::regex_search(line, m, move_re) && in_this_game(m))) {
            const std::string text = line.substr(line.find(' ') + 1);
            const bool white_to_move = game->state.side_to_move() == Side::first;
            std::string error;
            std::optional<tak::Move> move;
            if (game->over || (player.name == game->white) != white_to_move) {
                error = "Not your turn";
            } else {
                std::string normalised = text;
                while (!normalised.empty() && normalised.back() == ' ') normalised.pop_back();
                move = fake_parse_move(game->state, normalised);
                if (!move) error = "Invalid move";
            }
            if (!move) {
                send(client, "NOK");
                return send(client, "Error:" + error);
            }
            // Game.placeMove/moveMove: the clock line to both, the move to the opponent, the end
            // of the game to both, and only then OK to the mover.
            if (!game->clock_running) {
                game->clock_running = true;
                game->last_update = SteadyClock::now();
            }
            charge_clock(*game);
            (white_to_move ? game->white_ms : game->black_ms) += std::int64_t{game->seek.increment} * 1000;
            tak::play(game->state, *move);
            game->moves.push_back(fake_format_move(*move));
            game->undo_requested_by.clear();
            to_players(*game, time_line(*game));
            send_to(white_to_move ? game->black : game->white, prefix(*game) + game->moves.back());
            const auto outcome = tak::outcome(game->state);
            if (outcome.is_over()) end_game(*game, tak::result_text(outcome));
            return send(client, "OK");
        }
        if (std::regex_search(line, m, undo_re) && in_this_game(m)) {
            if (game->moves.empty()) {
                send(client, "NOK");  // Game.undo refuses, and Client then says OK as well
            } else if (game->undo_requested_by.empty()) {
                game->undo_requested_by = player.name;
                send_to(player.name == game->white ? game->black : game->white, prefix(*game) + "RequestUndo");
            } else if (game->undo_requested_by != player.name) {
                game->undo_requested_by.clear();
                game->moves.pop_back();
                game->state = tak::start_state(tak::Variant{game->seek.size, game->seek.komi, false});
                for (const std::string& move : game->moves) tak::play(game->state, *fake_parse_move(game->state, move));
                to_players(*game, prefix(*game) + "Undo");
            }
            return send(client, "OK");
        }
        if (std::regex_search(line, m, remove_undo_re) && in_this_game(m)) {
            if (game->undo_requested_by == player.name) {
                game->undo_requested_by.clear();
                send_to(player.name == game->white ? game->black : game->white, prefix(*game) + "RemoveUndo");
            }
            return send(client, "OK");
        }
        if (std::regex_search(line, m, draw_re) && in_this_game(m)) {
            if (game->draw_offered_by.empty()) {
                game->draw_offered_by = player.name;
                send_to(player.name == game->white ? game->black : game->white, prefix(*game) + "OfferDraw");
            } else if (game->draw_offered_by != player.name) {
                end_game(*game, "1/2-1/2");
            }
            return send(client, "OK");
        }
        if (std::regex_search(line, m, remove_draw_re) && in_this_game(m)) {
            if (game->draw_offered_by == player.name) {
                game->draw_offered_by.clear();
                send_to(player.name == game->white ? game->black : game->white, prefix(*game) + "RemoveDraw");
            }
            return send(client, "OK");
        }
        if (std::regex_search(line, m, resign_re) && in_this_game(m))
            return end_game(*game, player.name == game->white ? "0-1" : "1-0");  // no answer but Over
        if (std::regex_search(line, game_list_re)) return;
        send(client, "NOK");  // anything else, a Seek or an Accept during a game too
    }

    static std::string lower(std::string text) {
        for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return text;
    }

    void tick() {
        const auto now = SteadyClock::now();
        for (auto& [number, client] : clients_)
            if (client.fd >= 0 && now - client.last_ping > options_.ping_timeout)
                quit(client, "no PING for " + std::to_string(options_.ping_timeout.count()) + " ms");
        for (auto& [number, game] : games_) {
            if (game.over) continue;
            for (const std::string& name : {game.white, game.black}) {
                const Player& player = players_[name];
                if (!game.over && player.client == 0 && now - player.logged_out > options_.reconnect_grace)
                    end_game(game, name == game.white ? "0-1" : "1-0", name);
            }
            if (game.over || !game.clock_running) continue;
            charge_clock(game);
            if (game.white_ms <= 0 || game.black_ms <= 0) {
                to_players(game, time_line(game));
                end_game(game, game.white_ms <= 0 ? "0-1" : "1-0");
            }
        }
    }

    void run() {
        while (!stop_) {
            std::vector<pollfd> fds{{listen_fd_, POLLIN, 0}};
            std::vector<int> numbers{0};
            {
                std::lock_guard lock(mutex_);
                for (auto& [number, client] : clients_)
                    if (client.fd >= 0 && !client.stalled) {
                        fds.push_back({client.fd, POLLIN, 0});
                        numbers.push_back(number);
                    }
            }
            ::poll(fds.data(), fds.size(), 10);
            std::lock_guard lock(mutex_);
            if (fds[0].revents & POLLIN) {
                const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
                if (fd >= 0) {
                    const int on = 1;
                    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
                    Client& client = clients_[++client_counter_];
                    client.number = client_counter_;
                    client.fd = fd;
                    record(who(client) + " connected");
                    send(client, "Welcome!");
                    send(client, "Login or Register");
                }
            }
            for (std::size_t i = 1; i < fds.size(); ++i) {
                if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                Client& client = clients_[numbers[i]];
                if (client.fd < 0 || client.stalled) continue;
                char chunk[4096];
                const ssize_t n = ::recv(client.fd, chunk, sizeof chunk, MSG_DONTWAIT);
                if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
                    quit(client, "connection closed by the client");
                    continue;
                }
                if (n < 0) continue;
                client.input.append(chunk, static_cast<std::size_t>(n));
                for (auto newline = client.input.find('\n'); newline != std::string::npos && client.fd >= 0;
                     newline = client.input.find('\n')) {
                    const std::string line = client.input.substr(0, newline);
                    client.input.erase(0, newline + 1);
                    handle(client, line);
                }
            }
            tick();
        }
    }

    FakeServerOptions options_;
    Random random_;
    int listen_fd_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::thread thread_;
    mutable std::mutex mutex_;
    std::vector<std::string> transcript_;
    std::vector<SteadyClock::time_point> transcript_times_;
    std::map<int, Client> clients_;
    std::map<std::string, Player> players_;
    std::map<std::string, std::string> guests_by_token_;
    std::map<int, Seek> seeks_;
    std::map<int, Game> games_;
    std::vector<FinishedGame> finished_;
    int client_counter_ = 0, guest_counter_ = 0, seek_counter_ = 0, game_counter_ = 0;
};

}  // namespace bge::testing
