#include "tools/playtak/engine_worker.hpp"

#include <fmt/format.h>
#include <boost/asio/post.hpp>

namespace bge::playtak {

std::string position_command(const std::vector<std::string>& moves) {
    if (moves.empty()) return "position startpos";
    return fmt::format("position startpos moves {}", fmt::join(moves, " "));
}

EngineWorker::EngineWorker(boost::asio::io_context& io, EngineConfig config, Logger& log)
    : io_(io), log_(log), session_(std::move(config), log) {
    thread_ = std::thread([this] { run(); });
}

EngineWorker::~EngineWorker() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        cancelled_through_ = UINT64_MAX;
    }
    wake_.notify_all();
    thread_.join();
}

void EngineWorker::post(Job job) {
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
    }
    wake_.notify_all();
}

void EngineWorker::run() {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (stopping_) break;
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        job();
    }
    session_.quit();
}

void EngineWorker::start(std::function<void(Expected<EngineCapabilities>)> done) {
    post([this, done = std::move(done)] {
        Status started = session_.start();
        Expected<EngineCapabilities> result = started ? Expected<EngineCapabilities>(session_.capabilities())
                                                      : Expected<EngineCapabilities>(make_error(started.error()));
        boost::asio::post(io_, [done, result = std::move(result)] { done(result); });
    });
}

void EngineWorker::request_move(MoveRequest request, std::function<void(MoveReply)> done) {
    post([this, request = std::move(request), done = std::move(done)] {
        MoveReply reply = think(request);
        boost::asio::post(io_, [done, reply = std::move(reply)] { done(reply); });
    });
}

void EngineWorker::cancel(std::uint64_t id) {
    std::uint64_t current = cancelled_through_.load();
    while (current < id && !cancelled_through_.compare_exchange_weak(current, id)) {
    }
}

MoveReply EngineWorker::think(const MoveRequest& request) {
    MoveReply reply;
    reply.id = request.id;
    if (request.fresh_engine) {
        log_.info("engine: restarting it before asking again");
        session_.kill();
    }
    std::string last_error;
    for (int attempt = 0; attempt < attempts_per_request; ++attempt) {
        if (is_cancelled(request.id)) {
            reply.kind = MoveReply::Kind::cancelled;
            return reply;
        }
        if (!session_.alive()) {
            if (attempt > 0 || set_up_for_game_ != -1)
                log_.info(fmt::format("engine: not running ({}); restarting it", session_.exit_description()));
            set_up_for_game_ = -1;
            if (Status started = session_.start(); !started) {
                last_error = started.error();
                log_.info(fmt::format("engine: cannot start: {}", last_error));
                std::this_thread::sleep_for(std::chrono::milliseconds(200 << attempt));
                continue;
            }
        }
        if (set_up_for_game_ != request.game) {
            if (Status ready = session_.new_game(request.size, request.half_komi); !ready) {
                last_error = ready.error();
                log_.info(fmt::format("engine: new game failed: {}; restarting it", last_error));
                session_.kill();
                continue;
            }
            set_up_for_game_ = request.game;
        }
        log_.info(fmt::format("engine: thinking on ply {}: {}", request.moves.size() + 1, request.go));
        const SearchOutcome outcome = session_.search(position_command(request.moves), request.go, request.budget,
                                                      [this, id = request.id] { return is_cancelled(id); });
        switch (outcome.kind) {
            case SearchOutcome::Kind::move:
                reply.kind = MoveReply::Kind::move;
                reply.move = outcome.move;
                return reply;
            case SearchOutcome::Kind::cancelled:
                reply.kind = MoveReply::Kind::cancelled;
                return reply;
            case SearchOutcome::Kind::failed:
                last_error = outcome.error;
                log_.info(fmt::format("engine: {}; restarting it and asking again", last_error));
                session_.kill();
                break;
        }
    }
    reply.kind = MoveReply::Kind::failed;
    reply.error = last_error;
    return reply;
}

}  // namespace bge::playtak
