#pragma once
// One TCP connection to the game server, line by line, on Boost.Asio: resolve, connect, read
// lines ending in "\n" (a "\r" before it is dropped), write lines with a queue. Every line
// sent is logged (Login lines masked). After close(), or once the connection failed, no
// callback is called again; the bridge makes a new connection to reconnect.

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/streambuf.hpp>

#include "tools/playtak/logger.hpp"

namespace bge::playtak {

class ServerConnection : public std::enable_shared_from_this<ServerConnection> {
public:
    static constexpr std::size_t max_line_length = 1 << 20;

    struct Handlers {
        std::function<void()> connected;
        std::function<void(const std::string&)> line;
        std::function<void(const std::string& why)> closed;  // called once, unless close() came first
    };

    ServerConnection(boost::asio::io_context& io, Logger& log) : io_(io), log_(log), socket_(io), resolver_(io) {}

    // Resolves and connects, failing after `timeout`.
    void open(const std::string& host, const std::string& port, std::chrono::milliseconds timeout, Handlers handlers);
    void send(const std::string& line);
    void close();
    // Closes once every queued line is written and the server has closed its end (or after
    // `timeout`), then calls `done`; the `line` and `closed` handlers are not called any more.
    void close_when_sent(std::chrono::milliseconds timeout, std::function<void()> done);
    bool is_open() const { return connected_ && !finished_; }
    bool was_connected() const { return connected_; }

private:
    void read_next();
    void write_next();
    void fail(const std::string& why);
    void begin_draining();
    void finish_closing();

    boost::asio::io_context& io_;
    Logger& log_;
    boost::asio::ip::tcp::socket socket_;
    boost::asio::ip::tcp::resolver resolver_;
    std::unique_ptr<boost::asio::steady_timer> connect_timer_;
    boost::asio::streambuf input_{max_line_length};
    std::deque<std::string> output_;
    Handlers handlers_;
    bool connected_ = false;
    bool finished_ = false;
    bool writing_ = false;  // one async_write at a time; it writes output_.front()
    std::function<void()> closing_;
};

}  // namespace bge::playtak
