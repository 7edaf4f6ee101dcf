#pragma once
// Drives a real engine binary through pipes for transcript tests: send lines, read lines, and
// wait for an expected one, with generous timeouts (machines are shared; nothing here is a
// timing test).

#include <catch2/catch.hpp>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "engine_under_test.hpp"
#include "protocol/engine_process.hpp"

namespace bge::testing {

class EngineSession {
public:
    static constexpr std::chrono::milliseconds patience{20'000};

    explicit EngineSession(const std::string& binary, std::vector<std::string> arguments = {}) {
        protocol::ProcessOptions options;
        options.command = binary;
        options.arguments = std::move(arguments);
        options.stderr_path = "/dev/null";  // engine diagnostics are not part of the transcript
        use_engine_under_test(options);
        REQUIRE(process_.start(options));
    }

    void send(const std::string& line) {
        INFO("sending: " << line.substr(0, 200));
        REQUIRE(process_.write_line(line));
    }

    // The next line, failing the test on timeout or end of output.
    std::string next() {
        const auto read = process_.read_line(patience);
        REQUIRE(read.status == protocol::ReadStatus::line);
        seen_.push_back(read.line);
        return read.line;
    }

    // Reads until a line satisfies `done`; returns every line read, that one last.
    std::vector<std::string> until(const std::function<bool(const std::string&)>& done) {
        std::vector<std::string> lines;
        while (true) {
            lines.push_back(next());
            if (done(lines.back())) return lines;
        }
    }
    std::vector<std::string> until_prefix(const std::string& prefix) {
        return until([&](const std::string& line) { return line.rfind(prefix, 0) == 0; });
    }

    // Sends isready and returns what came before readyok.
    std::vector<std::string> sync() {
        send("isready");
        auto lines = until([](const std::string& line) { return line == "readyok"; });
        lines.pop_back();
        return lines;
    }

    // Sends a command that should be refused and checks it got exactly one error line.
    void expect_error(const std::string& command, const std::string& mentions = "") {
        send(command);
        const auto lines = sync();
        INFO("command: " << command.substr(0, 200));
        REQUIRE(lines.size() == 1);
        CHECK(lines[0].rfind("info string error: ", 0) == 0);
        if (!mentions.empty()) CHECK_THAT(lines[0], Catch::Contains(mentions));
    }

    // Sends a `go` that has nothing to search (no position, a finished game, a roll due): one
    // error line, then `bestmove none`, for the client waits for a bestmove (docs/protocol.md).
    void expect_refused_go(const std::string& command, const std::string& mentions = "") {
        send(command);
        const auto lines = until([](const std::string& line) { return line.rfind("bestmove ", 0) == 0; });
        INFO("command: " << command.substr(0, 200));
        REQUIRE(lines.size() == 2);
        CHECK(lines[0].rfind("info string error: ", 0) == 0);
        if (!mentions.empty()) CHECK_THAT(lines[0], Catch::Contains(mentions));
        CHECK(lines[1] == "bestmove none");
        CHECK(sync().empty());
    }

    protocol::EngineProcess& process() { return process_; }

    // Closes stdin and expects a clean exit; returns the rest of the output.
    std::vector<std::string> finish() {
        process_.close_input();
        std::vector<std::string> rest;
        while (true) {
            const auto read = process_.read_line(patience);
            if (read.status != protocol::ReadStatus::line) {
                REQUIRE(read.status == protocol::ReadStatus::closed);
                break;
            }
            rest.push_back(read.line);
        }
        REQUIRE(process_.wait_for_exit(patience));
        CHECK(process_.exit_status() == std::optional<int>(0));
        return rest;
    }

private:
    protocol::EngineProcess process_;
    std::vector<std::string> seen_;
};

inline std::vector<std::string> words_of(const std::string& line) {
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && line[i] == ' ') ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ') ++i;
        if (i > start) words.push_back(line.substr(start, i - start));
    }
    return words;
}

}  // namespace bge::testing
