#include "tools/arbiter/live_feed.hpp"

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace bge::arbiter {

namespace {

// A viewer that does not take a line within this is not reading: it is dropped rather than
// allowed to slow the match.
constexpr std::chrono::milliseconds viewer_write_timeout{1000};
constexpr std::chrono::seconds viewer_start_timeout{10};

}  // namespace

Status FeedOutput::open_file(const std::string& path) {
    std::lock_guard lock(mutex_);
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) return make_error(fmt::format("-feed {}: cannot write the file: {}", path, std::strerror(errno)));
    file_ = file;
    file_path_ = path;
    return success();
}

void FeedOutput::start_viewer(const std::string& gui_path, int port) {
    std::lock_guard lock(mutex_);
    viewer_command_.command = gui_path;
    viewer_command_.arguments = {"--port", std::to_string(port), "watch", "--feed", "-"};
}

// Started with the match's first line, so a match that never begins (a bad opening file) starts no GUI.
bool FeedOutput::launch_viewer() {
    auto viewer = std::make_unique<protocol::EngineProcess>();
    viewer->set_write_timeout(viewer_write_timeout);
    if (!viewer->start(viewer_command_)) {
        std::fputs(fmt::format("arbiter: error: -live: {}\n", viewer->error()).c_str(), stderr);
        viewer_failed_ = true;
        return false;
    }
    viewer_ = std::move(viewer);
    return true;
}

void FeedOutput::write(const Json& event) {
    const std::string line = json::dump(event);
    std::lock_guard lock(mutex_);
    if (file_) {
        // Flushed at once: a reader following the file sees every event as it happens.
        if (std::fputs(line.c_str(), file_) < 0 || std::fputc('\n', file_) == EOF || std::fflush(file_) != 0) {
            std::fputs(fmt::format("arbiter: warning: -feed {}: {}; the feed stops here\n", file_path_,
                                   std::strerror(errno))
                           .c_str(),
                       stderr);
            std::fclose(file_);
            file_ = nullptr;
        }
    }
    if (!viewer_command_.command.empty() && !viewer_ && !viewer_announced_ && !viewer_failed_)
        if (!launch_viewer()) return;
    if (viewer_) {
        if (!viewer_->write_line(line)) {
            drop_viewer("it stopped reading the match");
            return;
        }
        if (!viewer_announced_) announce_viewer();
    }
}

// The GUI reads the match's first line, then serves the page and says where on its stdout.
void FeedOutput::announce_viewer() {
    viewer_announced_ = true;
    const auto deadline = std::chrono::steady_clock::now() + viewer_start_timeout;
    for (;;) {
        const protocol::ReadResult read = viewer_->read_line_until(deadline);
        if (read.status != protocol::ReadStatus::line) {
            viewer_failed_ = true;
            drop_viewer(read.status == protocol::ReadStatus::closed ? "it could not serve the page"
                                                                    : "it did not serve the page within 10 s");
            return;
        }
        if (const auto at = read.line.find("serving http://"); at != std::string::npos) {
            const std::string address = read.line.substr(at + 8, read.line.find(' ', at + 8) - (at + 8));
            std::fputs(fmt::format("arbiter: serving {} (gui watch, pid {})\n", address, viewer_->pid()).c_str(),
                       stderr);
            std::fflush(stderr);
            return;
        }
    }
}

void FeedOutput::drop_viewer(const std::string& why) {
    std::fputs((viewer_failed_ ? fmt::format("arbiter: error: -live: the gui (pid {}): {}; the match stops\n",
                                             viewer_->pid(), why)
                               : fmt::format("arbiter: warning: -live: the gui (pid {}): {}; the match goes on "
                                             "without its page\n",
                                             viewer_->pid(), why))
                   .c_str(),
               stderr);
    viewer_->kill();
    viewer_.reset();
}

void FeedOutput::close() {
    std::lock_guard lock(mutex_);
    if (file_) std::fclose(file_);
    file_ = nullptr;
    if (viewer_) {
        // End of input tells the GUI the arbiter is done; it stops serving and exits.
        viewer_->close_input();
        if (!viewer_->wait_for_exit(std::chrono::seconds(5))) viewer_->kill();
        viewer_.reset();
    }
}

Json feed_match_event(const MatchDescription& match, const Results& results) {
    Json event;
    event["event"] = "match";
    event["feed"] = live_feed_format;
    event["version"] = live_feed_version;
    event["results"] = results_json(match, results);
    return event;
}

Json feed_game_event(const ScheduledGame& game) {
    Json event;
    event["event"] = "game";
    write_scheduled_game(game, event);
    return event;
}

Json feed_game_over_event(const FinishedGame& finished, const MatchDescription& match) {
    Json event;
    event["event"] = "game_over";
    event["game"] = finished.to_json();
    event["engine_ids"] = match.engine_ids;
    return event;
}

Expected<ScheduledGame> scheduled_game_from_feed(const Json& event) { return read_scheduled_game(event, "a game event"); }

}  // namespace bge::arbiter
