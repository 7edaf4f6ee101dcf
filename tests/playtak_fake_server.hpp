#pragma once
// A fake playtak server for the bridge's tests, written from the protocol description (not from
// the bridge's code): it listens on 127.0.0.1 only, on an ephemeral port, and each test scripts
// the conversation in straight-line code with plain sockets and poll(). Its move codec is its
// own, so the bridge's move conversion is checked against an independent reading.

#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
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

    // Game Start, every move so far and the clock: what the server sends on a reconnection.
    void resend(FakeConnection& connection) const {
        connection.send(start_line());
        tak::State replay = tak::start_state(tak::Variant{size, half_komi, false});
        for (tak::Move move : moves) {
            connection.send(prefix() + fake_format_move(move));
            tak::play(replay, move);
        }
        connection.send(time_line());
    }
};

}  // namespace bge::testing
