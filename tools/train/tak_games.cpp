#include "tools/train/tak_games.hpp"

#include <algorithm>
#include <cmath>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "core/game_record.hpp"
#include "core/random.hpp"
#include "core/tak/ptn_file.hpp"
#include "search/alphabeta.hpp"

namespace bge::train {

using namespace bge::tak;

namespace {

constexpr char games_magic[16] = "bge-tak-games-1";

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

template <class T>
bool put(std::FILE* file, const T& value) {
    return std::fwrite(&value, sizeof(T), 1, file) == 1;
}
template <class T>
bool get(std::FILE* file, T& value) {
    return std::fread(&value, sizeof(T), 1, file) == 1;
}

}  // namespace

Status write_games(const std::string& path, const std::vector<TakGame>& games, bool append) {
    bool fresh = !append;
    if (append) {
        File probe(std::fopen(path.c_str(), "rb"));
        fresh = !probe;
    }
    File file(std::fopen(path.c_str(), fresh ? "wb" : "ab"));
    if (!file) return make_error("cannot write the games file '" + path + "'");
    bool ok = !fresh || std::fwrite(games_magic, sizeof games_magic, 1, file.get()) == 1;
    for (const TakGame& game : games) {
        const std::uint8_t header[4] = {static_cast<std::uint8_t>(game.variant.size),
                                        static_cast<std::uint8_t>(static_cast<std::int8_t>(game.variant.half_komi)),
                                        static_cast<std::uint8_t>(static_cast<std::int8_t>(game.result)),
                                        static_cast<std::uint8_t>(std::min(game.opening_plies, 255))};
        const auto plies = static_cast<std::uint16_t>(game.moves.size());
        ok = ok && std::fwrite(header, sizeof header, 1, file.get()) == 1 && put(file.get(), plies);
        for (std::size_t i = 0; i < game.moves.size() && ok; ++i)
            ok = put(file.get(), game.moves[i].bits) && put(file.get(), game.scores[i]);
    }
    if (!ok) return make_error("writing the games file '" + path + "' failed");
    return success();
}

Expected<std::vector<TakGame>> read_games(const std::string& path) {
    File file(std::fopen(path.c_str(), "rb"));
    if (!file) return make_error("cannot open the games file '" + path + "'");
    char magic[sizeof games_magic];
    if (std::fread(magic, sizeof magic, 1, file.get()) != 1 ||
        std::string_view(magic, sizeof magic) != std::string_view(games_magic, sizeof games_magic))
        return make_error("'" + path + "' is not a Tak games file");
    std::vector<TakGame> games;
    while (true) {
        std::uint8_t header[4];
        const std::size_t read = std::fread(header, 1, sizeof header, file.get());
        if (read == 0) break;
        std::uint16_t plies = 0;
        if (read != sizeof header || !get(file.get(), plies))
            return make_error("'" + path + "' is truncated (game " + std::to_string(games.size() + 1) + ")");
        TakGame game;
        game.variant.size = header[0];
        game.variant.half_komi = static_cast<std::int8_t>(header[1]);
        game.result = static_cast<std::int8_t>(header[2]);
        game.opening_plies = header[3];
        if (game.variant.size < min_size || game.variant.size > max_size || game.result < -1 || game.result > 1)
            return make_error("'" + path + "' is damaged (game " + std::to_string(games.size() + 1) + ")");
        State state = start_state(game.variant);
        for (int i = 0; i < plies; ++i) {
            Move move;
            std::int16_t score;
            if (!get(file.get(), move.bits) || !get(file.get(), score))
                return make_error("'" + path + "' is truncated (game " + std::to_string(games.size() + 1) + ")");
            if (outcome(state).is_over() || !is_legal(state, move))
                return make_error("'" + path + "': game " + std::to_string(games.size() + 1) +
                                  " has an illegal move at ply " + std::to_string(i + 1));
            play(state, move);
            game.moves.push_back(move);
            game.scores.push_back(score);
        }
        games.push_back(std::move(game));
    }
    return games;
}

Expected<std::vector<std::vector<std::string>>> read_book(const std::string& path) {
    std::ifstream file(path);
    if (!file) return make_error("cannot open the book '" + path + "'");
    std::vector<std::vector<std::string>> lines;
    for (std::string line; std::getline(file, line);) {
        std::istringstream words(line);
        std::vector<std::string> moves;
        for (std::string word; words >> word;) moves.push_back(word);
        if (!moves.empty() && moves.front()[0] != '#') lines.push_back(std::move(moves));
    }
    if (lines.empty()) return make_error("the book '" + path + "' has no lines");
    return lines;
}

namespace {

using Search = search::AlphaBeta<Tak, TakEvaluator>;

TakGame play_one(const SelfPlaySettings& settings, int number, Search& searcher) {
    TakGame game;
    game.variant.size = settings.size;
    game.variant.half_komi = settings.half_komi;
    GameRecord<Tak> record(start_state(game.variant));
    Random random(settings.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(number) + 1);
    auto finished = [&] { return outcome(record.current()).is_over(); };
    auto play_opening = [&](Move move) {
        record.play(move);
        game.moves.push_back(move);
        game.scores.push_back(TakGame::no_score);
    };

    if (!settings.book.empty()) {
        const auto& line = settings.book[static_cast<std::size_t>(number) % settings.book.size()];
        for (const std::string& text : line) {
            auto move = parse_move(record.current(), text);
            if (!move || finished()) break;
            play_opening(*move);
        }
    }
    const int spread = std::max(0, settings.random_plies - settings.min_random_plies);
    const int extra =
        settings.min_random_plies + static_cast<int>(random.below(static_cast<std::uint32_t>(spread + 1)));
    MoveList<Tak> moves;
    for (int i = 0; i < extra && !finished(); ++i) {
        generate_moves(record.current(), moves);
        // A random ply never ends the game: the games are for learning middlegames.
        std::vector<Move> quiet;
        for (const Move& move : moves) {
            State next = record.current();
            play(next, move);
            if (!outcome(next).is_over()) quiet.push_back(move);
        }
        if (quiet.empty()) break;
        play_opening(quiet[random.below(static_cast<std::uint32_t>(quiet.size()))]);
    }
    game.opening_plies = static_cast<int>(game.moves.size());

    searcher.clear();
    while (!finished() && static_cast<int>(game.moves.size()) < settings.max_plies) {
        search::SearchRequest<Tak> request;
        request.root = record.current();
        request.history = record.hashes();
        if (settings.nodes > 0)
            request.limits.nodes = settings.nodes;
        else
            request.limits.depth = std::max(1, settings.depth);
        const search::SearchControl<Tak> control;
        const auto result = searcher.search(request, control);
        record.play(result.best);
        game.moves.push_back(result.best);
        game.scores.push_back(static_cast<std::int16_t>(std::clamp(result.score, -32000, 32000)));
    }
    const Outcome o = outcome(record.current());
    game.result = o.kind == OutcomeKind::win ? (o.winner == Side::first ? 1 : -1) : 0;
    return game;
}

}  // namespace

std::vector<TakGame> play_self_games(const SelfPlaySettings& settings, std::shared_ptr<const EvalWeightSet> weights,
                                     const std::function<void(int)>& progress) {
    std::vector<TakGame> games(static_cast<std::size_t>(std::max(0, settings.games)));
    std::atomic<int> next{0};
    std::mutex report_lock;
    int done = 0;
    auto worker = [&] {
        TakEvaluator evaluator(weights);
        evaluator.use_networks(settings.networks);
        auto searcher = std::make_unique<Search>(std::move(evaluator), 16);
        searcher->settings().null_move = true;
        for (int number; (number = next.fetch_add(1)) < settings.games;) {
            games[static_cast<std::size_t>(number)] = play_one(settings, settings.first_game + number, *searcher);
            if (progress) {
                const std::lock_guard lock(report_lock);
                progress(++done);
            }
        }
    };
    std::vector<std::thread> threads;
    for (int t = 1; t < settings.threads; ++t) threads.emplace_back(worker);
    worker();
    for (auto& thread : threads) thread.join();
    return games;
}

LabelledGames games_from_labels(const std::vector<LabelledGame>& labelled, const TeacherScale& teacher, double scale) {
    LabelledGames out;
    for (const LabelledGame& game : labelled) {
        auto skip = [&](const std::string& why) { out.skipped.push_back(fmt::format("{} game {}: {}", game.file, game.game, why)); };
        if (game.positions.empty() || game.positions.front().ply != 0) {
            skip("its first position was not analysed");
            continue;
        }
        const std::size_t at = game.variant.find("komi ");
        auto half_komi =
            at == std::string::npos ? Expected<int>(make_error("no komi")) : tak::parse_komi(game.variant.substr(at + 5));
        if (!half_komi) {
            skip(fmt::format("no komi in its variant '{}'", game.variant));
            continue;
        }
        tak::Variant variant;
        auto first = tak::parse_tps(game.positions.front().position, variant);
        if (!first) {
            skip(first.error());
            continue;
        }
        variant.size = first->size;
        variant.half_komi = *half_komi;
        tak::State state = tak::start_state(variant);
        if (tak::format_tps(state) != tak::format_tps(*first)) {
            skip("it does not start from the empty board");
            continue;
        }
        TakGame converted;
        converted.variant = variant;
        converted.result = game.outcome == "p1win" ? 1 : game.outcome == "p2win" ? -1 : 0;
        std::string problem;
        for (const LabelledPosition& position : game.positions) {
            if (tak::format_tps(state) != position.position) {
                problem = fmt::format("ply {}: the position is not the one its moves reach", position.ply);
                break;
            }
            if (position.played.empty()) break;  // the record's last position
            auto move = tak::parse_move(state, position.played);
            if (!move) {
                problem = fmt::format("ply {}: {}", position.ply, move.error());
                break;
            }
            converted.moves.push_back(*move);
            converted.scores.push_back(position.score_cp ? teacher.training_score(*position.score_cp, position.mate, scale)
                                                         : TakGame::no_score);
            tak::play(state, *move);
        }
        if (!problem.empty()) skip(problem + " (the moves before it are used)");
        if (!converted.moves.empty()) out.games.push_back(std::move(converted));
    }
    return out;
}

}  // namespace bge::train
