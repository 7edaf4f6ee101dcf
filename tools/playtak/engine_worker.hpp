#pragma once
// Runs the engine session on a thread of its own, so the network side never blocks on the
// engine. Requests are queued; each result is posted back to the io_context. A move request
// carries the whole game (rules and moves so far), so an engine that crashed or hung is simply
// restarted, set up for the game, and asked again: the caller never has to replay anything.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "core/expected.hpp"
#include "tools/playtak/engine_session.hpp"
#include "tools/playtak/logger.hpp"

namespace bge::playtak {

struct MoveRequest {
    std::uint64_t id = 0;   // increasing; cancel(id) cancels this one and every earlier one
    std::int64_t game = 0;  // the server's game number: a new one means teinewgame
    int size = 6;
    int half_komi = 0;
    std::vector<std::string> moves;  // PTN, from the start of the game
    std::string go;                  // the full go command
    std::chrono::milliseconds budget{10'000};
    bool fresh_engine = false;  // restart the engine first (after it played an illegal move)
};

struct MoveReply {
    std::uint64_t id = 0;
    enum class Kind { move, cancelled, failed } kind = Kind::failed;
    std::string move;   // PTN, unchecked
    std::string error;  // why it failed
};

class EngineWorker {
public:
    static constexpr int attempts_per_request = 3;

    EngineWorker(boost::asio::io_context& io, EngineConfig config, Logger& log);
    ~EngineWorker();  // cancels everything, quits the engine and joins the thread
    EngineWorker(const EngineWorker&) = delete;
    EngineWorker& operator=(const EngineWorker&) = delete;

    // Starts the engine; `done` gets its capabilities or why it could not start.
    void start(std::function<void(Expected<EngineCapabilities>)> done);
    void request_move(MoveRequest request, std::function<void(MoveReply)> done);
    // Cancels request `id` and every earlier one: a running search is stopped, its move dropped,
    // and `done` gets a cancelled reply.
    void cancel(std::uint64_t id);

private:
    using Job = std::function<void()>;
    void run();
    void post(Job job);
    MoveReply think(const MoveRequest& request);
    bool is_cancelled(std::uint64_t id) const { return id <= cancelled_through_.load(); }

    boost::asio::io_context& io_;
    Logger& log_;
    EngineSession session_;  // used only on the worker thread
    std::int64_t set_up_for_game_ = -1;

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> jobs_;
    bool stopping_ = false;
    std::atomic<std::uint64_t> cancelled_through_{0};
    std::thread thread_;
};

// "position startpos [moves ...]"
std::string position_command(const std::vector<std::string>& moves);

}  // namespace bge::playtak
