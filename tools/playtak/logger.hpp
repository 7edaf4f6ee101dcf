#pragma once
// Timestamped log lines to stderr and, optionally, a file. Thread-safe (the engine worker logs
// too). Bytes outside printable ASCII are written as \xNN, so a log stays plain text whatever
// the server sends. Secrets registered with add_secret() are replaced by "********" in every line, as a last
// line of defence: the callers already never log the password.

#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace bge::playtak {

class Logger {
public:
    explicit Logger(bool verbose = false) : verbose_(verbose) {}
    ~Logger();
    Logger(const Logger&) = delete;
    Logger& operator=(const Logger&) = delete;

    // Appends to `path`. Returns false with a message when it cannot be opened.
    bool open_file(const std::string& path, std::string& error);
    void add_secret(std::string secret);

    void info(std::string_view message);   // always written
    void debug(std::string_view message);  // written with --verbose only
    bool verbose() const { return verbose_; }

private:
    void write(std::string_view message);

    bool verbose_;
    std::mutex mutex_;
    std::FILE* file_ = nullptr;
    std::vector<std::string> secrets_;
};

}  // namespace bge::playtak
