#include "tools/playtak/server_connection.hpp"

#include <istream>

#include <fmt/format.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include "tools/playtak/server_protocol.hpp"

namespace bge::playtak {

namespace asio = boost::asio;
using boost::system::error_code;

void ServerConnection::open(const std::string& host, const std::string& port, std::chrono::milliseconds timeout,
                            Handlers handlers) {
    handlers_ = std::move(handlers);
    auto self = shared_from_this();
    connect_timer_ = std::make_unique<asio::steady_timer>(io_, timeout);
    connect_timer_->async_wait([self, timeout](const error_code& error) {
        if (error || self->connected_ || self->finished_) return;
        self->fail(fmt::format("no connection within {} s", timeout.count() / 1000.0));
    });
    resolver_.async_resolve(
        host, port, [self, host, port](const error_code& error, asio::ip::tcp::resolver::results_type results) {
            if (self->finished_) return;
            if (error) return self->fail(fmt::format("cannot resolve {}:{}: {}", host, port, error.message()));
            asio::async_connect(
                self->socket_, results, [self](const error_code& error, const asio::ip::tcp::endpoint& endpoint) {
                    if (self->finished_) return;
                    if (error) return self->fail(fmt::format("cannot connect: {}", error.message()));
                    self->connected_ = true;
                    self->connect_timer_->cancel();
                    error_code ignored;
                    self->socket_.set_option(asio::ip::tcp::no_delay(true), ignored);
                    self->log_.info(fmt::format("connected to {}:{}", endpoint.address().to_string(), endpoint.port()));
                    if (self->handlers_.connected) self->handlers_.connected();
                    if (self->finished_) return;
                    self->read_next();
                    self->write_next();
                });
        });
}

void ServerConnection::read_next() {
    auto self = shared_from_this();
    asio::async_read_until(socket_, input_, '\n', [self](const error_code& error, std::size_t length) {
        if (self->finished_) return;
        if (error) {
            if (error == asio::error::eof) return self->fail("the server closed the connection");
            if (error == asio::error::not_found) return self->fail("a line from the server is longer than 1 MiB");
            return self->fail(fmt::format("read failed: {}", error.message()));
        }
        std::string line(length, '\0');
        std::istream(&self->input_).read(line.data(), static_cast<std::streamsize>(length));
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
        if (self->handlers_.line && !self->closing_) self->handlers_.line(line);
        if (!self->finished_) self->read_next();
    });
}

void ServerConnection::send(const std::string& line) {
    if (finished_) return;
    log_.info(fmt::format("> {}", loggable(line)));
    output_.push_back(line + '\n');
    if (connected_) write_next();
}

void ServerConnection::write_next() {
    if (writing_ || output_.empty() || finished_) return;
    writing_ = true;
    auto self = shared_from_this();
    asio::async_write(socket_, asio::buffer(output_.front()), [self](const error_code& error, std::size_t) {
        self->writing_ = false;
        if (self->finished_) return;
        if (error) return self->fail(fmt::format("write failed: {}", error.message()));
        self->output_.pop_front();
        if (self->output_.empty() && self->closing_) return self->begin_draining();
        self->write_next();
    });
}

void ServerConnection::fail(const std::string& why) {
    if (finished_) return;
    finished_ = true;
    error_code ignored;
    if (connect_timer_) connect_timer_->cancel();
    resolver_.cancel();
    socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    auto done = std::move(closing_);
    closing_ = nullptr;
    if (done)
        asio::post(io_, std::move(done));
    else if (handlers_.closed)
        handlers_.closed(why);
}

void ServerConnection::close() {
    if (finished_) return;
    finished_ = true;
    error_code ignored;
    if (connect_timer_) connect_timer_->cancel();
    resolver_.cancel();
    socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
}

void ServerConnection::close_when_sent(std::chrono::milliseconds timeout, std::function<void()> done) {
    if (finished_ || !connected_) {
        close();
        asio::post(io_, std::move(done));
        return;
    }
    closing_ = std::move(done);
    auto self = shared_from_this();
    connect_timer_ = std::make_unique<asio::steady_timer>(io_, timeout);
    connect_timer_->async_wait([self](const error_code& error) {
        if (error || !self->closing_) return;
        self->finish_closing();
    });
    if (output_.empty() && !writing_) begin_draining();
}

void ServerConnection::begin_draining() {
    // Half-close and read until the server closes too: closing a socket with unread input sends
    // a reset, which may make the server drop our last lines (a resignation, `quit`).
    error_code ignored;
    socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

void ServerConnection::finish_closing() {
    auto done = std::move(closing_);
    closing_ = nullptr;
    close();
    if (done) asio::post(io_, std::move(done));
}

}  // namespace bge::playtak
