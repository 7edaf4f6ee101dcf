#pragma once
// The state journal behind -state and -resume: one JSON line with the command line, then one
// line per finished game, each forced to disk before the game counts. A run killed at any moment
// (SIGKILL included) resumes from it exactly: a game is in the journal whole or not at all, and a
// torn last line is dropped (that game is played again).

#include <cstdint>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "tools/arbiter/results.hpp"

namespace bge::arbiter {

struct JournalHeader {
    std::vector<std::string> arguments;  // the match's command line, without -resume
    std::int64_t record_file_offset = 0;  // size of the -pgnout file before this match wrote to it
};

struct JournalContents {
    JournalHeader header;
    std::vector<FinishedGame> games;  // in the order they finished
};

class Journal {
public:
    Journal() = default;
    Journal(Journal&& other) noexcept;
    Journal& operator=(Journal&& other) noexcept;
    Journal(const Journal&) = delete;
    Journal& operator=(const Journal&) = delete;
    ~Journal();

    // Starts a new journal; refuses to overwrite one that has games in it.
    static Expected<Journal> create(const std::string& path, const JournalHeader& header);
    // Reads a journal, dropping a torn last line.
    static Expected<JournalContents> load(const std::string& path);
    // Continues a loaded journal: cuts a torn last line off, then appends.
    static Expected<Journal> reopen(const std::string& path);

    // Appends one game and waits until it is on disk.
    Status append(const FinishedGame& game);
    bool is_open() const { return fd_ >= 0; }

private:
    explicit Journal(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
    int fd_ = -1;
    std::string path_;
};

}  // namespace bge::arbiter
