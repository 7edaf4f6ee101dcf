#pragma once
// PTN game records: tags, then numbered moves with optional {comments}, then the result.
//
//   [Size "6"]
//   [Komi "2"]
//   [Player1 "tak"]
//   [Player2 "tak"]
//   [Result "R-0"]
//
//   1. a1 f6
//   2. Cc3 {+0.31/7} d4
//   ...
//
//
// A game that starts from another position carries a [TPS "..."] tag; when Black moves first
// the first move pair is written "N. -- e5". Several games may follow one another in one text.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.hpp"
#include "core/game_record.hpp"
#include "core/tak/rules.hpp"

namespace bge::tak {

struct PtnGame {
    std::vector<std::pair<std::string, std::string>> tags;  // in file order
    State start{};
    std::vector<Move> moves;
    std::vector<std::string> comments;  // one per move, empty when there is none
    std::string result;                 // the result token written in the file, or empty
    std::vector<std::string> marks;     // written right after each move ("?", "??"), may be shorter than moves
    std::string problem;                // why the moves stop early (IllegalMoves::end_game_there), or empty

    std::optional<std::string> tag(std::string_view name) const;
    void set_tag(std::string_view name, std::string value);
};

// Reads every game in the text. Each move is checked for legality; the error names the game and
// the move. With IllegalMoves::end_game_there a game keeps its moves before an illegal one and
// names it in `problem`; only a text that is not PTN at all is refused.
Expected<std::vector<PtnGame>> parse_ptn_games(std::string_view text,
                                               IllegalMoves illegal_moves = IllegalMoves::refuse_text);
// Reads exactly one game.
Expected<PtnGame> parse_ptn(std::string_view text);
// Writes one game. Size, Komi and TPS tags are filled in from the start position when absent.
std::string write_ptn(const PtnGame& game);

// Komi as PTN writes it ("0", "2", "2.5", "-1.5") from half flats, and back.
std::string komi_text(int half_komi);
Expected<int> parse_komi(std::string_view text);

}  // namespace bge::tak
