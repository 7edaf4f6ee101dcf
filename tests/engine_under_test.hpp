#pragma once
// Which build of an engine the transcript tests drive. By default the one this build made; with
// BGE_TEST_ENGINE_COMMAND set, another, such as the Windows engines under wine:
//   BGE_TEST_ENGINE_COMMAND='wine /path/to/{}.exe'
// Each of the five engines (tak, gomoku, twixt, ur, expendibots) is then started by that command,
// split into words, with {} replaced by the engine's name; the test's own arguments follow.
// tests/windows/wine_test.sh runs the [protocol] tests so. Other programs (the arbiter, the
// trainers) are never replaced.

#include <array>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "protocol/engine_process.hpp"
#include "protocol/text.hpp"

namespace bge::testing {

inline void use_engine_under_test(protocol::ProcessOptions& options) {
    const char* command = std::getenv("BGE_TEST_ENGINE_COMMAND");
    if (command == nullptr || *command == '\0') return;
    const std::string name = std::filesystem::path(options.command).filename().string();
    constexpr std::array<const char*, 5> engines{"tak", "gomoku", "twixt", "ur", "expendibots"};
    bool is_engine = false;
    for (const char* engine : engines) is_engine = is_engine || name == engine;
    if (!is_engine) return;
    std::vector<std::string> words;
    for (const std::string_view word : protocol::split_words(command)) words.emplace_back(word);
    for (auto& w : words)
        for (std::size_t at = w.find("{}"); at != std::string::npos; at = w.find("{}", at + name.size()))
            w.replace(at, 2, name);
    if (words.empty()) return;
    options.command = words.front();
    words.erase(words.begin());
    words.insert(words.end(), options.arguments.begin(), options.arguments.end());
    options.arguments = std::move(words);
}

}  // namespace bge::testing
