#pragma once
// The live feed: how the arbiter reports a running match to whoever watches it. One JSON object a
// line, written as the match goes, to a file (-feed FILE) or to the standard input of the GUI's
// `gui watch --feed -`, which -live PORT starts beside the arbiter. The arbiter knows nothing of
// its viewers: the browser page lives in tools/gui and reads this feed like any other program.
// Format (docs/arbiter.md, "Live feed"):
//   {"event":"match","feed":"bge-arbiter-live","version":1,"results":<the results file so far>}
//   {"event":"game","number":N,"round":R,"encounter":E,"pair":P,"white":W,"black":B,"opening":O}
//   {"event":"position","number":N,"start":TEXT (first of a game),"from":K,"moves":[TEXT...],
//    "clocks":[MS|null, MS|null]}       the moves from ply K on; clocks of the first and second player
//   {"event":"info","number":N,"side":0|1,"line":TEXT}   an engine's line while it searches
//   {"event":"game_over","game":<a results file game entry>,"engine_ids":[TEXT...]}
//   {"event":"match_over"}

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "protocol/engine_process.hpp"
#include "tools/arbiter/game_runner.hpp"
#include "tools/arbiter/json.hpp"
#include "tools/arbiter/match.hpp"
#include "tools/arbiter/results_file.hpp"

namespace bge::arbiter {

inline constexpr const char* live_feed_format = "bge-arbiter-live";
inline constexpr int live_feed_version = 1;

// Where the feed's lines go: a file, the viewer process, or both. Thread-safe. A destination
// that fails is dropped with one warning; the match never waits on a viewer for long.
class FeedOutput {
public:
    FeedOutput() = default;
    FeedOutput(const FeedOutput&) = delete;
    FeedOutput& operator=(const FeedOutput&) = delete;
    ~FeedOutput() { close(); }

    // Creates FILE, or empties it: a feed describes one run of the arbiter.
    Status open_file(const std::string& path);
    // With the first event, starts `GUI --port PORT watch --feed -` with the feed on its standard
    // input (the GUI reads the match's first line, then serves its page).
    void start_viewer(const std::string& gui_path, int port);

    // One event. After the first ("match"), waits up to ten seconds for the viewer's
    // "serving http://..." and announces it on stderr as `arbiter: serving http://...`.
    void write(const Json& event);
    // The viewer could not serve its page (its own message is on stderr).
    bool viewer_failed() const { return viewer_failed_; }
    // Ends the feed: the file is closed; the viewer reads the end of its input and exits.
    void close();

private:
    bool launch_viewer();
    void announce_viewer();
    void drop_viewer(const std::string& why);

    std::mutex mutex_;
    std::FILE* file_ = nullptr;
    std::string file_path_;
    protocol::ProcessOptions viewer_command_;  // no command: no viewer
    std::unique_ptr<protocol::EngineProcess> viewer_;
    bool viewer_announced_ = false;
    bool viewer_failed_ = false;
};

// The feed's JSON for the parts the arbiter's library already has.
Json feed_match_event(const MatchDescription& match, const Results& results);
Json feed_game_event(const ScheduledGame& game);
Json feed_game_over_event(const FinishedGame& finished, const MatchDescription& match);
// The reading side: a game event back into the game it names.
Expected<ScheduledGame> scheduled_game_from_feed(const Json& event);

// Writes one match's feed: a MatchObserver (tools/arbiter/match.hpp) for any game adapter.
template <GameAdapter A>
class LiveFeed : public MatchObserver<typename A::Game> {
public:
    using G = typename A::Game;

    explicit LiveFeed(FeedOutput& output) : output_(output) {}

    void match_started(const MatchDescription& match, const Results& results) override {
        output_.write(feed_match_event(match, results));
        // -live promised a page: without one the match stops before its first game (status 1).
        if (output_.viewer_failed()) interrupt_requested.store(true);
    }

    GameObserver<G>* game_started(const ScheduledGame& game) override {
        output_.write(feed_game_event(game));
        std::lock_guard lock(mutex_);
        auto& slot = games_[game.number];
        slot = std::make_unique<GameFeed>(output_, game.number);
        return slot.get();
    }

    void game_finished(const ScheduledGame& game, const FinishedGame& finished, const Results&,
                       const MatchDescription& match) override {
        std::unique_ptr<GameFeed> done;
        {
            std::lock_guard lock(mutex_);
            if (auto found = games_.find(game.number); found != games_.end()) {
                done = std::move(found->second);
                games_.erase(found);
            }
        }
        if (done) done->flush_held_lines();
        output_.write(feed_game_over_event(finished, match));
    }

    void match_finished(const Results&) override {
        Json event;
        event["event"] = "match_over";
        output_.write(event);
    }

private:
    // One game's moves and search lines. Called on the game's worker thread only.
    struct GameFeed : GameObserver<G> {
        GameFeed(FeedOutput& output, int number) : output(output), number(number) {}

        void position_changed(const GameRecord<G>& record, const Clocks& clocks) override {
            flush_held_lines();  // they belong to the position before this move
            Json event;
            event["event"] = "position";
            event["number"] = number;
            const auto& moves = record.moves();
            if (!started) event["start"] = G::format_position(record.start());
            event["from"] = reported;
            // Move texts need the position each was played from.
            auto position = record.start();
            Json texts = Json::array();
            for (std::size_t ply = 0; ply < moves.size(); ++ply) {
                if (ply >= reported) texts.push_back(G::format_move(position, moves[ply]));
                G::play(position, moves[ply]);
            }
            event["moves"] = std::move(texts);
            Json clock_list = Json::array();
            for (const auto& clock : clocks) clock_list.push_back(clock ? Json(clock->remaining_ms()) : Json());
            event["clocks"] = std::move(clock_list);
            started = true;
            reported = moves.size();
            output.write(event);
        }

        // At most five lines a second per game go out, as the page shows them; the newest line
        // held back, and the newest with a score, go out before the next move, so a viewer sees
        // the score each move was played with.
        void search_line(Side side, std::string_view line) override {
            const auto now = std::chrono::steady_clock::now();
            if (now - last_sent < std::chrono::milliseconds(200)) {
                if (line.find(" score ") != std::string_view::npos) {
                    held_scored = {side, std::string(line)};
                    held_last.reset();  // older than the scored line: the page would show it no longer
                } else {
                    held_last = {side, std::string(line)};
                }
                return;
            }
            last_sent = now;
            held_scored.reset();
            held_last.reset();
            send_line(side, line);
        }

        void flush_held_lines() {
            if (held_scored) send_line(held_scored->first, held_scored->second);
            if (held_last) send_line(held_last->first, held_last->second);
            held_scored.reset();
            held_last.reset();
        }

        void send_line(Side side, std::string_view line) {
            Json event;
            event["event"] = "info";
            event["number"] = number;
            event["side"] = side == Side::first ? 0 : 1;
            event["line"] = std::string(line);
            output.write(event);
        }

        FeedOutput& output;
        int number;
        bool started = false;
        std::size_t reported = 0;  // moves already in the feed
        std::chrono::steady_clock::time_point last_sent{};
        std::optional<std::pair<Side, std::string>> held_scored, held_last;
    };

    FeedOutput& output_;
    std::mutex mutex_;
    std::map<int, std::unique_ptr<GameFeed>> games_;
};

}  // namespace bge::arbiter
