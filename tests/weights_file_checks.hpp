#pragma once
// What the tests of a shipped weights file (engines/<game>/nets/) share: the comment a trainer
// wrote into it, a copy written to the scratch directory, and a bench run of the real engine with
// options set first, to show which weights it played with.

#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter_run.hpp"

namespace bge::testing {

// The '#' lines right after the header line, without their "# ": the comment the trainer was
// given, followed by any lines its writer adds itself.
inline std::vector<std::string> leading_comment_lines(std::string_view text) {
    std::vector<std::string> comment;
    std::size_t start = text.find('\n');
    while (start != std::string_view::npos && text.substr(start + 1, 2) == "# ") {
        const std::size_t end = text.find('\n', start + 1);
        comment.emplace_back(text.substr(start + 3, end == std::string_view::npos ? end : end - start - 3));
        start = end;
    }
    return comment;
}

inline std::string joined_lines(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& line : lines) text += (text.empty() ? "" : "\n") + line;
    return text;
}

// `text` written to a scratch file called `name`; its path.
inline std::string scratch_copy(const std::string& name, std::string_view text) {
    const std::string path = scratch().file(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// `text` with the first `from` replaced by `to` (which must be there).
inline std::string with_replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

struct BenchRun {
    std::string signature;  // the `Signature : <hex>` line
    std::string errors;     // stderr
};

// `binary` given `commands` and then `bench`, as a script of arguments.
inline BenchRun bench_with(const std::string& binary, std::vector<std::string> commands, const std::string& bench) {
    commands.push_back(bench);
    const ArbiterRun run = run_program(binary, commands);
    INFO(transcript(run));
    REQUIRE(run.status == 0);
    BenchRun result{"", run.errors};
    for (const auto& line : run.lines)
        if (line.rfind("Signature", 0) == 0) result.signature = line;
    REQUIRE_FALSE(result.signature.empty());
    return result;
}

}  // namespace bge::testing
