// The GUI's server side without a browser: what it tells the page about each game (cells of
// moves, forbidden points, bridges, blasts), its safety checks, and the hub answering every bad
// message with an error while games go on, with a real engine process at the table.

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "arbiter_run.hpp"
#include "core/game_record.hpp"
#include "tools/gui/analysis_board.hpp"
#include "tools/gui/feed_watch.hpp"
#include "tools/gui/game_factory.hpp"
#include "tools/gui/gui_options.hpp"
#include "tools/gui/hub.hpp"
#include "tools/gui/move_tree.hpp"
#include "tools/gui/views.hpp"
#include "tools/gui/web_server.hpp"

using namespace bge;
using namespace bge::gui;

namespace {

// A client that keeps what the server sends, for the test to wait on.
class RecordingClient : public Client {
public:
    explicit RecordingClient(std::uint64_t id = 7) : id_(id) {}
    void send(std::string message) override {
        auto parsed = json::parse(message);
        REQUIRE(parsed);
        std::lock_guard lock(mutex_);
        messages_.push_back(std::move(*parsed));
        arrived_.notify_all();
    }
    std::uint64_t id() const override { return id_; }

    // The first message from `from` on that matches, waiting up to 20 s; its index is `from` after.
    template <class Predicate>
    Json wait_for(std::size_t& from, Predicate predicate) {
        std::unique_lock lock(mutex_);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        for (;;) {
            for (; from < messages_.size(); ++from)
                if (predicate(messages_[from])) return messages_[from++];
            if (arrived_.wait_until(lock, deadline) == std::cv_status::timeout) {
                FAIL("no such message within 20 s");
                return {};
            }
        }
    }

    std::size_t count() {
        std::lock_guard lock(mutex_);
        return messages_.size();
    }
    Json at(std::size_t i) {
        std::lock_guard lock(mutex_);
        return messages_.at(i);
    }

private:
    std::uint64_t id_;
    std::mutex mutex_;
    std::condition_variable arrived_;
    std::vector<Json> messages_;
};

template <class View>
GameRecord<typename View::G> played(const typename View::G::Variant& variant, std::initializer_list<std::string_view> moves) {
    GameRecord<typename View::G> record(View::G::start_state(variant));
    for (std::string_view move : moves) REQUIRE(record.play_text(move));
    return record;
}

std::vector<std::string> strings(const Json& array) { return array.get<std::vector<std::string>>(); }

Json find_move(const Json& legal, std::string_view text) {
    for (const Json& move : legal)
        if (move.at("m") == text) return move;
    return {};
}

// The type of a message, "" when it has none.
std::string type_of(const Json& message) { return json::text(message, "type"); }

}  // namespace

TEST_CASE("gui: a Tak spread is its stack, then one click per piece dropped", "[gui]") {
    tak::Variant variant;
    variant.size = 5;
    // White builds a stack of three on a1 (two white flats on top of a black one).
    auto record = played<TakView>(variant, {"a1", "e5", "b1", "d5", "b1<", "d4", "b1", "d3", "b1<", "c5"});
    auto spread = tak::parse_move(record.current(), "3a1>12");
    REQUIRE(spread);
    CHECK(TakView::path(record.current(), *spread).cells == std::vector<std::string>{"a1", "b1", "c1", "c1"});
    auto placement = tak::parse_move(record.current(), "Sc3");
    REQUIRE(placement);
    CHECK(TakView::path(record.current(), *placement).cells == std::vector<std::string>{"c3"});
    CHECK(TakView::path(record.current(), *placement).kind == "wall");
    const Json board = TakView::board(record.current(), nullptr, nullptr);
    CHECK(board.at("stacks").at("a1") == "211");  // black at the bottom, then two white
    const Json legal = legal_moves_json<TakView>(record);
    CHECK(find_move(legal, "3a1>12").at("p") == Json::array({"a1", "b1", "c1", "c1"}));
    CHECK(find_move(legal, "Cc3").at("k") == "cap");
}

TEST_CASE("gui: renju marks Black's double-three point, and only for Black", "[gui]") {
    gomoku::Variant variant;
    variant.rule = gomoku::Rule::renju;
    // Black e5 f5 and g6 g7: g5 makes two open threes at once.
    auto record = played<GomokuView>(variant, {"e5", "a1", "f5", "c1", "g6", "o15", "g7", "m1"});
    const Json board = GomokuView::board(record.current(), nullptr, nullptr);
    const auto forbidden = strings(board.at("forbidden"));
    CHECK(std::find(forbidden.begin(), forbidden.end(), "g5") != forbidden.end());
    CHECK(std::find(forbidden.begin(), forbidden.end(), "h8") == forbidden.end());
    CHECK(board.at("stones").at("e5") == "x");
    CHECK(board.at("stones").at("a1") == "o");
    REQUIRE(record.play_text("h8"));
    CHECK(GomokuView::board(record.current(), nullptr, nullptr).at("forbidden").empty());  // White to move
}

TEST_CASE("gui: TwixT draws a bridge between two pegs a knight's move apart, and the swap is a button", "[gui]") {
    twixt::Variant variant;
    variant.size = 8;
    auto first = played<TwixtView>(variant, {"c3"});
    const Json legal = legal_moves_json<TwixtView>(first);
    CHECK(find_move(legal, "swap").at("p") == Json::array());
    auto record = played<TwixtView>(variant, {"c3", "h4", "d5"});
    const Json board = TwixtView::board(record.current(), nullptr, nullptr);
    REQUIRE(board.at("bridges").size() == 1);
    auto bridge = strings(board.at("bridges").at(0));
    std::sort(bridge.begin(), bridge.end());
    CHECK(bridge == std::vector<std::string>{"c3", "d5"});
    CHECK(board.at("pegs").at("h4") == "o");
}

