#pragma once
// The one engine loop, shared by every game: reads commands, keeps the position, runs searches
// on their own thread, and answers in the TEI or UGI dialect (docs/protocol.md).
//
// Threads: input is read on its own thread (protocol/input_thread.hpp); the caller's thread takes
// each line as it comes and never waits on a search; each `go` runs on a search thread. A `go`
// that arrives during a search is queued, with every command after it, and they run in order
// once the search ends (a queued `go` in turn holds the commands behind it until its bestmove);
// `stop`, `quit`, `isready`, `ponderhit`, `debug` and `query` are handled at once, queue or not.
// Commands that change what a search uses (setoption, new game, bench), sent during a search,
// stop it and run after its `bestmove`. Exactly one `bestmove` follows each accepted `go`, also
// one that `stop` drops from the queue.
//
// Bad input never stops the loop: each problem gets one `info string error: ...` line and leaves
// the state as it was.

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/game.hpp"
#include "core/game_record.hpp"
#include "core/perft.hpp"
#include "protocol/engine_spec.hpp"
#include "protocol/go_limits.hpp"
#include "protocol/info.hpp"
#include "protocol/input_thread.hpp"
#include "protocol/line_reader.hpp"
#include "protocol/options.hpp"
#include "protocol/output.hpp"
#include "protocol/search_options.hpp"
#include "protocol/search_queue.hpp"
#include "protocol/test_suite.hpp"
#include "protocol/text.hpp"
#include "search/limits.hpp"
#include "search/player.hpp"

namespace bge::protocol {

template <Game G>
class EngineLoop {
public:
    using State = typename G::State;
    using Move = typename G::Move;

    EngineLoop(EngineSpec<G> spec, Output& output) : spec_(std::move(spec)), out_(output) {
        dialect_ = spec_.default_dialect;
        add_search_options(options_, spec_.hash_default_mib);
        if (spec_.add_options) spec_.add_options(options_);
        std::vector<std::string> names;
        for (const auto& entry : spec_.players) names.push_back(entry.name);
        options_.add_combo("Player", spec_.default_player, names, "the search algorithm that plays");
        make_player();
    }

    ~EngineLoop() { stop_search(); }

    // Runs until `quit` or the end of input. With arguments, runs each as a command and exits,
    // as Stockfish does (`tak bench`, `tak "position startpos" "go perft 4"`).
    int run(const std::vector<std::string>& commands, int input_fd = 0) {
        Inbox inbox;
        if (!commands.empty()) {
            for (const auto& command : commands) inbox.post(InputLine{command, false, command.size()});
            inbox.close();
            return serve(inbox);
        }
        LineReader reader(input_fd);
        // The first command may hand the session to another protocol (pbrain). It is read before
        // the reading thread starts, so the other protocol gets the rest of the input untouched.
        while (auto line = reader.next()) {
            if (line->too_long) {
                report_too_long(*line);
                continue;
            }
            if (split_words(line->text).empty()) continue;
            if (spec_.take_over && player_)
                if (const auto status = spec_.take_over(line->text, reader, options_, *player_)) return *status;
            inbox.post(std::move(*line));
            InputThread input(reader, inbox);
            return serve(inbox);
        }
        inbox.close();
        return serve(inbox);
    }

    // Runs one command now, queue or not; false means quit.
    bool handle(std::string_view line, bool dropped = false,
                std::chrono::steady_clock::time_point arrived = std::chrono::steady_clock::now()) {
        command_arrived_ = arrived;
        try {
            return dispatch(line, dropped);
        } catch (const std::exception& e) {
            out_.error(fmt::format("internal error while handling '{}': {}", excerpt(line), e.what()));
        } catch (...) {
            out_.error(fmt::format("internal error while handling '{}'", excerpt(line)));
        }
        return true;
    }

    const OptionRegistry& options() const { return options_; }

private:
    // A command waiting behind a search; `stop` drops the `go`s among them (dropped).
    struct Queued {
        std::string line;
        bool is_go = false;
        bool dropped = false;
        std::chrono::steady_clock::time_point arrived;
    };

