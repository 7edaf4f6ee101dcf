#pragma once
// The Gomocup "pbrain" protocol (the new protocol of the Gomoku AI managers, piskvork and
// GomocupJudge), written once for any game that places stones on an x,y grid; the game supplies
// the board hooks. docs/protocol.md ("pbrain") lists what is supported.
//
// The manager drives everything: START/RECTSTART make a board (OK), BEGIN/TURN/BOARD...DONE ask
// for a move (answered "x,y"), INFO sets limits and rules, TAKEBACK and RESTART edit the game
// (OK), ABOUT describes the brain, END exits. Coordinates are 0-based x,y from the top left.
// Searches end by their own time limits, set from INFO timeout_turn / time_left / timeout_match.
//
// Threads: input is read on its own thread (protocol/input_thread.hpp) and each move is thought
// about on a search thread, so END, STOP and YXSTOP are acted on while the brain thinks. Other
// commands that arrive meanwhile wait, in order, until the move is out.
//
// Bad input never stops the session: a malformed command, a move on an occupied cell or off the
// board, or a broken BOARD block gets one "ERROR <why>" line and the game stays as it was;
// a command the protocol does not have gets "UNKNOWN <command>".

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <chrono>
#include <exception>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "core/game.hpp"
#include "protocol/info.hpp"
#include "protocol/input_thread.hpp"
#include "protocol/line_reader.hpp"
#include "protocol/options.hpp"
#include "protocol/output.hpp"
#include "protocol/search_queue.hpp"
#include "protocol/text.hpp"
#include "search/player.hpp"

namespace bge::protocol {

using Point = std::pair<int, int>;                 // x, y
using Stones = std::array<std::vector<Point>, 2>;  // by Side

template <Game G>
struct PbrainHooks {
    // The rules for a width x height board under INFO rule's bitmask (1 exactly five,
    // 2 continuous game, 4 renju, 8 caro); an error when the game cannot play them.
    std::function<Expected<typename G::Variant>(int width, int height, int rule)> variant;
    // The position with these stones (first player's, second player's) and blocked cells
    // (BOARD field 3). Without `to_move` the side to move follows from the stones (which must
    // be counts a game can reach); with it, that side moves whatever the counts.
    std::function<Expected<typename G::State>(const typename G::Variant&, const Stones& stones,
                                              const std::vector<Point>& blocked, std::optional<Side> to_move)>
        position;
    std::function<Point(const typename G::Move&)> coordinates;
};

struct PbrainIdentity {
    std::string name, version, author, country;
};

// Whether a line opens a pbrain session (managers send commands in capitals).
inline bool is_pbrain_command(std::string_view line) {
    const auto words = split_words(line);
    if (words.empty()) return false;
    for (std::string_view command :
         {"START", "RECTSTART", "BEGIN", "TURN", "BOARD", "INFO", "ABOUT", "END", "RESTART", "TAKEBACK", "SWAP2BOARD"})
        if (words[0] == command) return true;
    return false;
}

template <Game G>
class PbrainSession {
public:
    using State = typename G::State;
    using Variant = typename G::Variant;

    PbrainSession(PbrainHooks<G> hooks, PbrainIdentity identity, OptionRegistry& options, search::Player<G>& player,
                  Output& output)
        : hooks_(std::move(hooks)), identity_(std::move(identity)), options_(options), player_(player), out_(output) {}

    ~PbrainSession() {
        stop_.store(true);
        if (search_thread_.joinable()) search_thread_.join();
    }

    // Serves from `first_line` on, reading the rest from `input`; returns the exit status.
    int run(std::string_view first_line, LineReader& input) {
        Inbox inbox;
        inbox_ = &inbox;
        InputThread reading(input, inbox);
        const int status = serve(first_line, inbox);
        inbox_ = nullptr;
        return status;
    }

    // Handles one command now (reading a BOARD block's lines from the input); false means END.
    bool handle(std::string_view line) {
        try {
            return dispatch(line);
        } catch (const std::exception& e) {
            out_.line(fmt::format("ERROR internal error: {}", e.what()));
        }
        return true;
    }

private:
    // How long END waits for a search to notice the stop flag before the brain exits anyway.
    static constexpr std::chrono::milliseconds end_grace{1000};

