#include "tools/gui/feed_watch.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "tools/arbiter/live_feed.hpp"
#include "tools/arbiter/match.hpp"
#include "tools/gui/game_factory.hpp"
#include "tools/gui/hub.hpp"

namespace bge::gui {

FeedLines::~FeedLines() {
    if (fd_ >= 0 && !pipe_) ::close(fd_);
}

bool FeedLines::open() {
    if (path_ == "-") {
        fd_ = STDIN_FILENO;
        pipe_ = true;
        return true;
    }
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0 && errno != ENOENT) error_ = fmt::format("cannot read {}: {}", path_, std::strerror(errno));
    return fd_ >= 0;
}

FeedLines::Status FeedLines::next(std::string& line, int wait_ms) {
    for (;;) {
        // A whole line already read?
        if (const auto end = buffer_.find('\n'); end != std::string::npos) {
            const bool skip = skipping_ || end > max_line_bytes_;
            if (skip && !skipping_) ++skipped_;
            skipping_ = false;
            if (!skip) line.assign(buffer_, 0, end);
            buffer_.erase(0, end + 1);
            if (!skip) return Status::line;
            continue;
        }
        if (buffer_.size() > max_line_bytes_) {  // the rest of this line is dropped as it comes
            if (!skipping_) ++skipped_;
            skipping_ = true;
            buffer_.clear();
        }
        if (!error_.empty()) return Status::ended;
        if (fd_ < 0 && !open()) {
            if (!error_.empty()) return Status::ended;
            ::usleep(static_cast<useconds_t>(wait_ms) * 1000);  // the arbiter has not created it yet
            return Status::waiting;
        }
        if (!pipe_) {
            struct stat info {};
            if (::fstat(fd_, &info) == 0 && static_cast<std::size_t>(info.st_size) < offset_) {
                error_ = fmt::format("{} was started again (it is shorter than what was read)", path_);
                return Status::ended;
            }
        }
        pollfd poll_fd{fd_, POLLIN, 0};
        if (pipe_ && ::poll(&poll_fd, 1, wait_ms) == 0) return Status::waiting;
        char chunk[65536];
        const ssize_t got = ::read(fd_, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR) return Status::waiting;
        if (got < 0) {
            error_ = fmt::format("cannot read {}: {}", path_, std::strerror(errno));
            return Status::ended;
        }
        if (got == 0) {
            if (pipe_) return Status::ended;
            ::usleep(static_cast<useconds_t>(wait_ms) * 1000);  // the end of the file so far
            return Status::waiting;
        }
        offset_ += static_cast<std::size_t>(got);
        buffer_.append(chunk, static_cast<std::size_t>(got));
    }
}

namespace {

constexpr int poll_ms = 100;
constexpr int max_warnings = 20;  // a broken feed does not flood the terminal

void say(const std::string& text) { std::fputs(("gui: " + text + "\n").c_str(), stderr); }

}  // namespace

Expected<arbiter::ResultsFile> read_feed_header(const std::string& line, const std::string& where) {
    auto event = arbiter::json::parse(line);
    if (!event) return make_error(fmt::format("{}: {}", where, event.error()));
    if (arbiter::json::text(*event, "feed") != arbiter::live_feed_format || arbiter::json::text(*event, "event") != "match")
        return make_error(fmt::format("{} is not an arbiter's live feed (-feed FILE): its first line is no match", where));
    if (arbiter::json::integer(*event, "version") != arbiter::live_feed_version)
        return make_error(fmt::format("{}: feed version {} (this gui reads version {})", where,
                                      arbiter::json::integer(*event, "version").value_or(0), arbiter::live_feed_version));
    return arbiter::results_from_json(arbiter::json::member(*event, "results"), where);
}

int run_feed_watch(const FeedWatchOptions& options) {
    const std::string where = options.feed == "-" ? "the feed on standard input" : options.feed;
    arbiter::install_interrupt_handler();  // Ctrl-C ends the gui, whenever it comes
    FeedLines lines(options.feed);
    std::string line;
    bool said_waiting = false;
    for (;;) {
        if (arbiter::interrupt_requested.load()) return 0;
        const auto status = lines.next(line, poll_ms);
        if (status == FeedLines::Status::line) break;
        if (status == FeedLines::Status::ended) {
            say(fmt::format("error: {}", lines.error().empty() ? where + " ended before its match began" : lines.error()));
            return 1;
        }
        if (!said_waiting && options.feed != "-") say(fmt::format("waiting for the match in {}", where));
        said_waiting = true;
    }
    auto header = read_feed_header(line, where);
    if (!header) {
        say(fmt::format("error: {}", header.error()));
        return 1;
    }
    auto match = arbiter::parse_command_line(header->match.arguments);
    const GameFactory* factory = factory_for(header->match.game);
    if (!match || !factory) {
        say(fmt::format("error: {}: its match cannot be shown: {}", where,
                        match ? fmt::format("unknown game '{}'", header->match.game) : match.error()));
        return 1;
    }

    Hub hub({});
    WebServer server(options.server, StaticFiles(options.static_folder),
                     hub.handlers());
    if (auto status = server.listen(); !status) {
        say(fmt::format("error: {}", status.error()));
        return 1;
    }
    auto watch = hub.add_shared_session([&](std::int64_t id) { return factory->new_watch(id, match->config); },
                                        header->match.game);
    auto replay = factory->new_feed_replay(*watch, match->config, *header);
    if (!replay) {
        say(fmt::format("error: {}: {}", where, replay.error()));
        return 1;
    }
    std::fputs(fmt::format("gui: serving {}\n", server.address()).c_str(), stdout);
    std::fflush(stdout);

    std::jthread reader([&] {
        FeedReplay& events = **replay;
        events.start();
        int warnings = 0;
        std::size_t number = 1;
        while (!arbiter::interrupt_requested.load() && !events.over()) {
            const auto status = lines.next(line, poll_ms);
            if (status == FeedLines::Status::ended) {
                if (!lines.error().empty()) say(fmt::format("error: {}", lines.error()));
                break;
            }
            if (status != FeedLines::Status::line) continue;
            ++number;
            auto event = arbiter::json::parse(line);
            Status applied = event ? events.apply(*event) : Status(make_error(event.error()));
            if (!applied && warnings++ < max_warnings)
                say(fmt::format("warning: {} line {}: {}", where, number, applied.error()));
        }
        if (lines.skipped_lines() > 0)
            say(fmt::format("warning: {}: {} lines longer than {} bytes were skipped", where, lines.skipped_lines(),
                            FeedLines::default_max_line_bytes));
        // Standard input is the arbiter's own pipe (-live): the page goes when the arbiter goes.
        if (options.feed != "-" && !arbiter::interrupt_requested.load()) {
            say(fmt::format("{}; the page still shows it. Ctrl-C ends the gui.",
                            events.over() ? "the match ended" : "the feed stopped"));
            while (!arbiter::interrupt_requested.load()) std::this_thread::sleep_for(std::chrono::milliseconds(poll_ms));
        }
        server.stop();
    });
    server.run(false);
    reader.join();
    hub.close_all();
    return 0;
}

}  // namespace bge::gui