TEST_CASE("gui: a won game's road, five or TwixT chain is given to the page to draw", "[gui]") {
    tak::Variant tak_variant;
    tak_variant.size = 5;
    // White's flats a2 b2 c2 d2 e2 make a road across; Black's stay apart.
    auto road = played<TakView>(tak_variant, {"a5", "a1", "a2", "c5", "b2", "e5", "c2", "e4", "d2", "b4", "e2"});
    REQUIRE(road.outcome().is_win_for(Side::first));
    CHECK(strings(TakView::board(road.current(), nullptr, nullptr).at("winning")) ==
          std::vector<std::string>{"e2", "d2", "c2", "b2", "a2"});
    auto ongoing = played<TakView>(tak_variant, {"a5", "a1", "a2"});
    CHECK_FALSE(TakView::board(ongoing.current(), nullptr, nullptr).contains("winning"));

    gomoku::Variant gomoku_variant;
    auto five = played<GomokuView>(gomoku_variant, {"h8", "a1", "i9", "a3", "g7", "a5", "k11", "a7", "j10"});
    REQUIRE(five.outcome().is_win_for(Side::first));
    auto cells = strings(GomokuView::board(five.current(), nullptr, nullptr).at("winning"));
    std::sort(cells.begin(), cells.end());
    CHECK(cells == std::vector<std::string>{"g7", "h8", "i9", "j10", "k11"});
    // The other diagonal, from edge to edge of the board.
    auto edge_five = played<GomokuView>(gomoku_variant, {"c3", "o15", "d2", "o13", "b4", "o11", "e1", "o9", "a5"});
    REQUIRE(edge_five.outcome().is_win_for(Side::first));
    cells = strings(GomokuView::board(edge_five.current(), nullptr, nullptr).at("winning"));
    std::sort(cells.begin(), cells.end());
    CHECK(cells == std::vector<std::string>{"a5", "b4", "c3", "d2", "e1"});

    // o joins the left and right columns of an 8x8 board with a3 c4 e5 g6 h4, each a knight's
    // move from the last; x's pegs on its own border rows build no bridge across them.
    twixt::Variant twixt_variant;
    twixt_variant.size = 8;
    auto chain = played<TwixtView>(twixt_variant, {"c1", "a3", "e1", "c4", "g1", "e5", "c8", "g6", "e8", "h4"});
    REQUIRE(chain.outcome().is_win_for(Side::second));
    CHECK(strings(TwixtView::board(chain.current(), nullptr, nullptr).at("winning")) ==
          std::vector<std::string>{"h4", "g6", "e5", "c4", "a3"});
}

TEST_CASE("gui: a record opened at its end shows the road; its line's result stays at every ply", "[gui]") {
    Hub hub({});
    auto client = std::make_shared<RecordingClient>();
    Json load;
    load["type"] = "load_record";
    load["game"] = "tak";
    load["text"] = "[Size \"5\"]\n\n1. a5 a1 2. a2 c5 3. b2 e5 4. c2 e4 5. d2 b4 6. e2 1-0\n";
    load["at"] = "end";
    hub.message(client, json::dump(load));
    std::size_t at = 0;
    const Json end = client->wait_for(at, [](const Json& m) { return type_of(m) == "state"; });
    CHECK(end.at("ply") == 11);
    CHECK(end.at("result").at("score") == "1-0");
    CHECK(end.at("line_result").at("score") == "1-0");
    CHECK(end.at("board").at("winning").size() == 5);
    Json go_back;
    go_back["type"] = "goto";
    go_back["id"] = end.at("id");
    go_back["ply"] = 4;
    hub.message(client, json::dump(go_back));
    const Json earlier = client->wait_for(at, [](const Json& m) { return type_of(m) == "state" && m.at("ply") == 4; });
    CHECK_FALSE(earlier.contains("result"));
    CHECK(earlier.at("line_result").at("score") == "1-0");
    CHECK_FALSE(earlier.at("board").contains("winning"));
    hub.closed(client);
}

TEST_CASE("gui: an Ur move is the piece (or the pool), then where it lands", "[gui]") {
    auto record = played<UrView>(ur::Variant{}, {"r2"});
    const Json legal = legal_moves_json<UrView>(record);
    REQUIRE(legal.size() == 1);
    CHECK(legal.at(0).at("m") == "onA3");
    CHECK(legal.at(0).at("p") == Json::array({"pool-L", "A3"}));
    CHECK(legal_moves_json<UrView>(played<UrView>(ur::Variant{}, {})).empty());  // the server rolls
    CHECK(UrView::board(record.current(), nullptr, nullptr).at("roll") == 2);
}

TEST_CASE("gui: an Expendibots BOOM shows the squares its chain reaction destroyed", "[gui]") {
    const auto before = expendibots::start_state();
    auto boom = expendibots::parse_move(before, "xa1");
    REQUIRE(boom);
    auto after = before;
    expendibots::play(after, *boom);
    const Json board = ExpendibotsView::board(after, &before, &*boom);
    auto blast = strings(board.at("blast"));
    std::sort(blast.begin(), blast.end());
    CHECK(blast == std::vector<std::string>{"a1", "a2", "b1", "b2"});
    CHECK(board.at("stacks").at("d1") == "w1");
    CHECK(ExpendibotsView::path(before, *boom).cells == std::vector<std::string>{"a1"});
}