    // The loop's thread: takes each line as it arrives and never waits on a search.
    int serve(std::string_view first_line, Inbox& inbox) {
        if (!accept(InputLine{std::string(first_line), false, first_line.size()})) return end();
        while (true) {
            const auto line = inbox.wait();
            drain();
            if (line && !accept(*line)) return end();
            // End of input: the move being thought about and the commands waiting for it still
            // run, as a script expects.
            if (inbox.at_end()) {
                drain();
                if (pending_.empty() && !thinking()) return 0;
            }
        }
    }

    // A line as it arrives; false means END.
    bool accept(const InputLine& line) {
        if (line.too_long) {
            out_.line(fmt::format("ERROR line too long ({} bytes); ignored", line.full_length));
            return true;
        }
        const auto words = split_words(line.text);
        if (words.empty()) return true;
        const std::string command = upper(words[0]);
        if (command == "END") return false;
        // Yixin's YXSTOP (and STOP): answer with the best move found so far; nothing when idle.
        if (command == "STOP" || command == "YXSTOP") {
            stop_.store(true);
            return true;
        }
        if (!pending_.push(line, line.text.size())) {
            out_.line(fmt::format("ERROR over {} MiB of commands wait for the move; ignored",
                                  CommandQueue<InputLine>::limit_bytes >> 20));
            return true;
        }
        drain();
        return true;
    }

    // Sends the move of a search that has ended; true while one runs.
    bool thinking() {
        if (search_thread_.joinable() && !searching_.load()) {
            search_thread_.join();
            last_move_sent_ = search::Clock::now();
            send_move();
        }
        return search_thread_.joinable();
    }

    // Sends the move of a search that has ended, then runs waiting commands in order until one
    // starts a search.
    void drain() {
        while (!thinking() && !pending_.empty()) {
            const InputLine line = pending_.pop();
            // A command that waited for a move is timed from when it could run.
            command_arrived_ = line.arrived < last_move_sent_ ? search::Clock::now() : line.arrived;
            if (!handle(line.text)) return;
        }
    }

    // END: the brain exits at once; a move still being thought about is not sent.
    int end() {
        pending_.clear();
        stop_search_for_exit(stop_, searching_, search_thread_, end_grace);
        return 0;
    }

    // The next line of a BOARD block: what waits in the queue first, then new input.
    std::optional<InputLine> next_block_line() {
        if (!pending_.empty()) return pending_.pop();
        return inbox_ ? inbox_->next_line() : std::nullopt;
    }

    static std::string upper(std::string_view text) {
        std::string result(text);
        for (char& c : result) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return result;
    }

    void error(std::string_view why) { out_.line(fmt::format("ERROR {}", why)); }

    // "x,y" with whole numbers.
    static std::optional<Point> parse_point(std::string_view text) {
        const std::size_t comma = text.find(',');
        if (comma == std::string_view::npos) return std::nullopt;
        auto x = parse_integer(text.substr(0, comma), 0, 10000, "x");
        auto y = parse_integer(text.substr(comma + 1), 0, 10000, "y");
        if (!x || !y) return std::nullopt;
        return Point{static_cast<int>(*x), static_cast<int>(*y)};
    }

    bool dispatch(std::string_view line) {
        const auto words = split_words(line);
        if (words.empty()) return true;
        const std::string command = upper(words[0]);
        const std::string argument = join_words(words, 1, words.size());
        if (command == "END") return false;
        if (command == "START")
            start(argument, true);
        else if (command == "RECTSTART")
            start(argument, false);
        else if (command == "RESTART")
            restart();
        else if (command == "BEGIN")
            begin();
        else if (command == "TURN")
            turn(argument);
        else if (command == "BOARD")
            board();
        else if (command == "INFO")
            info(words);
        else if (command == "TAKEBACK")
            takeback(argument);
        else if (command == "ABOUT")
            out_.line(fmt::format("name=\"{}\", version=\"{}\", author=\"{}\", country=\"{}\"", identity_.name,
                                  identity_.version, identity_.author, identity_.country));
        else
            out_.line(fmt::format("UNKNOWN command '{}'", excerpt(words[0])));
        return true;
    }

    void start(const std::string& argument, bool square) {
        int width = 0, height = 0;
        if (square) {
            auto size = parse_integer(argument, 1, 10000, "START size");
            if (!size) return error(size.error());
            width = height = static_cast<int>(*size);
        } else {
            const auto point = parse_point(argument);
            if (!point) return error(fmt::format("RECTSTART needs width,height, got '{}'", excerpt(argument)));
            width = point->first;
            height = point->second;
        }
        auto variant = hooks_.variant(width, height, rule_);
        if (!variant) return error(variant.error());
        variant_ = *variant;
        width_ = width;
        height_ = height;
        clear_board();
        player_.new_game();
        out_.line("OK");
    }