    // How long `quit` waits for the running search to print its bestmove. Searches stop within
    // milliseconds; only a long step that does not look at the stop flag takes longer.
    static constexpr std::chrono::milliseconds quit_grace{1000};

    // ---------------------------------------------------------------------------------------
    // Input and the queue

    // The loop's thread: takes each line as it arrives, and never waits on a search.
    int serve(Inbox& inbox) {
        inbox_ = &inbox;
        while (true) {
            const auto line = inbox.wait();
            drain();
            if (line && !accept(*line)) return quit();
            if (inbox.at_end()) {
                // End of input: queued commands still run, each search to its end; nobody is
                // left to stop one with no limit.
                input_ended_ = true;
                drain();
                if (search_running() && unbounded_) stop_.store(true);
                if (pending_.empty() && !search_running()) break;
            }
        }
        inbox_ = nullptr;
        return 0;
    }

    void report_too_long(const InputLine& line) {
        out_.error(fmt::format("line too long ({} bytes; the limit is {}); ignored", line.full_length,
                               LineReader::default_limit));
    }

    // A line as it arrives; false means quit.
    bool accept(const InputLine& line) {
        if (line.too_long) {
            report_too_long(line);
            return true;
        }
        const auto words = split_words(line.text);
        if (words.empty()) return true;
        const std::string_view command = words[0];
        if (command == "quit") return false;
        if (command == "stop") {
            stop_.store(true);
            pending_.for_each([](Queued& queued) { queued.dropped = queued.dropped || queued.is_go; });
            return true;
        }
        if (command == "isready" || command == "ponderhit" || command == "debug" || command == "query")
            return handle(line.text, false, line.arrived);
        if (pending_.empty() && search_running()) {
            // `position`, `d` and the like do not disturb a search: with nothing queued they run now.
            if (!waits_for_search(command)) return handle(line.text, false, line.arrived);
            // The others queue; those that change what a search uses end it first, and so does a
            // `go` sent during a `go` with no limit. Behind a queued `go` they wait without ending its search.
            if (command != "go" || unbounded_) stop_.store(true);
        }
        if (!pending_.push(Queued{line.text, command == "go", false, line.arrived}, line.text.size())) {
            out_.error(fmt::format("over {} MiB of commands wait for the search; '{}' ignored",
                                   CommandQueue<Queued>::limit_bytes >> 20, excerpt(line.text)));
            return true;
        }
        drain();
        return true;
    }

    // Joins a search that has ended; true while one runs.
    bool search_running() {
        if (search_thread_.joinable() && !searching_.load()) {
            search_thread_.join();
            last_search_end_ = std::chrono::steady_clock::now();
        }
        return search_thread_.joinable();
    }

    // Commands that cannot run beside a search: a second search, and what changes what a search
    // uses. They wait for its bestmove in the queue, and so does everything after them.
    static bool waits_for_search(std::string_view command) {
        return command == "go" || command == "setoption" || command == "teinewgame" || command == "uginewgame" ||
               command == "bench" || command == "suite";
    }

    // Runs queued commands in order while no search runs. A queued `go` holds the rest until its
    // own bestmove, so a piped script means the same however fast it arrives.
    void drain() {
        while (!pending_.empty() && !search_running()) {
            const Queued queued = pending_.pop();
            // A command that waited for a search is timed from when it could run, so a script
            // piping `go depth 8` then `go movetime 1000` gets its second search whole.
            const auto now = std::chrono::steady_clock::now();
            handle(queued.line, queued.dropped, queued.arrived < last_search_end_ ? now : queued.arrived);
        }
    }

    // `quit`: the running search stops and prints its bestmove; queued commands are dropped. A
    // running `go perft` is a count, not a search: it finishes first, as a piped script expects.
    int quit() {
        pending_.clear();
        if (perft_running_.load()) join_search();
        stop_search_for_exit(stop_, searching_, search_thread_, quit_grace);
        inbox_ = nullptr;
        return 0;
    }

    // ---------------------------------------------------------------------------------------
    // Commands

