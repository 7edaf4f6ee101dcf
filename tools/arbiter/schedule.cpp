#include "tools/arbiter/schedule.hpp"

#include "core/random.hpp"

namespace bge::arbiter {

std::vector<EnginePair> engine_pairs(Tournament tournament, int engine_count) {
    std::vector<EnginePair> pairs;
    const int first_limit = tournament == Tournament::gauntlet ? std::min(1, engine_count) : engine_count;
    for (int first = 0; first < first_limit; ++first)
        for (int second = first + 1; second < engine_count; ++second) pairs.push_back({first, second});
    return pairs;
}

std::vector<ScheduledGame> make_schedule(const MatchConfig& config, int opening_count) {
    const auto pairs = engine_pairs(config.tournament, static_cast<int>(config.engines.size()));
    const bool random_order = config.openings && config.openings->order == OpeningOrder::random;
    const int first_opening = config.openings ? config.openings->start - 1 : 0;
    Random random(config.seed);
    std::vector<ScheduledGame> games;
    int encounter = 0;
    for (int round = 1; round <= config.rounds; ++round) {
        for (int pair = 0; pair < static_cast<int>(pairs.size()); ++pair, ++encounter) {
            const int opening = random_order ? static_cast<int>(random.below(static_cast<std::uint32_t>(opening_count)))
                                             : (first_opening + encounter) % opening_count;
            for (int game = 0; game < config.games_per_encounter; ++game) {
                // Colours alternate over a pair's games, across rounds too (matters with -games 1).
                const bool swapped = ((round - 1) * config.games_per_encounter + game) % 2 == 1;
                const EnginePair& p = pairs[pair];
                games.push_back({static_cast<int>(games.size()) + 1, round, encounter, pair,
                                 swapped ? p.second : p.first, swapped ? p.first : p.second, opening});
            }
        }
    }
    return games;
}

std::vector<ScheduledGame> shard_of(const std::vector<ScheduledGame>& schedule, const Shard& shard) {
    std::vector<ScheduledGame> games;
    for (const ScheduledGame& game : schedule)
        if (game.encounter % shard.count == shard.index - 1) games.push_back(game);
    return games;
}

}  // namespace bge::arbiter
