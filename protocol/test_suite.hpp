#pragma once
// `suite FILE [SECONDS...]`: a test suite of positions with a known answer, run the way chess
// engines run EPD suites, for every engine of the family. Each line of the file is one position:
//
//   POSITION ; bm MOVE [MOVE...] ; win PLIES ; option NAME=VALUE ; id TEXT
//
// POSITION is the game's position text (`position fen`/`tps`); `bm` the moves that solve it (a
// teacher's choice: the winning first move), `win` says the side to move has a forced win in
// PLIES plies (a teacher's announcement; our own proven win solves the position whatever its
// move), `option` sets an engine option first (the rule: `option Rule=renju`), `id` names the
// position in the log. Fields other than the position are optional and may repeat (`option`);
// blank lines and lines starting with # are skipped. docs/protocol.md has the command.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/expected.hpp"
#include "protocol/text.hpp"

namespace bge::protocol {

struct SuiteEntry {
    int line_number = 0;
    std::string position;
    std::vector<std::string> best_moves;  // bm
    std::optional<int> win_plies;         // win
    std::vector<std::pair<std::string, std::string>> options;
    std::string id;
};

// What one search of a suite position gave.
struct SuiteAttempt {
    bool proven_win = false;  // the search reported a forced win
    bool best_move = false;   // its move is one of the entry's bm
    bool solved() const { return proven_win || best_move; }
};

namespace detail {

inline std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
    return text;
}

}  // namespace detail

// One line; nullopt (no error) for a blank or comment line.
inline Expected<std::optional<SuiteEntry>> parse_suite_line(std::string_view line, int line_number) {
    using detail::trim;
    line = trim(line);
    if (line.empty() || line.front() == '#') return std::optional<SuiteEntry>{};
    auto fail = [&](const std::string& why) { return make_error(fmt::format("line {}: {}", line_number, why)); };
    SuiteEntry entry;
    entry.line_number = line_number;
    std::size_t from = 0;
    bool first = true;
    while (from <= line.size()) {
        const std::size_t semicolon = line.find(';', from);
        const std::string_view field =
            trim(line.substr(from, semicolon == std::string_view::npos ? std::string_view::npos : semicolon - from));
        from = semicolon == std::string_view::npos ? line.size() + 1 : semicolon + 1;
        if (first) {
            if (field.empty()) return fail("no position before the first ';'");
            entry.position = std::string(field);
            first = false;
            continue;
        }
        if (field.empty()) continue;
        const auto words = split_words(field);
        const std::string_view key = words[0];
        if (key == "bm") {
            if (words.size() < 2) return fail("bm needs at least one move");
            for (std::size_t i = 1; i < words.size(); ++i) entry.best_moves.emplace_back(words[i]);
        } else if (key == "win") {
            if (words.size() != 2) return fail("win takes one number, the plies to the win");
            auto plies = parse_integer(words[1], 1, 10'000, "win plies");
            if (!plies) return fail(plies.error());
            entry.win_plies = static_cast<int>(*plies);
        } else if (key == "option") {
            const std::string_view setting = trim(field.substr(key.size()));
            const std::size_t equals = setting.find('=');
            if (equals == std::string_view::npos || equals == 0)
                return fail(fmt::format("expected option NAME=VALUE, not '{}'", excerpt(field)));
            entry.options.emplace_back(std::string(trim(setting.substr(0, equals))),
                                       std::string(trim(setting.substr(equals + 1))));
        } else if (key == "id") {
            entry.id = std::string(trim(field.substr(key.size())));
        } else {
            return fail(fmt::format("unknown field '{}' (known: bm, win, option, id)", excerpt(key)));
        }
    }
    if (entry.best_moves.empty() && !entry.win_plies) return fail("nothing to solve: give bm or win");
    return std::optional<SuiteEntry>{std::move(entry)};
}

// Every line of a suite file; the lines that cannot be read are left out, each with its reason
// in `problems`.
inline std::vector<SuiteEntry> parse_suite(std::string_view text, std::vector<std::string>& problems) {
    std::vector<SuiteEntry> entries;
    int line_number = 0;
    std::size_t from = 0;
    while (from < text.size()) {
        const std::size_t end = text.find('\n', from);
        const std::string_view line = text.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from);
        from = end == std::string_view::npos ? text.size() : end + 1;
        ++line_number;
        auto parsed = parse_suite_line(line, line_number);
        if (!parsed)
            problems.push_back(parsed.error());
        else if (*parsed)
            entries.push_back(std::move(**parsed));
    }
    return entries;
}

// The time limits of `suite FILE [SECONDS...]`: positive decimals, in milliseconds, ascending and
// without repeats; 0.1, 1 and 10 s when none are given.
inline Expected<std::vector<std::int64_t>> parse_suite_times(const std::vector<std::string_view>& words) {
    std::vector<std::int64_t> times;
    for (const std::string_view word : words) {
        // Seconds with at most three decimals: "0.1", "1", "10", "2.5".
        const std::size_t dot = word.find('.');
        const std::string_view whole = word.substr(0, dot);
        std::string_view fraction = dot == std::string_view::npos ? std::string_view{} : word.substr(dot + 1);
        if (fraction.size() > 3) return make_error(fmt::format("suite: '{}': at most three decimals", excerpt(word)));
        auto seconds = parse_integer(whole.empty() ? std::string_view("0") : whole, 0, 86'400, "suite seconds");
        auto thousandths = parse_integer(fraction.empty() ? std::string_view("0") : fraction, 0, 999, "suite seconds");
        if (!seconds || !thousandths || (whole.empty() && fraction.empty()))
            return make_error(fmt::format("suite: '{}' is not a number of seconds", excerpt(word)));
        std::int64_t ms = *seconds * 1000 + *thousandths * (fraction.size() == 1 ? 100 : fraction.size() == 2 ? 10 : 1);
        if (ms <= 0) return make_error("suite: a time limit must be positive");
        times.push_back(ms);
    }
    if (times.empty()) times = {100, 1000, 10'000};
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    return times;
}

// "0.1 s", "1 s", "2.5 s".
inline std::string suite_time_text(std::int64_t ms) {
    std::string text = fmt::format("{}", ms / 1000);
    if (ms % 1000 != 0) {
        std::string fraction = fmt::format("{:03}", ms % 1000);
        while (fraction.back() == '0') fraction.pop_back();
        text += "." + fraction;
    }
    return text + " s";
}

}  // namespace bge::protocol
