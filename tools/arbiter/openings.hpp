#pragma once
// Opening books for -openings: one position per line (format=tps), one move list per line from
// the start position (format=moves), or the game's record format (format=ptn, read by the game
// adapter). Every opening is checked when the file is read: right variant, legal moves, game not
// over. Without -openings every game starts from the standard start position.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/game_record.hpp"
#include "protocol/text.hpp"
#include "tools/arbiter/game_adapter.hpp"

namespace bge::arbiter {

namespace detail {

template <GameAdapter A>
Expected<Opening<typename A::Game>> opening_from_line(const OpeningsConfig& config, const std::string& line,
                                                      const typename A::Game::Variant& variant) {
    using G = typename A::Game;
    if (config.format == OpeningFormat::tps) {
        auto state = G::parse_position(variant, line);
        if (!state) return make_error(state.error());
        return Opening<G>{*state, {}};
    }
    GameRecord<G> record(G::start_state(variant));
    for (std::string_view word : protocol::split_words(line))
        if (auto status = record.play_text(word); !status)
            return make_error(fmt::format("move '{}': {}", word, status.error()));
    return Opening<G>{record.start(), record.moves()};
}

template <GameAdapter A>
Status check_opening(const Opening<typename A::Game>& opening, const typename A::Game::Variant& variant) {
    using G = typename A::Game;
    if (!(G::variant_of(opening.start) == variant))
        return make_error(fmt::format("the position is for {}, but the match plays {}",
                                      A::variant_text(G::variant_of(opening.start)), A::variant_text(variant)));
    GameRecord<G> record(opening.start);
    for (const auto& move : opening.moves) record.play(move);
    if (record.outcome().is_over()) return make_error("the game is already over there");
    return success();
}

}  // namespace detail

template <GameAdapter A>
Expected<std::vector<Opening<typename A::Game>>> load_openings(const OpeningsConfig& config,
                                                               const typename A::Game::Variant& variant) {
    using G = typename A::Game;
    const std::string where = fmt::format("-openings file={}", config.file);
    std::ifstream file(config.file, std::ios::binary);
    if (!file) return make_error(fmt::format("{}: cannot open the file", where));
    std::stringstream buffer;
    buffer << file.rdbuf();
    const std::string text = buffer.str();

    std::vector<Opening<G>> openings;
    if (config.format == OpeningFormat::ptn) {
        auto games = A::parse_record_openings(text, variant);
        if (!games) return make_error(fmt::format("{}: {}", where, games.error()));
        openings = std::move(*games);
    } else {
        std::istringstream lines(text);
        std::string line;
        for (int number = 1; std::getline(lines, line); ++number) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (protocol::split_words(line).empty() || line.starts_with('#')) continue;
            auto opening = detail::opening_from_line<A>(config, line, variant);
            if (!opening) return make_error(fmt::format("{}: line {}: {}", where, number, opening.error()));
            openings.push_back(std::move(*opening));
        }
    }
    if (openings.empty()) return make_error(fmt::format("{}: no opening found", where));
    if (config.plies > 0)
        for (auto& opening : openings)
            if (opening.moves.size() > static_cast<std::size_t>(config.plies))
                opening.moves.resize(static_cast<std::size_t>(config.plies));
    for (std::size_t i = 0; i < openings.size(); ++i)
        if (auto status = detail::check_opening<A>(openings[i], variant); !status)
            return make_error(fmt::format("{}: opening {}: {}", where, i + 1, status.error()));
    if (config.start > static_cast<int>(openings.size()))
        return make_error(
            fmt::format("-openings start={}: the file has only {} openings", config.start, openings.size()));
    return openings;
}

// The openings a match uses: the book, or just the standard start position.
template <GameAdapter A>
Expected<std::vector<Opening<typename A::Game>>> match_openings(const MatchConfig& config,
                                                                const typename A::Game::Variant& variant) {
    using G = typename A::Game;
    if (!config.openings) return std::vector<Opening<G>>{Opening<G>{G::start_state(variant), {}}};
    return load_openings<A>(*config.openings, variant);
}

}  // namespace bge::arbiter
