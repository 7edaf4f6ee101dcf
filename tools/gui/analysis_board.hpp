#pragma once
// Analysis: a tree of moves (from a record, a position text, or moves played on the board) that
// the person steps through, with an engine searching the shown position and its info lines, PV
// and score graph sent live. A move made on the board goes on from the shown position: into the
// line where it is the next move, else as a new variation beside it (move_tree.hpp). The rules
// check every move (and at a chance node the person picks the roll).
//
// UGI and TEI engines search with `go infinite` until a change stops them. pbrain has no infinite
// search, so a pbrain engine gets the same position again and again, each search twice as long
// as the last, and YXSTOP when the person moves on.

#include <algorithm>
#include <deque>
#include <map>
#include <thread>

#include <fmt/format.h>

#include "tools/arbiter/game_runner.hpp"
#include "tools/gui/engine_options.hpp"
#include "tools/gui/game_view.hpp"
#include "tools/gui/move_tree.hpp"
#include "tools/gui/session.hpp"

namespace bge::gui {

// The time of a pbrain engine's n-th search of one position: 0.5 s, then twice as long each time,
// up to 32 s.
inline std::chrono::milliseconds pbrain_analysis_step(int step) {
    return std::chrono::milliseconds(500) * (1 << std::min(step, 6));
}

template <class View>
class AnalysisBoard : public ThreadedSession {
public:
    using A = typename View::Adapter;
    using G = typename A::Game;
    using Tree = MoveTree<typename G::Move>;

    // Shows the position after `ply` moves of the line first.
    AnalysisBoard(std::int64_t id, const RecordLine<G>& line, std::vector<EngineEntry> engines,
                  std::shared_ptr<EngineOptionsCache> options, std::size_t ply = 0)
        : id_(id), line_(line), engines_(std::move(engines)), options_(std::move(options)) {
        std::size_t node = Tree::root;
        for (std::size_t i = 0; i < line_.moves.size(); ++i) {
            auto child = tree_.child(node, line_.moves[i]);
            if (!child) break;  // a record longer than an analysis holds: its start is shown
            const Side mover = G::side_to_move(position_at(node));
            node = *child;
            tree_[node].comment = i < line_.comments.size() ? line_.comments[i] : std::string();
            if (auto score = score_from_comment(tree_[node].comment))
                tree_[node].record_score = mover == Side::first ? *score : -*score;
            if (i < ply) node_ = node;
        }
        line_.moves.clear();
        line_.comments.clear();
        snapshot_ = json::dump(state_json());
        thread_ = std::jthread([this] { run(); });
    }

    ~AnalysisBoard() override { close(); }

    void handle(const Json& message, const std::shared_ptr<Client>& from) override {
        const std::string& type = json::text(message, "type");
        if (type != "goto" && type != "move" && type != "start" && type != "stop" && type != "promote" &&
            type != "delete") {
            from->send(error_message(fmt::format("an analysis board does not know '{}'", clipped(type)), id_));
            return;
        }
        {
            std::lock_guard lock(mutex_);
            commands_.push_back({message, from});
            interrupt_ = true;  // any change stops the running search first
        }
        wake_.notify_all();
    }

    void close() override {
        if (stop_thread() && engine_) engine_->quit();
    }

private:
    struct Command {
        Json message;
        std::shared_ptr<Client> from;
    };

    typename G::State position_at(std::size_t node) const {
        auto state = line_.start;
        for (const std::size_t at : tree_.path_to(node)) G::play(state, *tree_[at].move);
        return state;
    }

    GameRecord<G> record_to(std::size_t node) const {
        GameRecord<G> record(line_.start);
        for (const std::size_t at : tree_.path_to(node)) record.play(*tree_[at].move);
        return record;
    }

    void run() {
        std::unique_lock lock(mutex_);
        while (!closing_) {
            if (!commands_.empty()) {
                Command command = std::move(commands_.front());
                commands_.pop_front();
                execute(command, lock);
                continue;
            }
            if (!analysing_ || record_to(node_).outcome().is_over()) {
                wake_.wait(lock, [&] { return closing_ || !commands_.empty(); });
                continue;
            }
            search(lock);
        }
    }

    // A node named by the message ("node"), alive, and not the root unless `root_too`.
    Expected<std::size_t> named_node(const Json& message, bool root_too) const {
        auto node = optional_integer(message, "node", 0, static_cast<std::int64_t>(tree_.size()) - 1);
        if (!node) return Error{node.error()};
        if (!*node) return Error{"this needs \"node\""};
        const auto id = static_cast<std::size_t>(**node);
        if (!tree_.contains(id)) return Error{fmt::format("there is no move {} in this analysis (it was deleted)", id)};
        if (id == Tree::root && !root_too) return Error{"the start of the analysis cannot be changed"};
        return id;
    }