    void clear_board() {
        stones_[0].clear();
        stones_[1].clear();
        blocked_.clear();
        own_.reset();
        irregular_ = false;
    }

    void restart() {
        if (!variant_) return error("no board yet: send START first");
        clear_board();
        player_.new_game();
        out_.line("OK");
    }

    // `to_move` counts only on a board whose stone counts no game reaches (see board()).
    Expected<State> position_with(const Stones& stones, const std::vector<Point>& blocked,
                                  std::optional<Side> to_move) const {
        return hooks_.position(*variant_, stones, blocked, irregular_ ? to_move : std::nullopt);
    }

    void begin() {
        if (!variant_) return error("no board yet: send START first");
        if (!stones_[0].empty() || !stones_[1].empty()) return error("BEGIN needs an empty board");
        own_ = Side::first;
        irregular_ = false;
        think();
    }

    void turn(const std::string& argument) {
        if (!variant_) return error("no board yet: send START first");
        const auto point = parse_point(argument);
        if (!point) return error(fmt::format("TURN needs x,y, got '{}'", excerpt(argument)));
        auto now = position_with(stones_, blocked_, own_ ? std::optional(opponent(*own_)) : std::nullopt);
        if (!now) return error(now.error());
        // The opponent is whoever is to move; once the brain has a colour it must be the other.
        const Side own = own_.value_or(opponent(G::side_to_move(*now)));
        if (G::side_to_move(*now) == own) return error("it is the brain's turn, not the opponent's");
        if (auto status = check_free(*now, *point); !status) return error(status.error());
        auto stones = stones_;
        stones[static_cast<std::size_t>(index_of(opponent(own)))].push_back(*point);
        auto next = position_with(stones, blocked_, own);
        if (!next) return error(next.error());
        stones_ = stones;
        own_ = own;
        think();
    }

    Status check_free(const State&, Point point) const {
        if (point.first < 0 || point.second < 0 || point.first >= width_ || point.second >= height_)
            return make_error(
                fmt::format("{},{} is not on the {}x{} board", point.first, point.second, width_, height_));
        for (const auto& list : {stones_[0], stones_[1], blocked_})
            if (std::find(list.begin(), list.end(), point) != list.end())
                return make_error(fmt::format("{},{} is occupied", point.first, point.second));
        return success();
    }

    void board() {
        // Read the whole block first, so a bad line never leaves half a board.
        std::vector<Point> own_stones, their_stones, blocked;
        std::optional<std::string> problem;
        bool done = false;
        while (auto line = next_block_line()) {
            const auto words = split_words(line->text);
            if (words.empty()) continue;
            if (upper(words[0]) == "DONE") {
                done = true;
                // The move's clock starts with the block's end, read only now if it came later.
                command_arrived_ = std::max(command_arrived_, line->arrived);
                break;
            }
            if (problem) continue;
            const std::string text = join_words(words, 0, words.size());
            const std::size_t last = text.rfind(',');
            const auto point = last == std::string::npos ? std::nullopt : parse_point(text.substr(0, last));
            const auto field = last == std::string::npos ? Expected<std::int64_t>(make_error("no field"))
                                                         : parse_integer(text.substr(last + 1), 1, 3, "field");
            if (!point || !field) {
                problem = fmt::format("BOARD line '{}': expected x,y,field with field 1 (own), 2 (opponent) or 3",
                                      excerpt(text));
                continue;
            }
            if (point->first >= width_ || point->second >= height_) {
                problem = fmt::format("BOARD line '{}': {},{} is not on the {}x{} board", excerpt(text), point->first,
                                      point->second, width_, height_);
                continue;
            }
            for (const auto* list : {&own_stones, &their_stones, &blocked})
                if (std::find(list->begin(), list->end(), *point) != list->end())
                    problem = fmt::format("BOARD line '{}': {},{} is given twice", excerpt(text), point->first,
                                          point->second);
            (*field == 1 ? own_stones : *field == 2 ? their_stones : blocked).push_back(*point);
        }
        if (!done) return;  // end of input inside the block: nothing to answer
        if (!variant_) return error("no board yet: send START first");
        if (problem) return error(*problem);
        // The brain is to move. With counts a game reaches its colour follows (as many stones
        // as the opponent: first player; one fewer: second). Other counts come from analysis
        // boards and managers' set-ups, and the brain still plays: the side with more stones is
        // the first player (Black, whom renju restricts), the brain on equal counts.
        Side own;
        bool irregular = false;
        if (own_stones.size() == their_stones.size()) {
            own = Side::first;
        } else if (their_stones.size() == own_stones.size() + 1) {
            own = Side::second;
        } else {
            own = own_stones.size() > their_stones.size() ? Side::first : Side::second;
            irregular = true;
        }
        Stones stones;
        stones[static_cast<std::size_t>(index_of(own))] = own_stones;
        stones[static_cast<std::size_t>(index_of(opponent(own)))] = their_stones;
        const bool was_irregular = irregular_;
        irregular_ = irregular;
        auto position = position_with(stones, blocked, own);
        irregular_ = was_irregular;
        if (!position) return error(position.error());
        if (const Outcome outcome = G::outcome(*position); outcome.is_over())
            return error(fmt::format("the game on that board is over ({})", G::result_text(*position, outcome)));
        stones_ = stones;
        blocked_ = blocked;
        own_ = own;
        irregular_ = irregular;
        think();
    }