TEST_CASE("gui: engine info lines and record comments are read for the page", "[gui]") {
    const auto line = parse_search_line("info depth 7 seldepth 9 score cp -31 nodes 1234 nps 5000 time 12 pv a1 b2");
    REQUIRE(line);
    CHECK(*line->depth == 7);
    CHECK(*line->seldepth == 9);
    CHECK(*line->score_cp == -31);
    CHECK(*line->nodes == 1234);
    CHECK(line->pv == std::vector<std::string>{"a1", "b2"});
    CHECK(*parse_search_line("info depth 3 score mate -2")->mate == -2);
    CHECK(parse_search_line("info string hello there")->text == "hello there");
    CHECK(!parse_search_line("bestmove a1"));
    CHECK(parse_search_line("info depth 99999999999999999999 score cp x")->depth == std::nullopt);
    CHECK(score_from_comment("+0.63/7 0.42s") == 63);
    CHECK(score_from_comment("-1.50/3") == -150);
    CHECK(score_from_comment("book") == std::nullopt);
    CHECK(score_from_comment("+1e99/3") == std::nullopt);
}

TEST_CASE("gui: only this server's own page may open a WebSocket", "[gui]") {
    ServerOptions options;
    CHECK(origin_allowed("", options, 8080));  // not a browser
    CHECK(origin_allowed("http://127.0.0.1:8080", options, 8080));
    CHECK(origin_allowed("http://localhost:8080", options, 8080));
    CHECK(!origin_allowed("http://127.0.0.1:9090", options, 8080));
    CHECK(!origin_allowed("http://evil.example", options, 8080));
    CHECK(!origin_allowed("http://evil.example:8080", options, 8080));
    CHECK(!origin_allowed("null", options, 8080));
    CHECK(!origin_allowed("http://127.0.0.1:8080.evil.example", options, 8080));
    options.allowed_origins.push_back("https://my.site");
    CHECK(origin_allowed("https://my.site", options, 8080));
    // DNS rebinding: another name pointed at 127.0.0.1 is refused by its Host header.
    CHECK(host_allowed("127.0.0.1:8080", options, 8080));
    CHECK(host_allowed("localhost:8080", options, 8080));
    CHECK(!host_allowed("evil.example:8080", options, 8080));
    CHECK(!host_allowed("127.0.0.1:80", options, 8080));
}

TEST_CASE("gui: every bad message gets one error and the server goes on", "[gui]") {
    Hub hub({});
    auto client = std::make_shared<RecordingClient>();
    const std::vector<std::string> bad = {
        "not json",
        "[1, 2]",
        R"({"type": 5})",
        R"({"type": "move"})",
        R"({"type": "move", "id": 99, "move": "a1"})",
        R"({"type": "new_game", "game": "chess"})",
        R"({"type": "new_game", "game": "tak", "variant": {"size": 99}, "players": ["person", "person"]})",
        R"({"type": "new_game", "game": "tak", "variant": {"komi": 0.3}, "players": ["person", "person"]})",
        R"({"type": "new_game", "game": "tak", "variant": "big", "players": ["person", "person"]})",
        R"({"type": "new_game", "game": "tak", "players": ["person"]})",
        R"({"type": "new_game", "game": "tak", "players": ["person", "stockfish"]})",
        R"({"type": "new_game", "game": "tak", "players": ["person", "person"], "tc": "soon"})",
        R"({"type": "new_game", "game": "tak", "players": ["person", "person"], "limit": {"movetime": -5}})",
        // A clock and a fixed move time: the engine would get `go movetime` and its clock never run.
        R"({"type": "new_game", "game": "tak", "players": ["person", "person"], "tc": "3:00+2", "limit": {"movetime": 500}})",
        R"({"type": "new_game", "game": "gomoku", "players": ["person", "person"], "position": "x/x/x x"})",
        R"({"type": "new_game", "game": "ur", "variant": {"ruleset": "chess"}, "players": ["person", "person"]})",
        R"({"type": "load_record", "game": "tak", "text": "[Size \"5\"]\n\n1. zz9 a1\n"})",
        R"({"type": "load_record", "game": "gomoku", "text": "[Size \"999x3\"]\n1. a1\n"})",
        R"({"type": "analyse", "game": "twixt", "moves": "c3 zz99"})",
        R"({"type": "load_record", "game": "tak", "text": "[Size \"5\"]\n\n1. a1 e5\n", "at": "middle"})",
        R"({"type": "preview", "game": "chess"})",
        R"({"type": "preview", "game": "tak", "variant": {"size": 99}})",
        R"({"type": "preview", "game": "gomoku", "position": 7})",
        std::string(300, '[') + std::string(300, ']'),
    };
    for (const std::string& message : bad) {
        const std::size_t before = client->count();
        hub.message(client, message);
        INFO(message);
        REQUIRE(client->count() == before + 1);
        CHECK(type_of(client->at(before)) == "error");
        CHECK(!json::text(client->at(before), "message").empty());
    }
    // The board before any game, for the page to show: the start of the variant asked for.
    const std::size_t before_preview = client->count();
    hub.message(client, R"({"type": "preview", "game": "tak", "variant": {"size": 4}, "for": "play"})");
    REQUIRE(client->count() == before_preview + 1);
    const Json preview = client->at(before_preview);
    CHECK(type_of(preview) == "preview");
    CHECK(preview.at("for") == "play");
    CHECK(preview.at("board").at("size") == 4);
    CHECK(preview.at("board").at("stacks").empty());
    // A game between two people still works after all that, and refuses what is not legal.
    hub.message(client, R"({"type": "new_game", "game": "tak", "variant": {"size": 5}, "players": ["person", "person"]})");
    std::size_t at = 0;
    const Json created = client->wait_for(at, [](const Json& m) { return type_of(m) == "created"; });
    const std::int64_t id = created.at("id").get<std::int64_t>();
    client->wait_for(at, [](const Json& m) { return type_of(m) == "state" && !m.at("legal").empty(); });
    const auto send = [&](const std::string& type, const std::string& move) {
        Json message;
        message["type"] = type;
        message["id"] = id;
        if (!move.empty()) message["move"] = move;
        hub.message(client, json::dump(message));
    };
    send("move", "e9");
    client->wait_for(at, [](const Json& m) { return type_of(m) == "error"; });
    send("move", "a1");
    send("move", "e5");
    const Json state =
        client->wait_for(at, [](const Json& m) { return type_of(m) == "state" && m.at("moves").size() == 2; });
    CHECK(state.at("board").at("stacks").at("a1") == "2");  // the first move places Black's flat
    CHECK(state.at("board").at("last") == Json::array({"e5"}));
    send("undo", "");
    client->wait_for(at, [](const Json& m) { return type_of(m) == "state" && m.at("moves").size() == 1; });
    send("resign", "");
    client->wait_for(at, [](const Json& m) { return type_of(m) == "error"; });
    hub.closed(client);
}

