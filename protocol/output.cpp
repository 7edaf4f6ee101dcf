#include "protocol/output.hpp"

#include <string>

namespace bge::protocol {

void Output::line(std::string_view text) {
    std::string buffer;
    buffer.reserve(text.size() + 1);
    buffer.append(text);
    buffer.push_back('\n');
    const std::lock_guard lock(mutex_);
    std::fwrite(buffer.data(), 1, buffer.size(), out_);
    std::fflush(out_);
}

void Output::error(std::string_view what) {
    std::string text = "info string error: ";
    // One line per error, whatever the message holds.
    for (char c : what) text.push_back(c == '\n' || c == '\r' ? ' ' : c);
    line(text);
}

void Output::log(std::string_view text) {
    std::string buffer(text);
    buffer.push_back('\n');
    std::fwrite(buffer.data(), 1, buffer.size(), stderr);
    std::fflush(stderr);
}

}  // namespace bge::protocol
