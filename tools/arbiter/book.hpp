#pragma once
// `arbiter book`: generates an opening book of distinct random lines from the standard start,
// optionally keeping only the lines an engine judges balanced. The output is what
// `-openings file=F format=moves|tps` reads. The generator itself is a template over the game
// adapter (tools/arbiter/book_generator.hpp); this is the game-agnostic command line.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "tools/arbiter/command_line.hpp"

namespace bge::arbiter {

enum class BookFormat { moves, tps };

struct BookConfig {
    bool help = false;
    std::string game = "tak";
    MatchConfig rules;  // what the game adapter's make_variant reads: size, komi
    int plies = 0;
    int count = 0;
    std::uint64_t seed = 0;
    std::string out_file;  // empty: stdout
    BookFormat format = BookFormat::moves;
    std::optional<EngineConfig> engine;  // judges each candidate's final position
    int max_eval_cp = 100;               // keep a line when |score| <= this
    int max_tries = 0;                   // candidates to draw at most; 0: 50 * count
    int radius = 0;                      // > 0: every move within this many cells of the centre

    int try_limit() const { return max_tries > 0 ? max_tries : 50 * count; }
};

// The flags after the word `book`. Every error names the flag or value at fault.
Expected<BookConfig> parse_book_command_line(const std::vector<std::string>& arguments);

std::string book_help_text();

// Exit status: 0 done (also when fewer lines than asked were found: a warning says so),
// 1 the engine failed, 2 bad command line (or the output file cannot be written).
int run_book(const std::vector<std::string>& arguments);

}  // namespace bge::arbiter