    void takeback(const std::string& argument) {
        if (!variant_) return error("no board yet: send START first");
        const auto point = parse_point(argument);
        if (!point) return error(fmt::format("TAKEBACK needs x,y, got '{}'", excerpt(argument)));
        for (auto& list : stones_) {
            auto found = std::find(list.begin(), list.end(), *point);
            if (found == list.end()) continue;
            auto stones = stones_;
            const auto colour = static_cast<Side>(&list - stones_.data());
            auto& edited = stones[static_cast<std::size_t>(index_of(colour))];
            edited.erase(edited.begin() + (found - list.begin()));
            // The side whose stone is taken back moves again.
            if (auto position = position_with(stones, blocked_, colour); !position) return error(position.error());
            stones_ = stones;
            return out_.line("OK");
        }
        error(fmt::format("TAKEBACK {},{}: there is no stone there", point->first, point->second));
    }

    void info(const std::vector<std::string_view>& words) {
        if (words.size() < 2) return;  // the protocol says to ignore what is not understood
        const std::string key(words[1]);
        const std::string value = join_words(words, 2, words.size());
        // A time that does not parse is ignored, and one out of range clamped, each with a MESSAGE
        // saying so: the manager still gets a move for every turn (docs/protocol.md).
        auto number = [&]() {
            auto n = parse_integer(value, std::numeric_limits<std::int64_t>::min(),
                                   std::numeric_limits<std::int64_t>::max(), "INFO " + key);
            if (!n) out_.line(fmt::format("MESSAGE {}; ignored", n.error()));
            return n;
        };
        auto time = [&]() -> std::optional<std::int64_t> {
            auto n = number();
            if (!n) return std::nullopt;
            constexpr std::int64_t big = std::int64_t{1} << 50;
            const std::int64_t clamped = std::clamp<std::int64_t>(*n, 0, big);
            if (clamped != *n) out_.line(fmt::format("MESSAGE INFO {} {} is out of range (0 to {}); using {}", key, *n, big, clamped));
            return clamped;
        };
        if (key == "timeout_turn") {
            if (auto n = time()) timeout_turn_ = *n;
        } else if (key == "timeout_match") {
            if (auto n = time()) {
                timeout_match_ = *n;
                timeout_match_set_ = true;
            }
        } else if (key == "time_left") {
            if (auto n = time()) time_left_ = *n;
        } else if (key == "max_memory") {
            if (auto n = number(); n && *n > 0) limit_memory(*n);
        } else if (key == "thread_num") {
            // Yixin-Board's key, also sent by newer Gomocup managers: the engine's Threads.
            if (auto n = number()) {
                const Option* threads = options_.find("Threads");
                if (!threads) return;
                const std::int64_t clamped = std::clamp<std::int64_t>(*n, threads->min, threads->max);
                if (clamped != *n)
                    out_.line(fmt::format("MESSAGE INFO thread_num {} is out of range ({} to {}); using {}", *n,
                                          threads->min, threads->max, clamped));
                (void)options_.assign("Threads", std::to_string(clamped));
            }
        } else if (key == "rule") {
            auto n = number();
            if (!n) return;
            const int previous = rule_;
            rule_ = static_cast<int>(*n);
            if (variant_) {
                auto variant = hooks_.variant(width_, height_, rule_);
                if (!variant) {
                    rule_ = previous;
                    return error(variant.error());
                }
                variant_ = *variant;
            }
        }
        // game_type, folder, evaluate and anything else: nothing to do.
    }