    bool dispatch(std::string_view line, bool dropped) {
        const auto words = split_words(line);
        if (words.empty()) return true;
        const std::string_view command = words[0];
        if (command == "quit") {
            stop_search();
            return false;
        }
        if (command == "isready")
            out_.line("readyok");
        else if (command == "stop")
            stop_search();
        else if (command == "tei")
            handshake(Dialect::tei);
        else if (command == "ugi")
            handshake(Dialect::ugi);
        else if (command == "teinewgame" || command == "uginewgame")
            new_game(words);
        else if (command == "setoption")
            set_option(words);
        else if (command == "position")
            set_position(words);
        else if (command == "go")
            go(words, dropped);
        else if (command == "query")
            query(words);
        else if (command == "d")
            draw();
        else if (command == "bench")
            bench(words);
        else if (command == "suite")
            suite(words);
        else if (command == "debug" || command == "ponderhit") {
        }  // accepted and ignored, as UCI engines do
        else
            out_.error(fmt::format("unknown command '{}'", excerpt(command)));
        return true;
    }

    // ---------------------------------------------------------------------------------------
    // Handshake and options

    void handshake(Dialect dialect) {
        dialect_ = dialect;
        out_.line(fmt::format("id name {} {}", spec_.name, spec_.version));
        out_.line(fmt::format("id author {}", spec_.author));
        for (const auto& option : options_.all()) out_.line(option.declaration());
        out_.line(dialect == Dialect::tei ? "teiok" : "ugiok");
    }

    void set_option(const std::vector<std::string_view>& words) {
        // setoption name <name words...> [value <value words...>]
        if (words.size() < 3 || words[1] != "name")
            return out_.error("setoption needs: setoption name <name> value <value>");
        std::size_t value_at = words.size();
        for (std::size_t i = 2; i < words.size(); ++i)
            if (words[i] == "value") {
                value_at = i;
                break;
            }
        const std::string name = join_words(words, 2, value_at);
        const std::string value = value_at < words.size() ? join_words(words, value_at + 1, words.size()) : "";
        const Option* option = options_.find(name);
        if (!option) return out_.error(fmt::format("no option named '{}'", excerpt(name)));
        if (option->type != OptionType::button && value_at == words.size())
            return out_.error(fmt::format("setoption {} needs a value", option->name));
        stop_search();
        const std::string previous_player = options_.text("Player");
        if (auto status = options_.set(name, value); !status) return out_.error(status.error());
        if (equals_ignoring_case(name, "Player") && options_.text("Player") != previous_player) make_player();
    }

    void make_player() {
        const std::string& wanted = options_.text("Player");
        for (const auto& entry : spec_.players)
            if (entry.name == wanted) {
                player_ = entry.make(options_);
                return;
            }
    }

    void new_game(const std::vector<std::string_view>& words) {
        stop_search();
        if (words.size() > 2) return out_.error(fmt::format("{} takes at most one argument", words[0]));
        if (words.size() == 2) {
            if (!spec_.new_game_argument) return out_.error(fmt::format("{} takes no argument here", words[0]));
            if (auto status = spec_.new_game_argument(options_, words[1]); !status) return out_.error(status.error());
        }
        game_.reset();
        if (player_) player_->new_game();
    }

    // ---------------------------------------------------------------------------------------
    // Position

    void set_position(const std::vector<std::string_view>& words) {
        if (words.size() < 2) return out_.error("position needs startpos, tps <tps> or fen <fen>");
        auto variant = spec_.variant(options_);
        if (!variant) return out_.error(variant.error());
        std::size_t moves_at = words.size();
        for (std::size_t i = 1; i < words.size(); ++i)
            if (words[i] == "moves") {
                moves_at = i;
                break;
            }
        std::optional<State> start;
        if (words[1] == "startpos") {
            if (words.size() > 2 && moves_at != 2)
                return out_.error(fmt::format("position startpos: expected 'moves', got '{}'", excerpt(words[2])));
            start = G::start_state(*variant);
        } else if (words[1] == "tps" || words[1] == "fen") {
            const std::string text = join_words(words, 2, moves_at);
            if (text.empty()) return out_.error(fmt::format("position {} needs a position", words[1]));
            auto parsed = G::parse_position(*variant, text);
            if (!parsed) return out_.error(fmt::format("bad position '{}': {}", excerpt(text), parsed.error()));
            start = *parsed;
        } else {
            return out_.error(fmt::format("position needs startpos, tps or fen, got '{}'", excerpt(words[1])));
        }
        GameRecord<G> record(*start);
        for (std::size_t i = moves_at + 1; i < words.size(); ++i) {
            if (auto status = record.play_text(words[i]); !status)
                return out_.error(fmt::format("move {} ('{}') in the move list: {}; position unchanged", i - moves_at,
                                              excerpt(words[i]), status.error()));
        }
        game_.emplace(std::move(record));
    }