    void execute(const Command& command, std::unique_lock<std::mutex>& lock) {
        const Json& message = command.message;
        const std::string& type = json::text(message, "type");
        auto refuse = [&](std::string_view text) { command.from->send(error_message(text, id_)); };
        if (type == "goto" && message.contains("node")) {
            auto node = named_node(message, true);
            if (!node) return refuse(node.error());
            node_ = *node;
        } else if (type == "goto") {
            // A ply of the line shown: the path to the shown move and its main continuation.
            const auto line = tree_.line_through(node_);
            auto ply = optional_integer(message, "ply", 0, static_cast<std::int64_t>(line.size()));
            if (!ply || !*ply) return refuse(ply ? "goto needs \"ply\" or \"node\"" : ply.error());
            node_ = **ply == 0 ? Tree::root : line[static_cast<std::size_t>(**ply) - 1];
        } else if (type == "move") {
            auto record = record_to(node_);
            const auto& state = record.current();
            if (record.outcome().is_over()) return refuse("the game is over in this position");
            const std::string& text = json::text(message, "move");
            auto move = G::parse_move(state, text);
            if (!move) return refuse(fmt::format("'{}' is not a legal move: {}", clipped(text), move.error()));
            // The line's next move just steps forward; another move starts a variation.
            auto child = tree_.child(node_, *move);
            if (!child) return refuse(child.error());
            node_ = *child;
        } else if (type == "promote") {
            auto node = named_node(message, false);
            if (!node) return refuse(node.error());
            tree_.promote(*node);
        } else if (type == "delete") {
            auto node = named_node(message, false);
            if (!node) return refuse(node.error());
            const auto path = tree_.path_to(node_);
            const bool shown_goes = std::find(path.begin(), path.end(), *node) != path.end();
            const std::size_t parent = tree_.remove(*node);
            if (shown_goes) node_ = parent;
        } else if (type == "start") {
            const std::string& name = json::text(message, "engine");
            const EngineEntry* entry = nullptr;
            for (const EngineEntry& candidate : engines_)
                if (candidate.config.name == name && candidate.game == View::game) entry = &candidate;
            if (!entry) return refuse(fmt::format("no {} engine named '{}' was given to the GUI", View::game, clipped(name)));
            const auto dialect = entry->config.dialect.value_or(A::default_dialect);
            // The page's option values, checked against what the engine declares (which may
            // start it once to ask); waits without the lock, so the page's messages still queue.
            lock.unlock();
            auto config = options_->configure(*entry, dialect, json::member(message, "options"), A::rule_option_names);
            lock.lock();
            if (!config) return refuse(config.error());
            if (!engine_ || engine_->name() != name || engine_->config().options != config->options) {
                if (engine_) engine_->quit();
                engine_ = std::make_unique<arbiter::EnginePlayer>(*config, dialect, arbiter::Timeouts{}, &interrupt_);
                prepared_ = false;
            }
            analysing_ = true;
            engine_error_.clear();
        } else if (type == "stop") {
            analysing_ = false;
        }
        if (type != "stop") info_ = Json();  // after a stop, the last evaluation stays on show
        publish(lock);
    }

