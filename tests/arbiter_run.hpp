#pragma once
// Runs the real arbiter binary for integration tests: its stdout lines, stderr and exit status,
// with a scratch directory for the files it writes.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine_under_test.hpp"
#include "protocol/engine_process.hpp"
#include "tools/arbiter/json.hpp"

namespace bge::testing {

namespace fs = std::filesystem;

inline const std::string arbiter_binary = BGE_ARBITER_BINARY;

struct ArbiterRun {
    int status = -1;
    std::vector<std::string> lines;  // stdout
    std::string errors;              // stderr
    std::chrono::milliseconds took{0};

    bool has_line(const std::string& line) const {
        for (const auto& l : lines)
            if (l == line) return true;
        return false;
    }
    int count_prefix(const std::string& prefix) const {
        int count = 0;
        for (const auto& l : lines) count += l.rfind(prefix, 0) == 0;
        return count;
    }
};

// A scratch directory per test process, removed at exit.
class ScratchDirectory {
public:
    ScratchDirectory() : path_(fs::temp_directory_path() / ("bge_arbiter_test_" + std::to_string(::getpid()))) {
        fs::create_directories(path_);
    }
    ~ScratchDirectory() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

inline const ScratchDirectory& scratch() {
    static const ScratchDirectory directory;
    return directory;
}

inline std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// Runs any of the project's programs to its end, collecting its output; in `working_directory`
// when one is given. A run that is not over after three minutes fails the test: no test needs
// that long, but the sanitizer build on a slow CI machine runs a 12-game match for most of one.
inline ArbiterRun run_program(const std::string& binary, const std::vector<std::string>& arguments,
                              const std::string& working_directory = "") {
    static int runs = 0;  // one test thread
    const std::string errors_file = scratch().file("stderr_" + std::to_string(++runs));
    protocol::EngineProcess process;
    protocol::ProcessOptions options;
    options.command = binary;
    options.arguments = arguments;
    options.working_directory = working_directory;
    options.stderr_path = errors_file;
    use_engine_under_test(options);
    const auto start = std::chrono::steady_clock::now();
    REQUIRE(process.start(options));
    ArbiterRun run;
    const auto deadline = start + std::chrono::minutes(3);
    for (;;) {
        auto read = process.read_line_until(deadline);
        REQUIRE(read.status != protocol::ReadStatus::timeout);
        if (read.status == protocol::ReadStatus::closed) break;
        run.lines.push_back(read.line);
    }
    REQUIRE(process.wait_for_exit(std::chrono::seconds(10)));
    run.status = process.exit_status().value_or(-1);
    run.took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    run.errors = read_file(errors_file);
    return run;
}

inline ArbiterRun run_arbiter(const std::vector<std::string>& arguments, const std::string& working_directory = "") {
    return run_program(arbiter_binary, arguments, working_directory);
}

inline std::string transcript(const ArbiterRun& run) {
    std::string text;
    for (const auto& line : run.lines) text += line + "\n";
    return text + "stderr:\n" + run.errors;
}

// A results file (or any JSON file the arbiter wrote), which must parse.
inline arbiter::Json read_json(const std::string& path) {
    auto value = arbiter::json::parse(read_file(path));
    INFO(path);
    REQUIRE(value);
    return *value;
}

// The games of a results file without the Date tag of their records, which legitimately differs
// between runs (a resumed game is played today).
inline std::vector<std::string> game_list(const arbiter::Json& results) {
    std::vector<std::string> games;
    for (arbiter::Json game : results.at("games")) {
        std::string record = game.at("record").get<std::string>();
        const auto date = record.find("[Date ");
        if (date != std::string::npos) record.erase(date, record.find('\n', date) - date + 1);
        game["record"] = record;
        games.push_back(arbiter::json::dump(game));
    }
    return games;
}

}  // namespace bge::testing
