#pragma once
// Expendibots game records: tags, then the game as the referee logs it (docs/expendibots.md,
// "Game records"):
//
//   [White "alphabeta"]
//   [Black "random"]
//   [Result "1-0"]
//   [Termination "elimination"]
//   [FEN "..."]                                  only when the game did not start from the start
//   [white] - MOVE 1 from (4, 1) to (4, 2).      {+1.20/9 0.41s}
//   [black] - BOOM at (3, 6).
//   [over ] - winner: white
//
// Reading is lenient where the referee's own log files need it: a `[game ] - ...` line is
// skipped, comments in braces are optional, and a record without tags is one game.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.hpp"
#include "core/game_record.hpp"
#include "core/expendibots/rules.hpp"

namespace bge::expendibots {

struct GameLog {
    std::vector<std::pair<std::string, std::string>> tags;  // in order
    State start{};
    std::vector<Move> moves;
    std::vector<std::string> comments;  // one per move, may be empty
    std::string closing;                // the text after "[over ] - ", empty if none
    std::string problem;                // why the moves stop early (IllegalMoves::end_game_there), or empty

    void set_tag(const std::string& name, const std::string& value);
    const std::string* tag(std::string_view name) const;
};

// One record, ending with a newline. Comments go after the action, in braces.
std::string write_game_log(const GameLog& log);
// Every record in the text; games are separated by blank lines or by a tag after the moves.
// Every move is checked against the rules (and the side in its `[white]`/`[black]` header). With
// IllegalMoves::end_game_there a record keeps its moves before a refused one and names it in
// `problem`; a line that is no part of a record still refuses the text.
Expected<std::vector<GameLog>> parse_game_logs(std::string_view text,
                                               IllegalMoves illegal_moves = IllegalMoves::refuse_text);

}  // namespace bge::expendibots
