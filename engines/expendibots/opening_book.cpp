#include "engines/expendibots/opening_book.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace bge::expendibots {

namespace {

// Made by docs/experiments/expendibots_book.sh: the engine searched every position for 10 s
// with its book off and the built-in weights; the lines follow its choices. The main line, then
// Black's reply to each of White's natural first moves.
constexpr std::string_view book_text = R"(# built-in opening book
e2d2 e7d7 2d2d1 2d7d5
a2a3 d7e7
b2b3 e7d7
d2d3 e8e7
e2e3 d8d7
g2g3 d7e7
h2h3 e7d7
b1b2 d7e7
d1d2 e7d7
e1e2 d7e7
g1g2 e7d7
)";

}  // namespace

std::uint64_t OpeningBook::key_of(const State& state) {
    return state.hash ^ (static_cast<std::uint64_t>(state.actions) * 0x9E3779B97F4A7C15ULL);
}

Expected<OpeningBook> OpeningBook::parse(std::string_view text) {
    OpeningBook book;
    std::istringstream lines{std::string(text)};
    std::string line;
    for (int number = 1; std::getline(lines, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream words(line);
        std::string word;
        State state = start_state();
        bool any = false;
        while (words >> word) {
            if (!any && word.starts_with('#')) break;
            auto move = parse_move(state, word);
            if (!move) return make_error(fmt::format("book line {}: {}", number, move.error()));
            auto& candidates = book.moves_[key_of(state)];
            if (std::find(candidates.begin(), candidates.end(), *move) == candidates.end())
                candidates.push_back(*move);
            play(state, *move);
            any = true;
        }
        if (any) ++book.lines_;
    }
    return book;
}

Expected<OpeningBook> OpeningBook::load(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return make_error(fmt::format("cannot open {}", path));
    std::stringstream buffer;
    buffer << file.rdbuf();
    auto book = parse(buffer.str());
    if (!book) return make_error(fmt::format("{}: {}", path, book.error()));
    return book;
}

std::vector<Move> OpeningBook::moves_for(const State& state) const {
    const auto found = moves_.find(key_of(state));
    if (found == moves_.end()) return {};
    return found->second;
}

const OpeningBook& builtin_book() {
    static const OpeningBook book = [] {
        auto parsed = OpeningBook::parse(book_text);
        return parsed ? *parsed : OpeningBook{};
    }();
    return book;
}

std::string_view builtin_book_text() { return book_text; }

}  // namespace bge::expendibots