    void draw() {
        if (!game_) return out_.error("no position set; send position first");
        const std::string board = G::draw_board(game_->current(), game_->outcome());
        std::size_t start = 0;
        while (start <= board.size()) {
            const std::size_t end = board.find('\n', start);
            out_.line(board.substr(start, end == std::string::npos ? std::string::npos : end - start));
            if (end == std::string::npos) break;
            start = end + 1;
        }
    }

    std::string_view query_names() const {
        return spec_.score_text ? "p1turn, gameover, result, score" : "p1turn, gameover, result";
    }

    void query(const std::vector<std::string_view>& words) {
        if (words.size() != 2) return out_.error(fmt::format("query needs one of: {}", query_names()));
        if (!game_) return out_.error("no position set; send position first");
        const Outcome outcome = game_->outcome();
        if (words[1] == "p1turn")
            out_.line(G::side_to_move(game_->current()) == Side::first ? "response true" : "response false");
        else if (words[1] == "gameover")
            out_.line(outcome.is_over() ? "response true" : "response false");
        else if (words[1] == "result") {
            if (!outcome.is_over())
                out_.line("response none");
            else if (outcome.kind == OutcomeKind::draw)
                out_.line("response draw");
            else
                out_.line(outcome.winner == Side::first ? "response p1win" : "response p2win");
        } else if (words[1] == "score" && spec_.score_text) {
            const auto text = spec_.score_text(game_->current(), outcome);
            if (!text) return out_.error("query score: this position has no score");
            out_.line("response " + *text);
        } else
            out_.error(fmt::format("query needs one of: {}; got '{}'", query_names(), excerpt(words[1])));
    }

    // ---------------------------------------------------------------------------------------
    // Search

    // `dropped`: a `go` that `stop` took off the queue; it is answered at once, without a search.
    // Every `go` gets exactly one answer: `bestmove` (`nodes` for `go perft`), after an error line
    // where there is nothing to search, because a client waits for it (docs/protocol.md).
    void go(const std::vector<std::string_view>& words, bool dropped) {
        join_search();  // serve() sends a `go` only once no search runs
        GoRequest parsed = parse_go(words);
        for (const auto& warning : parsed.warnings) out_.line("info string " + warning);
        const search::Limits& limits = parsed.limits;
        const bool perft = parsed.perft_depth.has_value();
        auto refuse = [&](const std::string& why) {
            out_.error(why);
            out_.line(perft ? "nodes 0" : "bestmove none");
        };
        if (!game_) return refuse("no position set; send position before go");
        if (perft) return dropped ? out_.line("nodes 0") : start_perft(*parsed.perft_depth);
        if (const Outcome outcome = game_->outcome(); outcome.is_over())
            return refuse(
                fmt::format("the game is over ({}); nothing to search", G::result_text(game_->current(), outcome)));
        if (is_chance_node<G>(game_->current()))
            return refuse("a roll is due: the engine never rolls; send the position with its roll");
        if (!player_) return refuse("no player selected");
        if (dropped) return out_.line("bestmove " + any_move(game_->current()));

        search::SearchRequest<G> request;
        request.root = game_->current();
        request.history = game_->hashes();
        request.limits = limits;
        request.limits.reserve_ms = lateness_.reserve_ms();
        player_->plan_limits(request.limits, request.root);
        request.start = command_arrived_;
        // Only `stop` ends a search with no limit; after the end of input nobody is left to send it.
        unbounded_ = parsed.unbounded(G::side_to_move(request.root));
        stop_.store(unbounded_ && input_ended_);
        searching_ = true;
        search_thread_ = std::thread([this, request = std::move(request)] { run_search(request); });
    }

