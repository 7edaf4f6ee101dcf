#include "tools/gui/web_server.hpp"

#include <atomic>
#include <cstdio>
#include <deque>
#include <mutex>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <fmt/format.h>

namespace bge::gui {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

constexpr std::size_t max_request_body = 64 * 1024;
constexpr std::size_t max_queued_messages = 4096;          // then the client is too slow: dropped

bool is_loopback_name(std::string_view host) {
    return host == "127.0.0.1" || host == "localhost" || host == "[::1]" || host == "::1";
}

// "host:port" -> (host, port); IPv6 in brackets keeps its brackets.
std::pair<std::string_view, std::string_view> split_host_port(std::string_view text) {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos || (text.find(']') != std::string_view::npos && colon < text.find(']')))
        return {text, {}};
    return {text.substr(0, colon), text.substr(colon + 1)};
}

}  // namespace

bool host_allowed(std::string_view host, const ServerOptions& options, int port) {
    const auto [name, port_text] = split_host_port(host);
    if (port_text != std::to_string(port)) return false;
    if (is_loopback_name(name)) return true;
    return name == options.host || (options.host.find(':') != std::string::npos && name == "[" + options.host + "]") ||
           options.host == "0.0.0.0" || options.host == "::";
}

bool origin_allowed(std::string_view origin, const ServerOptions& options, int port) {
    if (origin.empty()) return true;
    for (const std::string& allowed : options.allowed_origins)
        if (origin == allowed) return true;
    if (!origin.starts_with("http://")) return false;
    const std::string_view host = origin.substr(7);
    if (host.find('/') != std::string_view::npos) return false;
    // With 0.0.0.0 any name may reach the server, but the page must still come from a name of
    // this machine's loopback or the exact bound address.
    const auto [name, port_text] = split_host_port(host);
    if (port_text != std::to_string(port)) return false;
    return is_loopback_name(name) || name == options.host;
}

struct WebServer::Impl {
    ServerOptions options;
    StaticFiles files;
    ServerHandlers handlers;
    net::io_context io{1};
    tcp::acceptor acceptor{io};
    int port = 0;
    std::atomic<std::uint64_t> next_client_id{1};

    Impl(ServerOptions o, StaticFiles f, ServerHandlers h)
        : options(std::move(o)), files(std::move(f)), handlers(std::move(h)) {}

    void accept();
};

namespace {

class WebSocketSession : public Client, public std::enable_shared_from_this<WebSocketSession> {
public:
    WebSocketSession(tcp::socket&& socket, WebServer::Impl& server, std::uint64_t id)
        : ws_(std::move(socket)), server_(server), id_(id) {}

    void run(http::request<http::string_body> request) {
        ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
        ws_.read_message_max(max_message_bytes);
        ws_.async_accept(request, beast::bind_front_handler(&WebSocketSession::on_accept, shared_from_this()));
    }

    void send(std::string message) override {
        net::post(ws_.get_executor(), [self = shared_from_this(), message = std::move(message)]() mutable {
            if (self->closed_) return;
            if (self->queue_.size() >= max_queued_messages) {
                self->closed_ = true;
                beast::get_lowest_layer(self->ws_).close();
                return;
            }
            self->queue_.push_back(std::move(message));
            if (self->queue_.size() == 1) self->write_next();
        });
    }

    std::uint64_t id() const override { return id_; }

private:
    void on_accept(beast::error_code error) {
        if (error) return;
        if (server_.handlers.opened) server_.handlers.opened(shared_from_this());
        read_next();
    }

    void read_next() {
        ws_.async_read(buffer_, beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this()));
    }

    void on_read(beast::error_code error, std::size_t) {
        if (error) {
            closed_ = true;
            if (server_.handlers.closed) server_.handlers.closed(shared_from_this());
            return;
        }
        const std::string text = beast::buffers_to_string(buffer_.data());
        buffer_.consume(buffer_.size());
        if (!ws_.got_text())
            send(R"({"type":"error","message":"binary messages are not understood: send JSON text"})");
        else if (server_.handlers.message)
            server_.handlers.message(shared_from_this(), text);
        read_next();
    }

    void write_next() {
        ws_.text(true);
        ws_.async_write(net::buffer(queue_.front()),
                        beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
    }

    void on_write(beast::error_code error, std::size_t) {
        if (error) {
            closed_ = true;
            queue_.clear();
            return;
        }
        queue_.pop_front();
        if (!queue_.empty()) write_next();
    }

    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buffer_;
    std::deque<std::string> queue_;
    bool closed_ = false;
    WebServer::Impl& server_;
    std::uint64_t id_;
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    HttpSession(tcp::socket&& socket, WebServer::Impl& server) : stream_(std::move(socket)), server_(server) {}

    void run() { net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::read_next, shared_from_this())); }