    // A share of max_memory for each table the players size from options.
    void limit_memory(std::int64_t bytes) {
        const std::int64_t mib = bytes / (1024 * 1024);
        for (const auto& [name, share] : {std::pair<std::string_view, int>{"Hash", 3}, {"MctsMemory", 3}}) {
            const Option* option = options_.find(name);
            if (!option) continue;
            const std::int64_t wanted = std::clamp<std::int64_t>(mib / share, option->min, option->max);
            if (wanted < option->as_integer()) (void)options_.assign(name, std::to_string(wanted));
        }
    }

    search::Limits limits() const {
        search::Limits limits;
        // timeout_turn 0 means "as fast as possible"; a match clock caps the share of a move.
        std::int64_t budget = timeout_turn_ > 0 ? timeout_turn_ : 100;
        if (time_left_ && (timeout_match_ > 0 || !timeout_match_set_))
            budget = std::min(budget, std::max<std::int64_t>(1, *time_left_ / 12));
        limits.move_time_ms = std::max<std::int64_t>(1, budget - latency_ms);
        return limits;
    }

    // Starts the search for the brain's move; send_move() answers once it has ended.
    void think() {
        auto position = position_with(stones_, blocked_, own_);
        if (!position) return error(position.error());
        if (const Outcome outcome = G::outcome(*position); outcome.is_over())
            return error(fmt::format("the game is over ({}); no move to make", G::result_text(*position, outcome)));
        search::SearchRequest<G> request;
        request.root = *position;
        request.history = {G::hash(*position)};
        request.limits = limits();
        request.limits.reserve_ms = lateness_.reserve_ms();
        player_.plan_limits(request.limits, request.root);
        request.start = command_arrived_;
        stop_.store(false);
        failure_.reset();
        searching_.store(true);
        search_thread_ = std::thread([this, request = std::move(request)] {
            search::SearchControl<G> control;
            control.stop = &stop_;
            control.report = [this, &request](const search::Report<G>& report) {
                out_.line("MESSAGE " + format_info<G>(report, request.root).substr(5));
            };
            try {
                result_ = player_.search(request, control);
            } catch (const std::exception& e) {
                failure_ = e.what();
            } catch (...) {
                failure_ = "unknown exception";
            }
            root_ = request.root;
            if (const auto budget = search::plan_time(request.limits, G::side_to_move(request.root), request.start);
                budget.hard)
                lateness_.record(
                    std::chrono::duration_cast<std::chrono::milliseconds>(search::Clock::now() - *budget.hard).count());
            searching_.store(false);
            if (inbox_) inbox_->wake();
        });
    }

    void send_move() {
        if (failure_) return out_.line(fmt::format("ERROR internal error: {}", *failure_));
        typename G::Move best = result_.best;
        if (!result_.has_move) {
            MoveList<G> moves;
            G::generate_moves(*root_, moves);
            if (moves.empty()) return error("no legal move");
            best = moves[0];
        }
        const Point point = hooks_.coordinates(best);
        stones_[static_cast<std::size_t>(index_of(G::side_to_move(*root_)))].push_back(point);
        out_.line(fmt::format("{},{}", point.first, point.second));
    }

    static constexpr std::int64_t latency_ms = 30;

    PbrainHooks<G> hooks_;
    PbrainIdentity identity_;
    OptionRegistry& options_;
    search::Player<G>& player_;
    Output& out_;
    Inbox* inbox_ = nullptr;  // while run() serves: the search wakes it as it ends
    CommandQueue<InputLine> pending_;
    search::Clock::time_point command_arrived_;  // when the command being handled (or its DONE) was read
    search::Clock::time_point last_move_sent_;   // when the last search was joined
    search::LatenessTracker lateness_;           // written by the search thread before it ends
    std::thread search_thread_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> searching_{false};
    search::SearchResult<G> result_;  // written by the search thread, read after the join
    std::optional<std::string> failure_;
    std::optional<State> root_;
    std::optional<Variant> variant_;
    int width_ = 0, height_ = 0;
    int rule_ = 0;
    Stones stones_;
    std::vector<Point> blocked_;
    std::optional<Side> own_;
    bool irregular_ = false;  // the stone counts are none a game reaches: the turn is tracked here
    std::int64_t timeout_turn_ = 5000;
    std::int64_t timeout_match_ = 0;
    bool timeout_match_set_ = false;
    std::optional<std::int64_t> time_left_;
};

}  // namespace bge::protocol
