#include "tools/arbiter/journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace bge::arbiter {

namespace {

constexpr const char* journal_format = "bge-arbiter-state";

Status write_all(int fd, const std::string& text, const std::string& path) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return make_error(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) return make_error(fmt::format("cannot flush {} to disk: {}", path, std::strerror(errno)));
    return success();
}

Expected<std::string> read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return make_error(fmt::format("cannot read {}", path));
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// Length of the journal's good part: every complete line that parses.
struct Scan {
    JournalContents contents;
    std::size_t good_length = 0;
};

Expected<Scan> scan(const std::string& path) {
    auto text = read_file(path);
    if (!text) return make_error(text.error());
    Scan result;
    std::size_t start = 0;
    int line_number = 0;
    while (start < text->size()) {
        const std::size_t end = text->find('\n', start);
        if (end == std::string::npos) break;  // torn last line: the game it held is played again
        ++line_number;
        auto value = json::parse(std::string_view(*text).substr(start, end - start));
        if (!value) {
            if (text->find('\n', end + 1) == std::string::npos && end + 1 >= text->size()) break;
            return make_error(fmt::format("{} line {}: {}", path, line_number, value.error()));
        }
        if (line_number == 1) {
            if (json::text(*value, "format") != journal_format)
                return make_error(fmt::format("{} is not an arbiter state file", path));
            for (const Json& argument : json::items(*value, "arguments")) {
                if (!argument.is_string())
                    return make_error(fmt::format("{} line 1: the command line holds a non-text argument", path));
                result.contents.header.arguments.push_back(argument.get<std::string>());
            }
            result.contents.header.record_file_offset = json::integer(*value, "record_file_offset").value_or(0);
        } else {
            const Json* entry = json::find(*value, "game");
            auto game = FinishedGame::from_json(entry ? *entry : Json());
            if (!game) return make_error(fmt::format("{} line {}: {}", path, line_number, game.error()));
            result.contents.games.push_back(std::move(*game));
        }
        result.good_length = end + 1;
        start = end + 1;
    }
    if (line_number == 0) return make_error(fmt::format("{} has no header line", path));
    return result;
}

}  // namespace

Journal::Journal(Journal&& other) noexcept : fd_(other.fd_), path_(std::move(other.path_)) { other.fd_ = -1; }

Journal& Journal::operator=(Journal&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = other.fd_;
        path_ = std::move(other.path_);
        other.fd_ = -1;
    }
    return *this;
}

Journal::~Journal() {
    if (fd_ >= 0) ::close(fd_);
}

Expected<Journal> Journal::create(const std::string& path, const JournalHeader& header) {
    if (auto existing = scan(path); existing && !existing->contents.games.empty())
        return make_error(fmt::format("{} already holds {} games; continue it with -resume {}, or remove it", path,
                                      existing->contents.games.size(), path));
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return make_error(fmt::format("cannot create {}: {}", path, std::strerror(errno)));
    Journal journal(fd, path);
    Json line;
    line["format"] = journal_format;
    line["version"] = 1;
    line["arguments"] = header.arguments;
    line["record_file_offset"] = header.record_file_offset;
    if (auto status = write_all(fd, json::dump(line) + "\n", path); !status) return make_error(status.error());
    return journal;
}

Expected<JournalContents> Journal::load(const std::string& path) {
    auto scanned = scan(path);
    if (!scanned) return make_error(scanned.error());
    return std::move(scanned->contents);
}

Expected<Journal> Journal::reopen(const std::string& path) {
    auto scanned = scan(path);
    if (!scanned) return make_error(scanned.error());
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return make_error(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
    Journal journal(fd, path);
    if (::ftruncate(fd, static_cast<off_t>(scanned->good_length)) != 0 ||
        ::lseek(fd, 0, SEEK_END) < 0)
        return make_error(fmt::format("cannot repair {}: {}", path, std::strerror(errno)));
    return journal;
}

Status Journal::append(const FinishedGame& game) {
    if (fd_ < 0) return success();
    Json line;
    line["game"] = game.to_json();
    return write_all(fd_, json::dump(line) + "\n", path_);
}

}  // namespace bge::arbiter
