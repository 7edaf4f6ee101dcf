#pragma once
// `gui watch --feed FILE|-`: the watch page of a match another process runs, read from the
// arbiter's live feed (tools/arbiter/live_feed.hpp, docs/arbiter.md "Live feed"). A file is
// followed as the arbiter appends to it; `-` is standard input, which is how `arbiter -live PORT`
// hands its feed over.

#include <cstddef>
#include <optional>
#include <string>

#include "core/expected.hpp"
#include "tools/arbiter/results_file.hpp"
#include "tools/gui/web_server.hpp"

namespace bge::gui {

struct FeedWatchOptions {
    ServerOptions server;
    std::string static_folder;
    std::string feed;  // a file, or "-" for standard input
};

// Reads the feed's first line (waiting for the file to appear), serves the page, then plays the
// rest into it. From a file, the page stays up after the match until Ctrl-C; from standard input,
// the gui ends when its input ends (the arbiter is done). Returns 0, or 1 when the feed is not an
// arbiter's live feed or the server cannot listen.
int run_feed_watch(const FeedWatchOptions& options);

// The feed's first line: the match, as its results file would describe it so far. `where`
// names the feed in errors.
Expected<arbiter::ResultsFile> read_feed_header(const std::string& line, const std::string& where);

// The feed's lines, one at a time, from a file being written or a pipe. Lines longer than
// max_line_bytes are skipped (and counted), so a broken writer cannot exhaust memory.
class FeedLines {
public:
    static constexpr std::size_t default_max_line_bytes = std::size_t{64} << 20;

    // "-" is standard input; a file that does not exist yet is waited for.
    explicit FeedLines(std::string path, std::size_t max_line_bytes = default_max_line_bytes)
        : path_(std::move(path)), max_line_bytes_(max_line_bytes) {}
    ~FeedLines();
    FeedLines(const FeedLines&) = delete;
    FeedLines& operator=(const FeedLines&) = delete;

    enum class Status { line, waiting, ended };
    // A line when one is there; `waiting` after up to `wait_ms` without one; `ended` once the
    // pipe closed, or the file was cut shorter (a new run of the arbiter) or cannot be read.
    Status next(std::string& line, int wait_ms);
    std::size_t skipped_lines() const { return skipped_; }
    const std::string& error() const { return error_; }

private:
    bool open();

    std::string path_;
    std::size_t max_line_bytes_;
    int fd_ = -1;
    bool pipe_ = false;
    std::string buffer_;
    std::size_t offset_ = 0;  // bytes read from a file so far
    bool skipping_ = false;   // inside a line that is too long
    std::size_t skipped_ = 0;
    std::string error_;
};

}  // namespace bge::gui
