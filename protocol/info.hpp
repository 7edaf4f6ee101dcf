#pragma once
// Formats search reports as protocol `info` lines. A proven result is `score mate N` as UCI has
// it: N moves (not plies) to the end, negative when the side to move is the one that loses;
// anything else is `score cp X`. (racetrack reads only `cp` and skips, with a warning, an info
// line it cannot read; clients that read `mate` show a lost position as lost, not as +999.98.)

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "core/game.hpp"
#include "search/player.hpp"

namespace bge::protocol {

// `cp X` or `mate N` for a search score (search/player.hpp: win_score - p is a win p plies away).
inline std::string format_score(int score) {
    if (score >= search::win_threshold) return fmt::format("mate {}", (search::win_score - score + 1) / 2);
    if (score <= -search::win_threshold) {
        const int moves = (search::win_score + score + 1) / 2;
        return moves == 0 ? std::string("mate 0") : fmt::format("mate -{}", moves);
    }
    return fmt::format("cp {}", score);
}

template <Game G>
std::string format_moves(typename G::State position, const std::vector<typename G::Move>& moves) {
    std::string text;
    for (const auto& move : moves) {
        if (!text.empty()) text += ' ';
        text += G::format_move(position, move);
        G::play(position, move);
    }
    return text;
}

template <Game G>
std::string format_info(const search::Report<G>& report, const typename G::State& root) {
    const std::int64_t time = std::max<std::int64_t>(0, report.time_ms);
    const std::uint64_t nps = report.nodes * 1000 / static_cast<std::uint64_t>(std::max<std::int64_t>(1, time));
    std::string line = fmt::format("info depth {} seldepth {} score {} nodes {} nps {} time {}", report.depth,
                                   report.seldepth, format_score(report.score), report.nodes, nps, time);
    if (!report.extra.empty()) line += " " + report.extra;
    if (!report.pv.empty()) line += " pv " + format_moves<G>(root, report.pv);
    return line;
}

}  // namespace bge::protocol
