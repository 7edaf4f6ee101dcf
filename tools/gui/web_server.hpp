#pragma once
// The GUI's HTTP and WebSocket server (Boost.Beast): serves the static pages and carries the
// page's JSON messages. Safe by default (docs/gui.md, "Safety"):
// - it listens on the address given (127.0.0.1 unless told otherwise);
// - a request whose Host is not this server's (DNS rebinding) gets 403, and so does a WebSocket
//   whose Origin is not this server's own page (or one allowed with --allow-origin);
// - requests, messages and each client's queue of unsent messages are bounded; a client that
//   does not read its messages is disconnected.
//
// One I/O thread runs everything here; Client::send() may be called from any thread.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "tools/gui/static_files.hpp"

namespace bge::gui {

// The longest message a page may send; a long record file fits.
inline constexpr std::size_t max_message_bytes = 8 * 1024 * 1024;

// One WebSocket connection, as the rest of the GUI sees it.
class Client {
public:
    virtual ~Client() = default;
    // Queues a text message; thread-safe. Dropped once the connection is gone.
    virtual void send(std::string message) = 0;
    virtual std::uint64_t id() const = 0;
};

struct ServerOptions {
    std::string host = "127.0.0.1";
    int port = 8080;  // 0: any free port (the one chosen is printed)
    std::vector<std::string> allowed_origins;  // besides http://<host>:<port>, localhost and 127.0.0.1
};

struct ServerHandlers {
    std::function<void(const std::shared_ptr<Client>&)> opened;
    std::function<void(const std::shared_ptr<Client>&, std::string_view message)> message;
    std::function<void(const std::shared_ptr<Client>&)> closed;
};

class WebServer {
public:
    WebServer(ServerOptions options, StaticFiles files, ServerHandlers handlers);
    ~WebServer();
    WebServer(const WebServer&) = delete;
    WebServer& operator=(const WebServer&) = delete;

    // Binds and listens; the error names the address.
    Status listen();
    int port() const;  // the port listened on (after listen())
    // The page's address, http://HOST:PORT/ (an IPv6 host in brackets), after listen().
    std::string address() const;
    // Serves until stop() (from any thread) or SIGINT/SIGTERM when `handle_signals`.
    void run(bool handle_signals);
    void stop();

    struct Impl;  // public only so the sessions in web_server.cpp can name it

private:
    std::unique_ptr<Impl> impl_;
};

// Whether a WebSocket from `origin` may connect to a server listening on host:port. An absent
// Origin (not a browser) is allowed; a browser always sends one.
bool origin_allowed(std::string_view origin, const ServerOptions& options, int port);
// Whether the Host header names this server (not another name pointed at 127.0.0.1).
bool host_allowed(std::string_view host, const ServerOptions& options, int port);

}  // namespace bge::gui
