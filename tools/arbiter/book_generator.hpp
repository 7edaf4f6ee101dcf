#pragma once
// The opening-book generator behind `arbiter book`, written once for every game adapter.
//
// Candidates are drawn one after another from a single generator seeded with -srand: each is
// `plies` uniformly random legal moves from the standard start (a candidate whose game ends on
// the way is dropped). A candidate is kept when its final position is new and, with -engine, the
// engine's score of that position is within +-maxeval. The engine's verdict does not feed back
// into the draws, so a seed (and a deterministic engine limit such as depth= or nodes=) always
// gives the same book.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "core/game_record.hpp"
#include "core/random.hpp"
#include "tools/arbiter/book.hpp"
#include "tools/arbiter/game_adapter.hpp"
#include "tools/arbiter/game_runner.hpp"

namespace bge::arbiter {

namespace book_detail {

constexpr int exit_done = 0;
constexpr int exit_engine_failed = 1;
constexpr int exit_usage = 2;

inline void print_error(const std::string& message) {
    std::fputs(fmt::format("arbiter: error: {}\n", message).c_str(), stderr);
}

}  // namespace book_detail

// `plies` random legal moves from the standard start; nothing when the game ends on the way or
// at the last move (an opening must leave a game to play).
// With `allowed`, only the legal moves it accepts are drawn from.
template <Game G>
std::optional<GameRecord<G>> random_line(
    const typename G::Variant& variant, int plies, Random& random,
    const std::function<bool(const typename G::State&, const typename G::Move&)>& allowed = {}) {
    GameRecord<G> record(G::start_state(variant));
    for (int ply = 0; ply < plies; ++ply) {
        if (record.outcome().is_over()) return std::nullopt;
        if constexpr (StochasticGame<G>) {
            if (G::is_chance_node(record.current())) {
                const auto roll = drawn_chance_outcome<G>(record.current(), random.unit());
                if (!roll) return std::nullopt;
                record.play(*roll);
                continue;
            }
        }
        MoveList<G> moves;
        G::generate_moves(record.current(), moves);
        if (allowed) {
            std::size_t kept = 0;
            for (const auto& move : moves)
                if (allowed(record.current(), move)) moves[kept++] = move;
            moves.resize(kept);
        }
        if (moves.empty()) return std::nullopt;
        record.play(moves[random.below(static_cast<std::uint32_t>(moves.size()))]);
    }
    if (record.outcome().is_over()) return std::nullopt;
    return record;
}

// One line of the book file: the moves in the game's notation, or the final position.
template <GameAdapter A>
std::string book_line(const GameRecord<typename A::Game>& line, BookFormat format) {
    using G = typename A::Game;
    if (format == BookFormat::tps) return G::format_position(line.current());
    std::string text;
    auto position = line.start();
    for (const auto& move : line.moves()) {
        if (!text.empty()) text += ' ';
        text += G::format_move(position, move);
        G::play(position, move);
    }
    return text;
}

// The engine that judges candidates: one process for the whole book, a new game per candidate
// (so no candidate's score depends on the ones before it).
template <GameAdapter A>
class BookEvaluator {
public:
    using G = typename A::Game;

    BookEvaluator(const EngineConfig& config, const typename G::Variant& variant)
        : player_(config, config.dialect.value_or(A::default_dialect)), variant_(variant) {}
    ~BookEvaluator() { player_.quit(); }

    Status start() {
        if (player_.ensure_running() != EngineStatus::ok) return make_error(player_.last_error());
        auto options = A::rule_options(variant_, player_);
        if (!options) return make_error(options.error());
        rule_options_ = std::move(*options);
        return success();
    }