TEST_CASE("gui: a person plays an engine process: the move reaches it, its answer comes back, undo returns", "[gui]") {
    EngineEntry engine;
    engine.game = "tak";
    engine.config.name = "tak";
    engine.config.command = BGE_TAK_BINARY;
    Hub hub({engine});
    auto client = std::make_shared<RecordingClient>();
    hub.message(client, R"({"type": "new_game", "game": "tak", "variant": {"size": 5, "komi": 1.5},
                            "players": ["person", "tak"], "limit": {"depth": 2}})");
    std::size_t at = 0;
    const std::int64_t id =
        client->wait_for(at, [](const Json& m) { return type_of(m) == "created"; }).at("id").get<std::int64_t>();
    client->wait_for(at, [](const Json& m) { return type_of(m) == "state" && !m.at("legal").empty(); });
    hub.message(client, fmt::format(R"({{"type": "move", "id": {}, "move": "a1"}})", id));
    const Json answered = client->wait_for(
        at, [](const Json& m) { return type_of(m) == "state" && m.at("moves").size() == 2 && !m.at("legal").empty(); });
    CHECK(answered.at("variant") == "size 5, komi 1.5");
    CHECK(answered.at("status") == Json::array({"person", "ready"}));
    // The engine's reply is a legal move by the rules: replaying both gives the position shown.
    GameRecord<tak::Tak> replay(tak::start_state(tak::Variant{5, 3, false}));
    for (const Json& move : answered.at("moves")) REQUIRE(replay.play_text(move.get<std::string>()));
    CHECK(tak::format_tps(replay.current()) == answered.at("position").get<std::string>());
    hub.message(client, fmt::format(R"({{"type": "undo", "id": {}}})", id));
    client->wait_for(at, [](const Json& m) { return type_of(m) == "state" && m.at("moves").empty(); });
    hub.closed(client);
}

TEST_CASE("gui: a person's clock runs too: no move in time loses on time", "[gui]") {
    Hub hub({});
    auto client = std::make_shared<RecordingClient>();
    hub.message(client, R"({"type": "new_game", "game": "gomoku", "variant": {"size": 9},
                            "players": ["person", "person"], "tc": "0.3"})");
    std::size_t at = 0;
    const Json running = client->wait_for(at, [](const Json& m) {
        return type_of(m) == "state" && m.at("clocks").size() == 2 &&
               json::member(m.at("clocks").at(0), "running") == true;
    });
    CHECK(running.at("clocks").at(0).at("ms") == 300);
    const Json over =
        client->wait_for(at, [](const Json& m) { return type_of(m) == "state" && !m.at("result").is_null(); });
    CHECK(over.at("result").at("score") == "0-1");
    CHECK(over.at("result").at("reason") == "Black loses on time");
    CHECK(over.at("result").at("termination") == "time forfeit");
    CHECK(over.at("legal").empty());
    hub.closed(client);
}

TEST_CASE("gui: --engines-dir offers the family's engines found in a folder, each named after its game", "[gui]") {
    const std::string folder = std::filesystem::path(BGE_TAK_BINARY).parent_path().string();
    auto options = parse_gui_options({"--engines-dir", folder, "--port", "0"});
    REQUIRE(options);
    std::vector<std::string> names;
    for (const EngineEntry& entry : options->engines) {
        CHECK(entry.game == entry.config.name);
        CHECK(entry.config.command == folder + "/" + entry.game);
        names.push_back(entry.config.name);
    }
    // The build folder holds all five (unit_tests and gui_tests are built with them).
    CHECK(names == std::vector<std::string>{"tak", "gomoku", "twixt", "ur", "expendibots"});
    // A folder without them adds none, and is no error: gui alone falls back on its own folder.
    GuiOptions empty;
    CHECK(add_family_engines(empty, std::filesystem::temp_directory_path().string()) == 0);
    CHECK(empty.engines.empty());
}