    // One search of the shown position (a series of them for pbrain), until a command
    // interrupts it.
    void search(std::unique_lock<std::mutex>& lock) {
        const GameRecord<G> record = record_to(node_);
        const std::size_t node = node_;
        interrupt_ = false;
        lock.unlock();
        if (!prepared_ || engine_->needs_restart()) {
            // The referee's preparation: the process, the rule options, a new game.
            arbiter::Referee<A> referee(line_.variant, arbiter::Opening<G>{line_.start, {}}, adjudication_, {}, 0);
            auto end = referee.prepare(Side::first, *engine_);
            prepared_ = !end && !referee.fatal_error();
            if (!prepared_) {
                lock.lock();
                analysing_ = false;
                engine_error_ = engine_->last_error().empty() ? referee.fatal_error().value_or("the engine failed")
                                                              : engine_->last_error();
                publish(lock);
                return;
            }
        }
        const auto state = record.current();
        info_throttle_.reset();
        Json best;  // pbrain: {"move", "searched_ms"} of the last search that ended
        const auto on_line = [&](std::string_view text) {
            const auto line = parse_search_line(text);
            if (!line) return;
            std::lock_guard guard(mutex_);
            info_ = shown_search_line(info_, *line, pv_json<View>(state, line->pv));
            info_["side"] = index_of(G::side_to_move(state));
            if (!best.is_null()) info_["best"] = best;  // a pbrain engine's last whole search stays on show
            if (line->score_cp) {
                // The score of the position after the node's move, from the first player's view.
                const int score = G::side_to_move(state) == Side::first ? *line->score_cp : -*line->score_cp;
                analysed_[node] = score;
            }
            if (info_throttle_.ready(line->depth)) send_info();
        };
        arbiter::EngineReply reply;
        if (engine_->dialect() != protocol::Dialect::pbrain) {
            reply = engine_->think(arbiter::position_command<A>(engine_->dialect(), record), "go infinite",
                                   std::chrono::hours(24 * 365), on_line);
        } else {
            for (int step = 0;; ++step) {
                const auto time = pbrain_analysis_step(step);
                arbiter::EngineConfig limits = engine_->config();  // st= of this step's length
                limits.move_time_ms = time.count();
                reply = arbiter::think_about<A>(*engine_, record, limits, G::side_to_move(state), {},
                                                time + std::max(time / 2, std::chrono::milliseconds(1000)), on_line);
                if (reply.kind == arbiter::EngineReply::Kind::timeout) {
                    // Late: YXSTOP asks for the move; an engine that gives none is restarted.
                    engine_->abandon_search();
                    if (engine_->needs_restart()) break;
                    continue;
                }
                if (reply.kind != arbiter::EngineReply::Kind::move) break;
                const auto answer = G::parse_move(state, reply.move);
                if (!answer) {
                    // An ERROR line, or a move the rules refuse: asking again would only repeat it.
                    lock.lock();
                    analysing_ = false;
                    engine_error_ = fmt::format("engine {} answered '{}': {}", engine_->name(), clipped(reply.move),
                                                answer.error());
                    publish(lock);
                    return;
                }
                std::lock_guard guard(mutex_);
                best["move"] = G::format_move(state, *answer);
                best["searched_ms"] = time.count();
                if (!info_.is_object()) info_ = Json::object();
                info_["best"] = best;
                info_["side"] = index_of(G::side_to_move(state));
                // The answer is the best move: the PV's start when the engine printed none.
                if (!info_.contains("pv") || json::member(info_["pv"], "moves").empty())
                    info_["pv"] = pv_json<View>(state, {reply.move});
                send_info();
            }
        }
        lock.lock();
        if (reply.kind == arbiter::EngineReply::Kind::interrupted) {
            lock.unlock();
            engine_->abandon_search();
            lock.lock();
            if (engine_->needs_restart()) {
                analysing_ = false;
                engine_error_ = fmt::format("engine {} did not answer stop: it was killed", engine_->name());
            }
        } else {
            // The engine ended an infinite search by itself (a decided position), or died.
            analysing_ = false;
            if (reply.kind == arbiter::EngineReply::Kind::closed || engine_->needs_restart())
                engine_error_ = engine_->last_error().empty()
                                    ? fmt::format("engine {} crashed or closed its output", engine_->name())
                                    : engine_->last_error();
        }
        publish(lock);
    }

    void send_info() {
        Json message;
        message["type"] = "info";
        message["id"] = id_;
        message["ply"] = static_cast<std::int64_t>(tree_[node_].depth);
        message["node"] = static_cast<std::int64_t>(node_);
        message["info"] = info_;
        // The graph's point for this ply (first player's view), so the graph follows the search.
        if (const auto found = analysed_.find(node_); found != analysed_.end()) message["graph_score"] = found->second;
        subscribers_.send_all(json::dump(message));
    }

    // Every node's move text and children, by node id (null for deleted nodes): the page draws
    // the main line with its variations from it.
    Json tree_json(std::vector<std::string>& texts) const {
        Json nodes = Json::array();
        texts.assign(tree_.size(), std::string());
        std::vector<typename G::State> states(tree_.size());
        states[Tree::root] = line_.start;
        for (std::size_t id = 0; id < tree_.size(); ++id) {
            if (!tree_.contains(id)) {
                nodes.push_back(nullptr);
                continue;
            }
            const auto& node = tree_[id];
            if (node.move) {
                // A child's id is always above its parent's, so its position is ready.
                states[id] = states[node.parent];
                texts[id] = G::format_move(states[id], *node.move);
                G::play(states[id], *node.move);
            }
            Json entry;
            entry["m"] = node.move ? Json(texts[id]) : Json();
            entry["c"] = node.children;
            nodes.push_back(std::move(entry));
        }
        return nodes;
    }