private:
    void read_next() {
        parser_.emplace();
        parser_->body_limit(max_request_body);
        parser_->header_limit(16 * 1024);
        stream_.expires_after(std::chrono::seconds(30));
        http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
    }

    void on_read(beast::error_code error, std::size_t) {
        if (error == http::error::end_of_stream) {
            beast::error_code ignored;
            stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
            return;
        }
        if (error) return;  // a malformed or oversized request: the connection is dropped
        http::request<http::string_body> request = parser_->release();
        const std::string host(request[http::field::host]);
        if (!host_allowed(host, server_.options, server_.port))
            return respond(plain(request, http::status::forbidden, "forbidden: unknown Host\n"));
        if (websocket::is_upgrade(request)) {
            const std::string origin(request[http::field::origin]);
            if (!origin_allowed(origin, server_.options, server_.port)) {
                std::fputs(fmt::format("gui: refused a WebSocket from origin {}\n", origin).c_str(), stderr);
                return respond(plain(request, http::status::forbidden, "forbidden: foreign Origin\n"));
            }
            stream_.expires_never();
            std::make_shared<WebSocketSession>(stream_.release_socket(), server_, server_.next_client_id++)
                ->run(std::move(request));
            return;
        }
        if (request.method() != http::verb::get && request.method() != http::verb::head)
            return respond(plain(request, http::status::method_not_allowed, "only GET\n"));
        const auto file = server_.files.find(std::string_view(request.target().data(), request.target().size()));
        if (!file) return respond(plain(request, http::status::not_found, "not found\n"));
        http::response<http::string_body> response{http::status::ok, request.version()};
        response.set(http::field::content_type, file->content_type);
        response.set(http::field::cache_control, "no-store");
        // The page loads nothing from elsewhere and may connect only back here.
        response.set("Content-Security-Policy",
                     "default-src 'self'; connect-src 'self' ws: ; img-src 'self' data:; style-src 'self' 'unsafe-inline'");
        response.set("X-Content-Type-Options", "nosniff");
        response.keep_alive(request.keep_alive());
        if (request.method() != http::verb::head) response.body() = file->content;
        response.prepare_payload();
        respond(std::move(response));
    }

    static http::response<http::string_body> plain(const http::request<http::string_body>& request, http::status status,
                                                   std::string text) {
        http::response<http::string_body> response{status, request.version()};
        response.set(http::field::content_type, "text/plain; charset=utf-8");
        response.keep_alive(false);
        response.body() = std::move(text);
        response.prepare_payload();
        return response;
    }

    void respond(http::response<http::string_body>&& response) {
        auto shared = std::make_shared<http::response<http::string_body>>(std::move(response));
        http::async_write(stream_, *shared,
                          [self = shared_from_this(), shared](beast::error_code error, std::size_t) {
                              if (error) return;
                              if (!shared->keep_alive()) {
                                  beast::error_code ignored;
                                  self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                                  return;
                              }
                              self->read_next();
                          });
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    WebServer::Impl& server_;
};

}  // namespace

void WebServer::Impl::accept() {
    acceptor.async_accept(net::make_strand(io), [this](beast::error_code error, tcp::socket socket) {
        if (!acceptor.is_open()) return;
        if (!error) std::make_shared<HttpSession>(std::move(socket), *this)->run();
        accept();
    });
}

WebServer::WebServer(ServerOptions options, StaticFiles files, ServerHandlers handlers)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(files), std::move(handlers))) {}

WebServer::~WebServer() = default;

Status WebServer::listen() {
    beast::error_code error;
    const auto address = net::ip::make_address(impl_->options.host, error);
    if (error) return make_error(fmt::format("--host {}: not an IP address", impl_->options.host));
    const tcp::endpoint endpoint{address, static_cast<unsigned short>(impl_->options.port)};
    auto& acceptor = impl_->acceptor;
    acceptor.open(endpoint.protocol(), error);
    if (!error) acceptor.set_option(net::socket_base::reuse_address(true), error);
    if (!error) acceptor.bind(endpoint, error);
    if (!error) acceptor.listen(net::socket_base::max_listen_connections, error);
    if (error)
        return make_error(fmt::format("cannot listen on {}:{}: {}", impl_->options.host, impl_->options.port, error.message()));
    impl_->port = acceptor.local_endpoint().port();
    impl_->accept();
    return success();
}

int WebServer::port() const { return impl_->port; }

std::string WebServer::address() const {
    const std::string& host = impl_->options.host;
    return fmt::format("http://{}:{}/", host.find(':') != std::string::npos ? "[" + host + "]" : host, impl_->port);
}

void WebServer::run(bool handle_signals) {
    std::optional<net::signal_set> signals;
    if (handle_signals) {
        signals.emplace(impl_->io, SIGINT, SIGTERM);
        signals->async_wait([this](beast::error_code, int) { impl_->io.stop(); });
    }
    impl_->io.run();
}

void WebServer::stop() {
    net::post(impl_->io, [this] {
        beast::error_code ignored;
        impl_->acceptor.close(ignored);
        impl_->io.stop();
    });
}

}  // namespace bge::gui