// `gui watch --feed`: a real arbiter's live feed (-feed FILE) played into the watch page gives
// the page every game to its last move, each result, and the standings of the results file.
TEST_CASE("gui watch --feed: an arbiter's feed shows its games and standings on the watch page", "[gui]") {
    const std::string feed = testing::scratch().file("gui_feed.jsonl");
    const std::string results = testing::scratch().file("gui_feed_results.json");
    const testing::ArbiterRun run = testing::run_arbiter(
        {"-game", "tak", "-size", "5", "-engine", "cmd=" + std::string(BGE_TAK_BINARY), "name=ab", "-engine",
         "cmd=" + std::string(BGE_TAK_BINARY), "name=rnd", "option.Player=random", "-each", "nodes=2000",
         "stderr=/dev/null", "-rounds", "1", "-games", "2", "-feed", feed, "-jsonout", results});
    INFO(testing::transcript(run));
    REQUIRE(run.status == 0);
    const Json summary = testing::read_json(results);

    FeedLines lines(feed);
    std::string line;
    REQUIRE(lines.next(line, 0) == FeedLines::Status::line);
    auto header = read_feed_header(line, feed);
    REQUIRE(header);
    auto match = arbiter::parse_command_line(header->match.arguments);
    REQUIRE(match);
    const GameFactory* factory = factory_for(header->match.game);
    REQUIRE(factory);
    Hub hub({});
    auto watch = hub.add_shared_session([&](std::int64_t id) { return factory->new_watch(id, match->config); }, "tak");
    auto client = std::make_shared<RecordingClient>();
    watch->subscribe(client);
    auto replay = factory->new_feed_replay(*watch, match->config, *header);
    REQUIRE(replay);
    (*replay)->start();
    for (int idle = 0; !(*replay)->over() && idle < 3;) {
        const auto status = lines.next(line, 0);
        REQUIRE(status != FeedLines::Status::ended);
        if (status != FeedLines::Status::line) {
            ++idle;
            continue;
        }
        auto event = json::parse(line);
        REQUIRE(event);
        INFO(line);
        REQUIRE((*replay)->apply(*event));
    }
    CHECK((*replay)->over());

    std::map<int, std::size_t> last_plies;
    std::map<int, std::string> shown_results;
    Json last_match;
    bool info_shown = false;
    for (std::size_t i = 0; i < client->count(); ++i) {
        const Json message = client->at(i);
        if (type_of(message) == "watch_game") last_plies[message.at("number").get<int>()] = message.at("moves").size();
        if (type_of(message) == "watch_over")
            shown_results[message.at("number").get<int>()] = message.at("result").get<std::string>();
        if (type_of(message) == "watch_info") info_shown = true;
        if (type_of(message) == "match") last_match = message;
    }
    std::map<int, std::size_t> expected_plies;
    std::map<int, std::string> expected_results;
    for (const Json& game : summary.at("games")) {
        expected_plies[game.at("number").get<int>()] = game.at("plies").get<std::size_t>();
        expected_results[game.at("number").get<int>()] = game.at("result").get<std::string>();
    }
    CHECK(last_plies == expected_plies);
    CHECK(shown_results == expected_results);
    CHECK(info_shown);
    REQUIRE(last_match.is_object());
    CHECK(last_match.at("over") == true);
    const Json& shown = last_match.at("standings").at("summary").at("pairs").at(0);
    const Json& written = summary.at("summary").at("pairs").at(0);
    for (const char* key : {"wins", "losses", "draws", "pentanomial"}) CHECK(shown.at(key) == written.at(key));
    CHECK(last_match.at("standings").at("games").size() == 2);

    // Events that do not fit the match are refused, and the page goes on.
    CHECK(!(*replay)->apply(*json::parse(R"({"event": "position", "number": 99, "from": 0, "moves": []})")));
    CHECK(!(*replay)->apply(*json::parse(R"({"event": "game", "number": 5, "white": 0, "black": 7})")));
    REQUIRE((*replay)->apply(*json::parse(
        R"({"event": "game", "number": 6, "round": 1, "encounter": 0, "pair": 0, "white": 0, "black": 1, "opening": 0})")));
    CHECK(!(*replay)->apply(*json::parse(R"({"event": "position", "number": 6, "start": "x5/x5/x5/x5/x5 1 1", "from": 0,)"
                                         R"( "moves": ["a1", "z9"]})")));
    CHECK((*replay)->apply(*json::parse(R"({"event": "a later arbiter's event"})")));
    hub.close_all();
}

TEST_CASE("gui watch --feed: the reader skips a line too long and stops when the file is started again", "[gui]") {
    const std::string path = testing::scratch().file("feed_lines.jsonl");
    {
        std::ofstream file(path, std::ios::binary);
        file << "short\n" << std::string(500, 'x') << "\nafter\n";
    }
    FeedLines lines(path, 100);
    std::string line;
    REQUIRE(lines.next(line, 0) == FeedLines::Status::line);
    CHECK(line == "short");
    REQUIRE(lines.next(line, 0) == FeedLines::Status::line);
    CHECK(line == "after");
    CHECK(lines.skipped_lines() == 1);
    CHECK(lines.next(line, 0) == FeedLines::Status::waiting);  // the end of the file so far
    std::ofstream(path, std::ios::binary | std::ios::trunc) << "new\n";
    CHECK(lines.next(line, 0) == FeedLines::Status::ended);
    CHECK(lines.error().find("started again") != std::string::npos);
}

TEST_CASE("gui: a game outlives its page's connection: resumed with its token, closed after the grace", "[gui]") {
    // A grace long enough for a loaded machine to resume within it, short enough to wait out.
    Hub hub({}, std::chrono::milliseconds(2500));
    // Three pages, three connections.
    auto first = std::make_shared<RecordingClient>(101);
    hub.message(first, R"({"type": "new_game", "game": "tak", "variant": {"size": 5}, "players": ["person", "person"]})");
    std::size_t at = 0;
    const Json created = first->wait_for(at, [](const Json& m) { return type_of(m) == "created"; });
    const std::int64_t id = created.at("id").get<std::int64_t>();
    const std::string token = created.at("token").get<std::string>();
    CHECK(token.size() == 32);
    first->wait_for(at, [](const Json& m) { return type_of(m) == "state" && !m.at("legal").empty(); });
    hub.message(first, fmt::format(R"({{"type": "move", "id": {}, "move": "a1"}})", id));
    first->wait_for(at, [](const Json& m) { return type_of(m) == "state" && m.at("moves").size() == 1; });
    hub.closed(first);  // a reload, or the connection dropped

    // Another page without the token cannot take it; the page with it can, and plays on.
    auto other = std::make_shared<RecordingClient>(102);
    hub.message(other, fmt::format(R"({{"type": "resume", "id": {}, "token": "{}"}})", id, std::string(32, '0')));
    std::size_t other_at = 0;
    CHECK_THAT(json::text(other->wait_for(other_at, [](const Json& m) { return type_of(m) == "error"; }), "message"),
               Catch::Contains("cannot be resumed"));
    auto second = std::make_shared<RecordingClient>(103);
    hub.message(second, fmt::format(R"({{"type": "resume", "id": {}, "token": "{}"}})", id, token));
    std::size_t second_at = 0;
    second->wait_for(second_at, [](const Json& m) { return type_of(m) == "resumed"; });
    const Json state =
        second->wait_for(second_at, [](const Json& m) { return type_of(m) == "state" && !m.at("legal").empty(); });
    CHECK(state.at("moves") == Json::array({"a1"}));
    hub.message(second, fmt::format(R"({{"type": "move", "id": {}, "move": "e5"}})", id));
    second->wait_for(second_at, [](const Json& m) { return type_of(m) == "state" && m.at("moves").size() == 2; });
    // The new owner may close it.
    hub.closed(second);

    // Nobody comes back: after the grace the game is gone.
    std::this_thread::sleep_for(std::chrono::milliseconds(4500));
    auto late = std::make_shared<RecordingClient>(104);
    hub.message(late, fmt::format(R"({{"type": "resume", "id": {}, "token": "{}"}})", id, token));
    std::size_t late_at = 0;
    CHECK_THAT(json::text(late->wait_for(late_at, [](const Json& m) { return type_of(m) == "error"; }), "message"),
               Catch::Contains("cannot be resumed"));
}

TEST_CASE("gui: an analysis keeps variations: a move off the line branches beside it", "[gui]") {
    MoveTree<int> tree;
    const std::size_t a = *tree.child(MoveTree<int>::root, 1), b = *tree.child(a, 2), c = *tree.child(b, 3);
    CHECK(*tree.child(a, 2) == b);  // the line's own next move: no new node
    const std::size_t d = *tree.child(a, 4), e = *tree.child(d, 5);
    CHECK(tree.line_through(a) == std::vector<std::size_t>{a, b, c});  // the main continuation
    CHECK(tree.line_through(d) == std::vector<std::size_t>{a, d, e});
    CHECK(tree[a].children == std::vector<std::size_t>{b, d});
    tree.promote(e);
    CHECK(tree[a].children == std::vector<std::size_t>{d, b});
    CHECK(tree.line_through(MoveTree<int>::root) == std::vector<std::size_t>{a, d, e});
    CHECK(tree.remove(d) == a);
    CHECK_FALSE(tree.contains(d));
    CHECK_FALSE(tree.contains(e));
    CHECK(tree.line_through(MoveTree<int>::root) == std::vector<std::size_t>{a, b, c});

    // Through the hub: a move at ply 2 of 3 keeps the third as a variation.
    Hub hub({});
    auto client = std::make_shared<RecordingClient>();
    hub.message(client, R"({"type": "analyse", "game": "tak", "variant": {"size": 5}, "moves": "a1 e5 b2"})");
    std::size_t at = 0;
    const std::int64_t id =
        client->wait_for(at, [](const Json& m) { return type_of(m) == "created"; }).at("id").get<std::int64_t>();
    client->wait_for(at, [](const Json& m) { return type_of(m) == "state" && m.at("ply") == 3; });
    hub.message(client, fmt::format(R"({{"type": "goto", "id": {}, "ply": 2}})", id));
    client->wait_for(at, [](const Json& m) { return type_of(m) == "state" && m.at("ply") == 2; });
    hub.message(client, fmt::format(R"({{"type": "move", "id": {}, "move": "c3"}})", id));
    Json branched = client->wait_for(at, [](const Json& m) { return type_of(m) == "state" && m.at("ply") == 3; });
    CHECK(strings(branched.at("moves")) == std::vector<std::string>{"a1", "e5", "c3"});
    const Json tree_shown = branched.at("tree");
    const auto e5 = branched.at("line")[1].get<std::size_t>();
    REQUIRE(tree_shown[e5].at("c").size() == 2);
    const auto b2 = tree_shown[e5].at("c")[0].get<std::size_t>(), c3 = tree_shown[e5].at("c")[1].get<std::size_t>();
    CHECK(tree_shown[b2].at("m") == "b2");
    CHECK(tree_shown[c3].at("m") == "c3");
    CHECK(branched.at("node") == c3);
    // Back to the old line by its node, then c3 made the main line, then b2 deleted.
    hub.message(client, fmt::format(R"({{"type": "goto", "id": {}, "node": {}}})", id, b2));
    Json back = client->wait_for(at, [&](const Json& m) { return type_of(m) == "state" && m.at("node") == b2; });
    CHECK(strings(back.at("moves")) == std::vector<std::string>{"a1", "e5", "b2"});
    hub.message(client, fmt::format(R"({{"type": "promote", "id": {}, "node": {}}})", id, c3));
    Json promoted = client->wait_for(
        at, [&](const Json& m) { return type_of(m) == "state" && m.at("tree")[e5].at("c")[0] == c3; });
    CHECK(promoted.at("node") == b2);  // the shown move stays
    hub.message(client, fmt::format(R"({{"type": "delete", "id": {}, "node": {}}})", id, b2));
    Json deleted = client->wait_for(at, [&](const Json& m) { return type_of(m) == "state" && m.at("tree")[b2].is_null(); });
    CHECK(deleted.at("ply") == 2);  // the shown move went: its parent is shown
    CHECK(strings(deleted.at("moves")) == std::vector<std::string>{"a1", "e5", "c3"});
    for (const char* bad : {R"("type": "goto", "node": 99)", R"("type": "delete", "node": 0)", R"("type": "promote")"}) {
        hub.message(client, fmt::format(R"({{"id": {}, {}}})", id, bad));
        client->wait_for(at, [](const Json& m) { return type_of(m) == "error"; });
    }
    hub.closed(client);
}

TEST_CASE("gui: Rapfi's PV labels are read as pbrain coordinates, A1 the top-left corner", "[gui]") {
    const auto depth_line = parse_search_line("MESSAGE Depth 11-24 | Eval 37 | Time 12ms | H8 A1 O15");
    REQUIRE(depth_line);
    CHECK(*depth_line->depth == 11);
    CHECK(depth_line->pv == std::vector<std::string>{"7,7", "0,0", "14,14"});
    const auto state = gomoku::start_state(gomoku::Variant{});
    const Json pv = pv_json<GomokuView>(state, depth_line->pv);
    CHECK(strings(pv.at("moves")) == std::vector<std::string>{"h8", "a15", "o1"});
    // A Bestline keeps the depth and score shown and replaces the PV.
    const Json shown = shown_search_line(search_line_json(*depth_line), *parse_search_line("MESSAGE Bestline G7 H8"),
                                         pv_json<GomokuView>(state, {"6,6", "7,7"}));
    CHECK(shown.at("depth") == 11);
    CHECK(strings(shown.at("pv").at("moves")) == std::vector<std::string>{"g9", "h8"});
    // Our engines' PVs, in the game's own notation, are not labels.
    CHECK(parse_search_line("MESSAGE depth 3 score cp 5 pv h8 i9")->pv == std::vector<std::string>{"h8", "i9"});
    CHECK(!arbiter::pbrain_moves_from_labels({"h8"}));
    CHECK(!arbiter::pbrain_moves_from_labels({"H99"}));
}

TEST_CASE("gui: engine options: the page sees what it may set and the server checks every value", "[gui]") {
    EngineEntry engine;
    engine.game = "tak";
    engine.config.name = "tak";
    engine.config.command = BGE_TAK_BINARY;
    engine.config.options = {{"Hash", "32"}};
    EngineEntry missing;
    missing.game = "tak";
    missing.config.name = "missing";
    missing.config.command = "/nonexistent/engine";
    Hub hub({engine, missing});
    auto client = std::make_shared<RecordingClient>();
    std::size_t at = 0;
    // A new game does not start an engine on the server's I/O thread to learn its options.
    hub.message(client, R"({"type": "new_game", "game": "tak", "players": ["person", "tak"], "options": [{}, {"Hash": 16}]})");
    CHECK_THAT(json::text(client->wait_for(at, [](const Json& m) { return type_of(m) == "error"; }), "message"),
               Catch::Contains("ask for them first"));
    hub.message(client, R"({"type": "engine_options", "engine": "tak"})");
    const Json described = client->wait_for(at, [](const Json& m) { return type_of(m) == "engine_options"; });
    std::map<std::string, Json> options;
    for (const Json& option : described.at("options")) options[option.at("name").get<std::string>()] = option;
    REQUIRE(options.count("Hash"));
    CHECK(options["Hash"].at("value") == 32);  // the command line's value
    CHECK(options["Hash"].at("max").get<std::int64_t>() < 65536);  // half the machine's memory at most
    CHECK(options.count("HalfKomi") == 0);  // the rules set it
    CHECK(options.count("EvalFile") == 0);  // strings stay with the command line
    REQUIRE(options.count("Player"));
    CHECK(options["Player"].at("type") == "combo");
    // An engine that cannot start: its options answer says why, and the hub goes on.
    hub.message(client, R"({"type": "engine_options", "engine": "missing"})");
    const Json failed = client->wait_for(at, [](const Json& m) { return type_of(m) == "engine_options"; });
    CHECK_THAT(json::text(failed, "error"), Catch::Contains("/nonexistent/engine"));
    CHECK(failed.at("options").empty());

    const auto refused = [&](const std::string& values, const std::string& expected) {
        INFO(values);
        hub.message(client, R"({"type": "new_game", "game": "tak", "variant": {"size": 5}, "players": ["person", "tak"],
                                "limit": {"depth": 1}, "options": [{}, )" + values + "]}");
        CHECK_THAT(json::text(client->wait_for(at, [](const Json& m) { return type_of(m) == "error"; }), "message"),
                   Catch::Contains(expected));
    };
    refused(R"({"Hash": 999999999})", "Hash must be a whole number from 1 to");
    refused(R"({"Hash": "64"})", "Hash must be a whole number");
    refused(R"({"NoSuch": 1})", "has no option 'NoSuch'");
    refused(R"({"HalfKomi": 4})", "not here");
    refused(R"({"EvalFile": "/etc/passwd"})", "not here");
    refused(R"({"Player": "nonsense"})", "must be one of");
    hub.message(client, R"({"type": "new_game", "game": "tak", "variant": {"size": 5}, "players": ["person", "tak"],
                            "limit": {"depth": 1}, "options": [{}, {"Hash": 16, "Player": "alphabeta"}]})");
    client->wait_for(at, [](const Json& m) { return type_of(m) == "created"; });
    client->wait_for(at, [](const Json& m) { return type_of(m) == "state" && !m.at("legal").empty(); });
    hub.closed(client);
}

TEST_CASE("gui: a pbrain engine analyses by searches of growing length, and YXSTOP ends one at once", "[gui]") {
    CHECK(pbrain_analysis_step(0) == std::chrono::milliseconds(500));
    CHECK(pbrain_analysis_step(2) == std::chrono::milliseconds(2000));
    CHECK(pbrain_analysis_step(40) == std::chrono::milliseconds(32000));
    EngineEntry engine;
    engine.game = "gomoku";
    engine.config.name = "gomoku-pbrain";
    engine.config.command = BGE_GOMOKU_BINARY;
    engine.config.dialect = protocol::Dialect::pbrain;
    Hub hub({engine});
    auto client = std::make_shared<RecordingClient>();
    hub.message(client, R"({"type": "analyse", "game": "gomoku", "variant": {"size": 15}, "moves": "h8 h9"})");
    std::size_t at = 0;
    const std::int64_t id =
        client->wait_for(at, [](const Json& m) { return type_of(m) == "created"; }).at("id").get<std::int64_t>();
    hub.message(client, fmt::format(R"({{"type": "start", "id": {}, "engine": "gomoku-pbrain"}})", id));
    // Two whole searches (0.5 s, then 1 s): each ends with its best move on the board.
    for (const std::int64_t searched : {500, 1000}) {
        const Json info = client->wait_for(at, [&](const Json& m) {
            return type_of(m) == "info" && json::member(json::member(m.at("info"), "best"), "searched_ms") == searched;
        });
        CHECK(!info.at("info").at("pv").at("moves").empty());
    }
    // The third search (2 s) is cut short by a move: the new position shows at once.
    const auto moved_at = std::chrono::steady_clock::now();
    hub.message(client, fmt::format(R"({{"type": "move", "id": {}, "move": "i9"}})", id));
    const Json moved = client->wait_for(at, [](const Json& m) { return type_of(m) == "state" && m.at("ply") == 3; });
    CHECK(std::chrono::steady_clock::now() - moved_at < std::chrono::milliseconds(1500));
    CHECK(moved.at("analysing") == true);
    CHECK(!moved.contains("error"));
    client->wait_for(at, [&](const Json& m) { return type_of(m) == "info" && m.at("ply") == 3; });
    hub.closed(client);

    // A pbrain engine that answers ERROR is not asked again and again: the analysis stops and says why.
    EngineEntry refuser;
    refuser.game = "gomoku";
    refuser.config.name = "refuser";
    refuser.config.command = "/bin/sh";
    refuser.config.arguments = {"-c", "while read -r line; do case \"$line\" in START*) echo OK;; ABOUT) echo 'name=\"refuser\"';; "
                                      "DONE|BEGIN|TURN*) echo 'ERROR no thanks';; END) exit 0;; esac; done"};
    refuser.config.dialect = protocol::Dialect::pbrain;
    Hub second_hub({refuser});
    auto second = std::make_shared<RecordingClient>();
    second_hub.message(second, R"({"type": "analyse", "game": "gomoku", "variant": {"size": 15}, "moves": "h8"})");
    std::size_t second_at = 0;
    const std::int64_t second_id =
        second->wait_for(second_at, [](const Json& m) { return type_of(m) == "created"; }).at("id").get<std::int64_t>();
    second_hub.message(second, fmt::format(R"({{"type": "start", "id": {}, "engine": "refuser"}})", second_id));
    const Json stopped = second->wait_for(second_at, [](const Json& m) { return type_of(m) == "state" && m.contains("error"); });
    CHECK_THAT(json::text(stopped, "error"), Catch::Contains("answered 'ERROR no thanks'"));
    CHECK(stopped.at("analysing") == false);
    second_hub.closed(second);
}