    Json state_json() const override {
        const auto record = record_to(node_);
        const auto line = tree_.line_through(node_);
        const std::size_t ply = tree_[node_].depth;
        Json state;
        state["type"] = "state";
        state["mode"] = "analysis";
        state["id"] = id_;
        state["game"] = std::string(View::game);
        state["variant"] = A::variant_text(line_.variant);
        state["side_names"] = Json::array({std::string(A::side_names[0]), std::string(A::side_names[1])});
        state["players"] = Json::array({line_.first_player, line_.second_player});
        std::vector<std::string> texts;
        state["tree"] = tree_json(texts);
        state["node"] = node_;
        state["line"] = line;
        // The line shown, as a plain list of plies: what the steps, the graph and the list use.
        Json moves = Json::array(), comments = Json::array(), scores = Json::array();
        std::vector<typename G::Move> line_moves;
        for (const std::size_t at : line) {
            moves.push_back(texts[at]);
            comments.push_back(tree_[at].comment);
            line_moves.push_back(*tree_[at].move);
            // The engine's analysis where there is one, else the record's comment.
            if (auto found = analysed_.find(at); found != analysed_.end())
                scores.push_back(found->second);
            else if (tree_[at].record_score)
                scores.push_back(*tree_[at].record_score);
            else
                scores.push_back(nullptr);
        }
        state["moves"] = std::move(moves);
        state["comments"] = std::move(comments);
        state["scores"] = std::move(scores);
        state["movers"] = movers_json<G>(line_.start, line_moves);
        state["ply"] = static_cast<std::int64_t>(ply);
        const auto before = node_ != Tree::root ? position_at(tree_[node_].parent) : line_.start;
        state["board"] = board_at<View>(before, node_ != Tree::root ? &*tree_[node_].move : nullptr, record.current());
        state["start"] = G::format_position(line_.start);
        state["position"] = G::format_position(record.current());
        state["to_move"] = index_of(G::side_to_move(record.current()));
        state["chance"] = is_chance_node<G>(record.current());
        Json legal = legal_moves_json<View>(record);
        if constexpr (StochasticGame<G>) {
            // Here the person sets the dice: each roll is a button.
            if (G::is_chance_node(record.current()) && !record.outcome().is_over()) {
                ChanceList<G> rolls;
                G::chance_outcomes(record.current(), rolls);
                for (const auto& roll : rolls) {
                    Json entry;
                    entry["m"] = G::format_move(record.current(), roll.roll);
                    entry["p"] = Json::array();
                    legal.push_back(std::move(entry));
                }
            }
        }
        state["legal"] = std::move(legal);
        const auto result_json = [](const Outcome& outcome) {
            Json result;
            const arbiter::GameEnd end = arbiter::GameEnd::by_rules(outcome);
            result["score"] = arbiter::result_score(outcome);
            result["reason"] = arbiter::describe(end, A::rule_phrase(outcome), A::side_names);
            result["termination"] = arbiter::termination_tag(end);
            return result;
        };
        if (const Outcome outcome = record.outcome(); outcome.is_over()) state["result"] = result_json(outcome);
        // How the line shown ends, for the last row of the move list.
        if (const Outcome end = record_to(line.empty() ? Tree::root : line.back()).outcome(); end.is_over())
            state["line_result"] = result_json(end);
        Json engines = Json::array();
        for (const EngineEntry& entry : engines_)
            if (entry.game == View::game) engines.push_back(entry.config.name);
        state["engines"] = std::move(engines);
        state["engine"] = engine_ ? Json(engine_->name()) : Json();
        state["analysing"] = analysing_;
        if (!engine_error_.empty()) state["error"] = engine_error_;
        state["info"] = info_;
        return state;
    }

    std::int64_t id_;
    RecordLine<G> line_;  // the start, the rules and the players; the moves are in tree_
    std::vector<EngineEntry> engines_;
    std::shared_ptr<EngineOptionsCache> options_;
    Tree tree_;
    std::size_t node_ = Tree::root;      // the node shown
    std::map<std::size_t, int> analysed_;  // node -> the analysing engine's last score there
    arbiter::Adjudication adjudication_;
    std::unique_ptr<arbiter::EnginePlayer> engine_;
    bool prepared_ = false;
    bool analysing_ = false;
    std::string engine_error_;

    std::deque<Command> commands_;
    Json info_;
    Throttle info_throttle_{std::chrono::milliseconds(100)};
};

}  // namespace bge::gui
