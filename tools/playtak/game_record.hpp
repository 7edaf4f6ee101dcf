#pragma once
// Writes a finished (or given up) server game as a PTN file (core/tak/ptn_file), one file per
// game: <dir>/playtak-<game number>-<YYYYMMDD-HHMMSS>.ptn.

#include <string>
#include <vector>

#include "core/expected.hpp"
#include "core/tak/rules.hpp"
#include "tools/playtak/server_protocol.hpp"

namespace bge::playtak {

struct GameRecordInfo {
    GameStart start;               // players, rules and clock as the server announced them
    std::vector<tak::Move> moves;  // from the start position of start.size / start.half_komi
    std::string result;            // a PTN result token (R-0 ... 0-0), or "*" when unknown
    std::string termination;       // empty, or why the game ended otherwise (abandoned, ...)
    std::string site;              // host:port
    std::string started_at;        // "YYYY.MM.DD HH:MM:SS", local time
};

// "YYYY.MM.DD HH:MM:SS" for now, local time.
std::string timestamp_now();
// The PTN text of the game.
std::string format_game_record(const GameRecordInfo& info);
// Writes it under `directory` (created if missing); returns the file's path.
Expected<std::string> write_game_record(const std::string& directory, const GameRecordInfo& info);

}  // namespace bge::playtak