    // The engine's score of the line's final position in centipawns, from the side to move's
    // point of view; nothing when its search reported no `score cp`.
    Expected<std::optional<int>> evaluate(const GameRecord<G>& line) {
        const protocol::Dialect dialect = player_.dialect();
        if (player_.start_game(rule_options_, A::new_game_command(dialect, variant_)) != EngineStatus::ok)
            return make_error(player_.last_error());
        const EngineConfig& config = player_.config();
        const auto budget = config.move_time_ms ? std::chrono::milliseconds(*config.move_time_ms + 5'000)
                                                : std::chrono::milliseconds(stall_timeout);
        const EngineReply reply =
            player_.think(position_command<A>(dialect, line),
                          go_command(dialect, config, G::side_to_move(line.current()), Clocks{}), budget);
        switch (reply.kind) {
            case EngineReply::Kind::move:
                break;
            case EngineReply::Kind::timeout:
                return make_error(fmt::format("engine {}: no bestmove within {} ms", player_.name(), budget.count()));
            case EngineReply::Kind::closed:
            case EngineReply::Kind::interrupted:
            case EngineReply::Kind::stall:
                return make_error(player_.last_error().empty()
                                      ? fmt::format("engine {}: it stopped answering", player_.name())
                                      : player_.last_error());
        }
        if (!reply.info) return std::optional<int>();
        return std::optional<int>(reply.info->score_cp);
    }

private:
    EnginePlayer player_;
    typename G::Variant variant_;
    OptionList rule_options_;
};

// Generates and writes the book; returns the exit status (see run_book).
template <GameAdapter A>
int generate_book(const BookConfig& config) {
    using G = typename A::Game;
    using book_detail::print_error;
    auto variant = A::make_variant(config.rules);
    if (!variant) {
        print_error(fmt::format("book: {}", variant.error()));
        return book_detail::exit_usage;
    }

    // Opened first, so a bad path is found before any engine time is spent.
    std::ofstream file;
    if (!config.out_file.empty()) {
        file.open(config.out_file, std::ios::binary | std::ios::trunc);
        if (!file) {
            print_error(fmt::format("book: -out {}: cannot write the file", config.out_file));
            return book_detail::exit_usage;
        }
    }

    std::optional<BookEvaluator<A>> evaluator;
    if (config.engine) {
        evaluator.emplace(*config.engine, *variant);
        if (auto status = evaluator->start(); !status) {
            print_error(fmt::format("book: {}", status.error()));
            return book_detail::exit_engine_failed;
        }
    }

    // -radius: openings near the centre, as Gomocup's short openings are.
    std::function<bool(const typename G::State&, const typename G::Move&)> near_centre;
    if (config.radius > 0) {
        if constexpr (requires(const typename G::State& s, const typename G::Move& m) {
                          { A::distance_from_centre(s, m) } -> std::convertible_to<int>;
                      }) {
            near_centre = [radius = config.radius](const typename G::State& state, const typename G::Move& move) {
                return A::distance_from_centre(state, move) <= radius;
            };
        } else {
            print_error(fmt::format("book: -radius: {} has no board centre to measure from", config.game));
            return book_detail::exit_usage;
        }
    }
    Random random(config.seed);
    std::unordered_set<std::string> seen;  // final positions already drawn (kept or not)
    std::vector<std::string> lines;
    int tries = 0, finished = 0, repeated = 0, unbalanced = 0, unscored = 0;
    const int limit = config.try_limit();
    while (static_cast<int>(lines.size()) < config.count && tries < limit) {
        ++tries;
        auto line = random_line<G>(*variant, config.plies, random, near_centre);
        if (!line) {
            ++finished;
            continue;
        }
        if (!seen.insert(G::format_position(line->current())).second) {
            ++repeated;
            continue;
        }
        if (evaluator) {
            auto score = evaluator->evaluate(*line);
            if (!score) {
                print_error(fmt::format("book: {}", score.error()));
                return book_detail::exit_engine_failed;
            }
            if (!*score) {
                ++unscored;
                continue;
            }
            if (std::abs(**score) > config.max_eval_cp) {
                ++unbalanced;
                continue;
            }
        }
        lines.push_back(book_line<A>(*line, config.format));
    }
    evaluator.reset();  // quit the engine before writing

    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    if (config.out_file.empty()) {
        std::fputs(text.c_str(), stdout);
        std::fflush(stdout);
    } else {
        file << text;
        file.flush();
        if (!file) {
            print_error(fmt::format("book: -out {}: cannot write the file", config.out_file));
            return book_detail::exit_usage;
        }
    }

    const std::string tally =
        fmt::format("{} tries: {} ended the game, {} repeated a position{}", tries, finished, repeated,
                    config.engine ? fmt::format(", {} outside +-{} cp{}", unbalanced, config.max_eval_cp,
                                                unscored > 0 ? fmt::format(", {} without a score", unscored) : "")
                                  : std::string());
    if (static_cast<int>(lines.size()) < config.count)
        std::fputs(fmt::format("arbiter: warning: book: only {} of {} openings found ({})\n", lines.size(),
                               config.count, tally)
                       .c_str(),
                   stderr);
    else
        std::fputs(fmt::format("arbiter: book: {} openings{} ({})\n", lines.size(),
                               config.out_file.empty() ? std::string() : " written to " + config.out_file, tally)
                       .c_str(),
                   stderr);
    return book_detail::exit_done;
}

}  // namespace bge::arbiter
