#pragma once
// Formats search reports as protocol `info` lines. Scores are always `score cp` (racetrack and
// other TEI clients parse nothing else); a forced result shows as +-(100000 - plies).

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "core/game.hpp"
#include "search/player.hpp"

namespace bge::protocol {

constexpr int decisive_cp = 100000;

inline int score_to_cp(int score) {
    if (score >= search::win_threshold) return decisive_cp - (search::win_score - score);
    if (score <= -search::win_threshold) return -(decisive_cp - (search::win_score + score));
    return score;
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
    std::string line = fmt::format("info depth {} seldepth {} score cp {} nodes {} nps {} time {}", report.depth,
                                   report.seldepth, score_to_cp(report.score), report.nodes, nps, time);
    if (!report.extra.empty()) line += " " + report.extra;
    if (!report.pv.empty()) line += " pv " + format_moves<G>(root, report.pv);
    return line;
}

}  // namespace bge::protocol
