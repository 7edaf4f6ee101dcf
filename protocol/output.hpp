#pragma once
// Protocol output: whole lines, written atomically and flushed at once, from any thread.
// Only protocol goes to stdout; diagnostics go to stderr through log().

#include <cstdio>
#include <mutex>
#include <string_view>

namespace bge::protocol {

class Output {
public:
    explicit Output(std::FILE* out = stdout) : out_(out) {}
    void line(std::string_view text);
    void error(std::string_view what);       // "info string error: <what>"
    static void log(std::string_view text);  // to stderr

private:
    std::FILE* out_;
    std::mutex mutex_;
};

}  // namespace bge::protocol