    // The first legal move in generation order: the answer when there is no search result.
    static std::string any_move(const State& position) {
        MoveList<G> moves;
        G::generate_moves(position, moves);
        return moves.empty() ? "none" : G::format_move(position, moves[0]);
    }

    void run_search(const search::SearchRequest<G>& request) {
        search::SearchControl<G> control;
        control.stop = &stop_;
        const State root = request.root;
        control.report = [this, &root](const search::Report<G>& report) { out_.line(format_info<G>(report, root)); };
        std::string best;
        try {
            const auto result = player_->search(request, control);
            if (result.has_move) best = G::format_move(root, result.best);
        } catch (const std::exception& e) {
            out_.error(fmt::format("search failed: {}", e.what()));
        }
        // UCI: an infinite search answers only after `stop`, even when it ended early (a proven
        // result, a full tree). Whatever ends one (stop, go, setoption, quit, end of input) sets stop_.
        if (request.limits.infinite)
            while (!stop_.load()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        // Exactly one bestmove per go, even if the search failed: any legal move.
        if (best.empty()) best = any_move(root);
        if (const auto budget = search::plan_time(request.limits, G::side_to_move(root), request.start); budget.hard)
            lateness_.record(std::chrono::duration_cast<std::chrono::milliseconds>(search::Clock::now() - *budget.hard)
                                 .count());
        // Cleared before the line goes out, so a client's next `go` never waits behind this search.
        searching_ = false;
        out_.line("bestmove " + best);
        if (inbox_) inbox_->wake();
    }

    void start_perft(int depth) {
        const State root = game_->current();
        stop_.store(false);
        searching_ = true;
        unbounded_ = false;
        perft_running_ = true;
        search_thread_ = std::thread([this, root, depth] {
            State position = root;
            const auto start = std::chrono::steady_clock::now();
            // Root moves one at a time, so each count is printed as it is known and `stop` cuts
            // a long perft short.
            const auto division = perft_divide<G>(
                position, depth,
                [&](const Move& move, std::uint64_t count) {
                    out_.line(fmt::format("{} {}", G::format_move(root, move), count));
                },
                [this] { return stop_.load(std::memory_order_relaxed); });
            if (division.stopped)
                out_.line(
                    fmt::format("info string perft stopped after {} of {} moves", division.counted, division.moves));
            const std::uint64_t total = division.total;
            const auto ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
            Output::log(fmt::format("perft {}: {} leaves in {} ms ({} leaves/s)", depth, total, ms,
                                    total * 1000 / static_cast<std::uint64_t>(std::max<std::int64_t>(1, ms))));
            perft_running_ = false;
            searching_ = false;
            out_.line(fmt::format("nodes {}", total));
            if (inbox_) inbox_->wake();
        });
    }

    // `bench [depth]`: the spec's positions, each searched from a fresh game by the current player
    // to fixed limits, then the totals and a signature. It runs on the search thread like a `go`:
    // `isready` is answered meanwhile, and `stop` or `quit` ends it without totals.
    void bench(const std::vector<std::string_view>& words) {
        stop_search();
        int depth = spec_.bench_depth;
        if (words.size() > 2) return out_.error("bench takes at most one argument: the depth");
        if (words.size() == 2) {
            auto parsed = parse_integer(words[1], 1, 64, "bench depth");
            if (!parsed) return out_.error(parsed.error());
            depth = static_cast<int>(*parsed);
        }
        if (!player_) return out_.error("no player selected");
        auto variant = spec_.variant(options_);
        if (!variant) return out_.error(variant.error());
        std::vector<State> positions;
        for (std::size_t i = 0; i < spec_.bench_positions.size(); ++i) {
            auto position = G::parse_position(*variant, spec_.bench_positions[i]);
            if (!position) return out_.error(fmt::format("bench position {}: {}", i + 1, position.error()));
            positions.push_back(std::move(*position));
        }
        run_on_search_thread([this, depth, positions = std::move(positions)] { run_bench(positions, depth); });
    }

    // Runs a bounded job (bench, suite) on the search thread, as a `go` runs: `isready` is
    // answered meanwhile and `stop` ends it.
    void run_on_search_thread(std::function<void()> job) {
        stop_.store(false);
        searching_ = true;
        unbounded_ = false;
        search_thread_ = std::thread([this, job = std::move(job)] {
            job();
            searching_ = false;
            if (inbox_) inbox_->wake();
        });
    }

    // One search of `position` as the root of a new game, with no report (bench, suite); nullopt
    // when `stop` ended it, and then the player forgets it.
    std::optional<search::SearchResult<G>> search_alone(const State& position, const search::Limits& limits) {
        player_->new_game();
        search::SearchRequest<G> request;
        request.root = position;
        request.history = {G::hash(position)};
        request.limits = limits;
        request.start = search::Clock::now();
        search::SearchControl<G> control;
        control.stop = &stop_;
        auto result = player_->search(request, control);
        if (stop_.load()) {
            player_->new_game();
            return std::nullopt;
        }
        return result;
    }

    void run_bench(const std::vector<State>& positions, int depth) {
        std::uint64_t total_nodes = 0;
        // Each position's best move, score and node count, hashed: any change in what the search
        // does shows here, also for searches whose node count is fixed (MCTS iterations).
        std::uint64_t signature = 0xB3C4D5E6F7A81929ULL;
        const auto start = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < positions.size(); ++i) {
            const State& position = positions[i];
            const auto position_start = search::Clock::now();
            const auto found = search_alone(position, player_->bench_limits(depth));
            if (!found) {
                out_.line(fmt::format("info string bench stopped in position {} of {}", i + 1, positions.size()));
                return;
            }
            const auto& result = *found;
            total_nodes += result.nodes;
            const std::string best = result.has_move ? G::format_move(position, result.best) : "none";
            for (const char c : fmt::format("{} {} {};", best, result.score, result.nodes))
                signature = (signature ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
            const auto position_ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(search::Clock::now() - position_start).count();
            Output::log(fmt::format("bench position {}/{}: {} nodes, {} ms, best {}", i + 1, positions.size(),
                                    result.nodes, position_ms, best));
        }
        player_->new_game();
        const auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
        out_.line(fmt::format("Total time (ms) : {}", ms));
        out_.line(fmt::format("Nodes searched  : {}", total_nodes));
        out_.line(fmt::format("Nodes/second    : {}",
                              total_nodes * 1000 / static_cast<std::uint64_t>(std::max<std::int64_t>(1, ms))));
        out_.line(fmt::format("Signature       : {:016x}", signature));
    }

    // `suite FILE [SECONDS...]` (protocol/test_suite.hpp): every position of the file searched from
    // a fresh game by the current player at each time limit (0.1, 1 and 10 s by default), then how
    // many it solved within each. A forced win proven at one limit counts for the longer ones
    // without another search. Like `bench` it runs on the search thread, and `stop` ends it.
    void suite(const std::vector<std::string_view>& words) {
        stop_search();
        if (words.size() < 2) return out_.error("suite needs a file: suite FILE [SECONDS...]");
        auto times = parse_suite_times({words.begin() + 2, words.end()});
        if (!times) return out_.error(times.error());
        if (!player_) return out_.error("no player selected");
        const std::string path(words[1]);
        // A regular file of sane size only: `suite /dev/zero` must not read forever.
        constexpr std::uintmax_t max_suite_bytes = 64u << 20;
        std::error_code code;
        if (!std::filesystem::is_regular_file(path, code))
            return out_.error(fmt::format("suite: cannot read '{}'", excerpt(path)));
        if (std::filesystem::file_size(path, code) > max_suite_bytes)
            return out_.error(fmt::format("suite: '{}' is larger than 64 MiB", excerpt(path)));
        std::ifstream file(path, std::ios::binary);
        if (!file) return out_.error(fmt::format("suite: cannot read '{}'", excerpt(path)));
        const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        std::vector<std::string> problems;
        auto entries = parse_suite(text, problems);
        for (const std::string& problem : problems) out_.error(fmt::format("suite {}: {}", excerpt(path), problem));
        if (entries.empty()) return out_.error(fmt::format("suite: no positions in '{}'", excerpt(path)));
        run_on_search_thread(
            [this, times = std::move(*times), entries = std::move(entries)] { run_suite(entries, times); });
    }

    void run_suite(const std::vector<SuiteEntry>& entries, const std::vector<std::int64_t>& times) {
        std::vector<int> solved(times.size(), 0), proven(times.size(), 0), moved(times.size(), 0);
        int runnable = 0;
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const SuiteEntry& entry = entries[i];
            const std::string name = entry.id.empty() ? fmt::format("line {}", entry.line_number) : entry.id;
            auto refuse = [&](const std::string& why) {
                out_.error(fmt::format("suite {}: {}; left out", excerpt(name), why));
            };
            Status set = success();
            for (const auto& [option, value] : entry.options)
                if (set = options_.assign(option, value); !set) break;
            if (!set) {
                refuse(set.error());
                continue;
            }
            auto variant = spec_.variant(options_);
            if (!variant) {
                refuse(variant.error());
                continue;
            }
            auto position = G::parse_position(*variant, entry.position);
            if (!position) {
                refuse(position.error());
                continue;
            }
            std::vector<typename G::Move> best_moves;
            bool moves_read = true;
            for (const std::string& text : entry.best_moves) {
                auto move = G::parse_move(*position, text);
                if (!move) {
                    refuse(fmt::format("bm {}: {}", excerpt(text), move.error()));
                    moves_read = false;
                    break;
                }
                best_moves.push_back(*move);
            }
            if (!moves_read) continue;
            ++runnable;
            std::string log = fmt::format("suite {}/{} ({}):", i + 1, entries.size(), name);
            bool won = false;
            for (std::size_t t = 0; t < times.size(); ++t) {
                if (won) {  // a proof does not go away with more time
                    ++solved[t], ++proven[t];
                    continue;
                }
                search::Limits limits;
                limits.move_time_ms = times[t];
                const auto found = search_alone(*position, limits);
                if (!found) {
                    out_.line(fmt::format("info string suite stopped in position {} of {}", i + 1, entries.size()));
                    return;
                }
                const auto& result = *found;
                SuiteAttempt attempt;
                attempt.proven_win = result.score >= search::win_threshold;
                attempt.best_move = result.has_move && std::find(best_moves.begin(), best_moves.end(), result.best) !=
                                                           best_moves.end();
                won = attempt.proven_win;
                solved[t] += attempt.solved();
                proven[t] += attempt.proven_win;
                moved[t] += attempt.best_move;
                log += fmt::format(" {} {}{}", suite_time_text(times[t]),
                                   result.has_move ? G::format_move(*position, result.best) : "none",
                                   attempt.proven_win ? " (win)" : attempt.best_move ? " (bm)" : "");
            }
            Output::log(log);
        }
        player_->new_game();
        out_.line(fmt::format("Positions       : {}", runnable));
        for (std::size_t t = 0; t < times.size(); ++t)
            out_.line(fmt::format("Solved in {:<6}: {} ({:.1f} %; a win proven in {}, the best move in {})",
                                  suite_time_text(times[t]), solved[t],
                                  100.0 * solved[t] / std::max(1, runnable), proven[t], moved[t]));
    }

    void join_search() {
        if (search_thread_.joinable()) search_thread_.join();
    }

    void stop_search() {
        stop_.store(true);
        join_search();
    }

    EngineSpec<G> spec_;
    Output& out_;
    OptionRegistry options_;
    Dialect dialect_;
    std::optional<GameRecord<G>> game_;
    std::unique_ptr<search::Player<G>> player_;
    std::thread search_thread_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> searching_{false};
    std::atomic<bool> unbounded_{false};     // the running search has no limit: only stop ends it
    std::atomic<bool> perft_running_{false};  // the running "search" is a go perft
    Inbox* inbox_ = nullptr;              // while serve() runs: searches wake it as they end
    std::chrono::steady_clock::time_point command_arrived_;  // when the command being handled was read
    std::chrono::steady_clock::time_point last_search_end_;  // when the last search was joined
    search::LatenessTracker lateness_;  // written by the search thread, read before the next search starts
    CommandQueue<Queued> pending_;
    bool input_ended_ = false;
};

}  // namespace bge::protocol
