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

// What an option that loads a weights file must do, shown by bench runs of the real engine:
// a copy of the shipped file plays exactly as the built-in weights and draws no complaint; other
// weights play otherwise (so the signature tells weights apart); a broken file is refused with
// `refusal` on stderr, and the built-in weights play on. `setup` comes before the option (a
// player to choose), `complaint` is how the engine's warnings about the option begin.
struct WeightsOption {
    std::string binary;
    std::string option;     // "EvalFile"
    std::string complaint;  // "tak: EvalFile"
    std::vector<std::string> setup;
    std::string bench;  // "bench 3"
};

inline void check_weights_option(const WeightsOption& checked, const std::string& copy, const std::string& other,
                                 const std::string& broken, const std::string& refusal) {
    const auto with_file = [&](const std::string& path) {
        std::vector<std::string> commands = checked.setup;
        if (!path.empty()) commands.push_back("setoption name " + checked.option + " value " + path);
        return bench_with(checked.binary, commands, checked.bench);
    };
    const BenchRun builtin = with_file("");
    const BenchRun from_copy = with_file(copy);
    CHECK(from_copy.signature == builtin.signature);
    CHECK_THAT(from_copy.errors, !Catch::Contains(checked.complaint));  // no complaint
    CHECK(with_file(other).signature != builtin.signature);
    const BenchRun from_broken = with_file(broken);
    CHECK(from_broken.signature == builtin.signature);
    CHECK_THAT(from_broken.errors, Catch::Contains(refusal));
}

}  // namespace bge::testing
