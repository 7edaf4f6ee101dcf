#include "tools/playtak/logger.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

#include <fmt/format.h>

namespace bge::playtak {

Logger::~Logger() {
    if (file_) std::fclose(file_);
}

bool Logger::open_file(const std::string& path, std::string& error) {
    std::FILE* file = std::fopen(path.c_str(), "a");
    if (!file) {
        error = fmt::format("cannot open the log file {}: {}", path, std::strerror(errno));
        return false;
    }
    std::lock_guard lock(mutex_);
    if (file_) std::fclose(file_);
    file_ = file;
    return true;
}

void Logger::add_secret(std::string secret) {
    if (secret.empty()) return;
    std::lock_guard lock(mutex_);
    secrets_.push_back(std::move(secret));
}

void Logger::info(std::string_view message) { write(message); }

void Logger::debug(std::string_view message) {
    if (verbose_) write(message);
}

void Logger::write(std::string_view message) {
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm local{};
    localtime_r(&seconds, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &local);

    std::lock_guard lock(mutex_);
    std::string text(message);
    for (const std::string& secret : secrets_)
        for (std::size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 8))
            text.replace(at, secret.size(), "********");
    // Server lines may carry any bytes: keep the log plain text.
    std::string printable;
    printable.reserve(text.size());
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte >= 0x7f)
            printable += fmt::format("\\x{:02x}", byte);
        else
            printable += c;
    }
    const std::string line = fmt::format("{}.{:03} {}\n", stamp, millis, printable);
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    if (file_) {
        std::fputs(line.c_str(), file_);
        std::fflush(file_);
    }
}

}  // namespace bge::playtak
