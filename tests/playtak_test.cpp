// The playtak bridge: its move conversion and protocol parsing directly, then the real `playtak`
// binary driving the real `tak` engine against a fake server (tests/playtak_fake_server.hpp) on
// 127.0.0.1: whole games, a dropped connection and resume, garbage and refusals, an engine
// crash, SIGINT, and the password staying secret.

#include <catch2/catch.hpp>

#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/tak/ptn_file.hpp"
#include "playtak_fake_server.hpp"
#include "tools/playtak/move_conversion.hpp"
#include "tools/playtak/server_protocol.hpp"

namespace {

using namespace bge;
using namespace bge::testing;
using namespace bge::playtak;
namespace fs = std::filesystem;

// ---- unit tests -------------------------------------------------------------------------------

TEST_CASE("server moves convert to PTN and back", "[playtak]") {
    CHECK(*server_move_to_ptn("P A1", 5) == "a1");
    CHECK(*server_move_to_ptn("P C3 W", 5) == "Sc3");
    CHECK(*server_move_to_ptn("P E5 C", 5) == "Ce5");
    CHECK(*server_move_to_ptn("M A1 C1 1 2", 5) == "3a1>12");
    CHECK(*server_move_to_ptn("M C3 C4 1", 5) == "1c3+1");
    CHECK(*server_move_to_ptn("M E2 B2 1 1 1", 5) == "3e2<111");
    CHECK(*server_move_to_ptn("M D4 D1 2 1 1", 6) == "4d4-211");
    CHECK(*server_move_to_ptn("  P   b2  ", 5) == "b2");

    for (const char* bad : {"", "X A1", "P", "P A1 F", "P F1", "P A0", "P A10", "M A1", "M A1 C1", "M A1 C1 1",
                            "M A1 B2 1", "M A1 A1 1", "M A1 C1 0 1", "M A1 C1 1 x", "M A1 C1 3 3"}) {
        INFO(bad);
        CHECK_FALSE(server_move_to_ptn(bad, 5).ok());
    }

    tak::State state = tak::start_state(tak::Variant{5, 0, false});
    CHECK(format_server_move(*tak::parse_move(state, "a1")) == "P A1");
    CHECK_FALSE(parse_server_move(state, "P A1 W").ok());  // no walls in the first two plies
    for (const char* ptn : {"a1", "e1", "b1", "a2", "b1<", "b2"}) {
        auto move = tak::parse_move(state, ptn);
        REQUIRE(move.ok());
        tak::play(state, *move);
    }
    CHECK(format_server_move(*tak::parse_move(state, "Cc3")) == "P C3 C");
    CHECK(format_server_move(*tak::parse_move(state, "Sd4")) == "P D4 W");
    CHECK(format_server_move(*tak::parse_move(state, "2a1+")) == "M A1 A2 2");
    CHECK(*ptn_to_server_move(state, "2a1>11") == "M A1 C1 1 1");
    CHECK(*parse_server_move(state, "M A1 C1 1 1") == *tak::parse_move(state, "2a1>11"));
    CHECK_FALSE(ptn_to_server_move(state, "3a1>111").ok());   // only two pieces there
    CHECK_FALSE(parse_server_move(state, "M B2 B3 1").ok());  // Black's stone
}

TEST_CASE("every legal move survives the server's notation, read by an independent codec", "[playtak]") {
    Random random(2024);
    for (int size = 3; size <= 8; ++size) {
        for (int game = 0; game < 6; ++game) {
            tak::State state = tak::start_state(tak::Variant{size, 0, false});
            auto moves = std::make_unique<FixedVector<tak::Move, tak::max_legal_moves>>();
            for (int ply = 0; ply < 60 && !tak::outcome(state).is_over(); ++ply) {
                tak::generate_moves(state, *moves);
                for (tak::Move move : *moves) {
                    const std::string text = format_server_move(move);
                    INFO(tak::format_tps(state) << " " << tak::format_move(move) << " -> " << text);
                    auto back = parse_server_move(state, text);
                    REQUIRE(back.ok());
                    REQUIRE(*back == move);
                    REQUIRE(fake_parse_move(state, text) == std::optional<tak::Move>(move));
                    REQUIRE(fake_format_move(move) == text);
                }
                tak::play(state, (*moves)[random.below(static_cast<std::uint32_t>(moves->size()))]);
            }
        }
    }
}

TEST_CASE("server lines are parsed, and garbage is reported, not thrown", "[playtak]") {
    auto start =
        std::get<GameStart>(parse_server_line("Game Start 17 alice vs bob black 6 900 20 4 30 1 1 0 12 300 1\r"));
    CHECK(start.game == 17);
    CHECK(start.white == "alice");
    CHECK(start.black == "bob");
    CHECK_FALSE(start.we_are_white);
    CHECK(start.size == 6);
    CHECK(start.time_s == 900);
    CHECK(start.increment_s == 20);
    CHECK(start.half_komi == 4);
    CHECK(start.pieces == 30);
    CHECK(start.capstones == 1);
    CHECK(start.unrated);
    CHECK_FALSE(start.tournament);
    CHECK(start.trigger_move == 12);
    CHECK(start.extra_time_s == 300);
    CHECK(start.bot_game);

    auto old = std::get<GameStart>(parse_server_line("Game Start 3 5 alice vs bob white 180"));
    CHECK(old.size == 5);
    CHECK(old.we_are_white);
    CHECK(old.time_s == 180);

    auto seek = std::get<SeekNew>(parse_server_line("Seek new 12 alice 5 300 5 W 2 21 1 0 0 0 0  0"));
    CHECK(seek.number == 12);
    CHECK(seek.player == "alice");
    CHECK(seek.settings.size == 5);
    CHECK(seek.settings.color == 'W');
    CHECK(seek.settings.half_komi == 2);
    CHECK(seek.settings.pieces == 21);
    CHECK(seek.settings.opponent.empty());
    auto for_bob = std::get<SeekNew>(parse_server_line("Seek new 13 alice 6 300 5 A 0 30 1 1 0 0 0 bob 1"));
    CHECK(for_bob.settings.opponent == "bob");
    CHECK(for_bob.bot);
    CHECK(std::get<SeekRemove>(parse_server_line("Seek remove 12 alice 5 300")).number == 12);

    auto move = std::get<GameMove>(parse_server_line("Game#17 M A1 C1 1 2"));
    CHECK(move.game == 17);
    CHECK(move.move == "M A1 C1 1 2");
    CHECK(std::get<GameMove>(parse_server_line("Game#17 P A1 ")).move == "P A1");
    auto time = std::get<GameTime>(parse_server_line("Game#17 Timems 61234 59000"));
    CHECK(time.white_ms == 61234);
    CHECK(time.black_ms == 59000);
    CHECK(std::get<GameTime>(parse_server_line("Game#17 Time 61 59")).white_ms == 61000);
    CHECK(std::get<GameOver>(parse_server_line("Game#17 Over 0-R")).result == "0-R");
    CHECK(std::holds_alternative<GameAbandoned>(parse_server_line("Game#17 Abandoned. bob quit")));
    CHECK(std::get<GameRequest>(parse_server_line("Game#17 RequestUndo")).kind == GameRequest::Kind::request_undo);
    CHECK(std::get<GameRequest>(parse_server_line("Game#17 OfferDraw")).kind == GameRequest::Kind::offer_draw);
    CHECK(std::get<LoggedIn>(parse_server_line("Welcome Guest42!")).name == "Guest42");
    CHECK(std::holds_alternative<Greeting>(parse_server_line("Welcome!")));
    CHECK(std::holds_alternative<LoginPrompt>(parse_server_line("Login or Register")));
    CHECK(std::holds_alternative<AuthenticationFailure>(parse_server_line("Authentication failure")));
    CHECK(std::holds_alternative<Nok>(parse_server_line("NOK")));
    CHECK(std::holds_alternative<ServerError>(parse_server_line("Error:Invalid move")));
    CHECK(std::holds_alternative<Chatter>(parse_server_line("Online 42")));

    for (const char* bad : {"Game#", "Game#x P A1", "Game#1", "Game#1 Frobnicate", "Game#1 Timems 1", "Game#1 Time a b",
                            "Game#1 Over 2-0", "Game Start 1 alice bob white", "Game Start x alice vs bob white 5",
                            "Game Start 1 alice vs bob green 5", "Seek new", "Seek new x alice 5 60", "Seek foo 1",
                            "Seek new 1 alice 5 60 5 Q", "whatever this is", "\x01\xff"}) {
        INFO(bad);
        CHECK(std::holds_alternative<Malformed>(parse_server_line(bad)));
    }
}

TEST_CASE("client lines: the V3 seek, its removal, and the masked login", "[playtak]") {
    SeekSettings seek;
    seek.size = 5;
    seek.time_s = 60;
    seek.increment_s = 1;
    seek.color = 'W';
    seek.half_komi = 4;
    seek.pieces = 21;
    seek.capstones = 1;
    seek.unrated = true;
    CHECK(seek_line(seek) == "Seek 5 60 1 W 4 21 1 1 0 0 0 ");  // the space before an empty opponent
    seek.opponent = "alice";
    seek.tournament = true;
    seek.trigger_move = 10;
    seek.extra_time_s = 120;
    CHECK(seek_line(seek) == "Seek 5 60 1 W 4 21 1 1 1 10 120 alice");
    CHECK(remove_seek_line() == "Seek 0 0 0 A 0 0 0 0 0 0 0 ");
    CHECK(loggable("Login MyBot hunter2") == "Login MyBot ********");
    CHECK(loggable("Login Guest") == "Login Guest");
    CHECK(loggable("Login Guest abcdefghijklmnopqrst") == "Login Guest ********");
    CHECK(loggable("Game#3 P A1") == "Game#3 P A1");
    CHECK(game_line(3, "Resign") == "Game#3 Resign");
}

TEST_CASE("protocol 2 seeks: an empty opponent is written 0; OnlinePlayers is a known message", "[playtak]") {
    // Issue 20, point 1: the line the real server sends for an open seek.
    auto open = std::get<SeekNew>(parse_server_line("Seek new 1 BotAlpha 5 180 1 A 4 21 1 0 0 0 0 0 1"));
    CHECK(open.player == "BotAlpha");
    CHECK(open.settings.opponent.empty());
    CHECK(open.settings.half_komi == 4);
    CHECK(open.bot);
    auto old_style = std::get<SeekNew>(parse_server_line("Seek new 2 alice 5 180 1 A 4 21 1 0 0 0 0  0"));
    CHECK(old_style.settings.opponent.empty());
    CHECK(std::get<SeekNew>(parse_server_line("Seek new 3 alice 5 180 1 A 4 21 1 0 0 0 0 bob 0")).settings.opponent ==
          "bob");
    // Point 11.
    CHECK(std::holds_alternative<Chatter>(parse_server_line("OnlinePlayers [\"alice\", \"bob\"]")));
    CHECK(std::holds_alternative<Chatter>(parse_server_line("OnlinePlayers []")));
    CHECK(std::holds_alternative<Chatter>(parse_server_line("Is Mod")));
    CHECK(std::holds_alternative<Chatter>(parse_server_line("Game#4 GivenTime white 15000")));
}

TEST_CASE("logins the server cannot read are found before connecting; guests carry a token", "[playtak]") {
    // Issue 20, point 3: the server's pattern is ^Login ([a-zA-Z][a-zA-Z0-9_]{3,15}) ([^\s]{6,50}).
    for (const char* good : {"MyBot", "abcd", "a_b_c_d_e_f_g_h1", "Tak_Bot9"}) {
        INFO(good);
        CHECK_FALSE(user_name_problem(good));
    }
    CHECK(*user_name_problem("abc") == "the user name must be 4-16 characters long (it has 3)");
    CHECK(*user_name_problem("abcdefghijklmnopq") == "the user name must be 4-16 characters long (it has 17)");
    CHECK(*user_name_problem("9lives") == "the user name must begin with a letter");
    CHECK(*user_name_problem("my-bot") == "the user name may hold only letters, digits and '_'");
    CHECK(*user_name_problem("GuestBot") == "the server reads a user name beginning with 'Guest' as a guest login");
    CHECK_FALSE(password_problem("sixsix"));
    CHECK_FALSE(password_problem(std::string(50, 'p')));
    CHECK(*password_problem("five5") == "the password must be 6-50 characters long (it has 5)");
    CHECK(*password_problem(std::string(51, 'p')) == "the password must be 6-50 characters long (it has 51)");
    CHECK(*password_problem("with space") == "the password must not hold spaces or other white space");
    CHECK(*password_problem("with\ttab") == "the password must not hold spaces or other white space");

    // Point 4: Login Guest <20 lowercase letters> keeps the guest's name across logins.
    const std::string token = make_guest_token();
    REQUIRE(token.size() == 20);
    for (char c : token) CHECK((c >= 'a' && c <= 'z'));
    CHECK(make_guest_token() != token);
    CHECK(guest_login_line(token) == "Login Guest " + token);
}

TEST_CASE("the seek as the server will post it", "[playtak]") {
    // Issue 20, point 9: the limits of the server's Seek class.
    SeekSettings seek;
    seek.size = 6;
    seek.half_komi = 4;
    seek.pieces = 30;
    seek.capstones = 1;
    auto same = server_adjusted_seek(seek);
    CHECK(same.changes.empty());
    CHECK(same.seek.half_komi == 4);

    seek.half_komi = -2;
    auto negative = server_adjusted_seek(seek);
    CHECK(negative.seek.half_komi == 0);
    CHECK(negative.changes == std::vector<std::string>{"half-komi -2 becomes 0 (the server reads no negative komi)"});
    seek.half_komi = 9;
    CHECK(server_adjusted_seek(seek).seek.half_komi == 8);
    CHECK(server_adjusted_seek(seek).changes == std::vector<std::string>{"half-komi 9 becomes 8 (the server's maximum)"});

    seek.half_komi = 0;
    seek.size = 9;
    seek.pieces = 5;
    seek.capstones = 7;
    auto all = server_adjusted_seek(seek);
    CHECK(all.seek.size == 5);
    CHECK(all.seek.pieces == 10);
    CHECK(all.seek.capstones == 5);
    CHECK(all.changes == std::vector<std::string>{"board size 9 becomes 5 (the server allows 3-8)",
                                                  "5 stones become 10 (the server allows 10-80)",
                                                  "7 capstones become 5 (the server's maximum)"});
    seek.size = 2;
    seek.pieces = 81;
    seek.capstones = 5;
    auto other = server_adjusted_seek(seek);
    CHECK(other.seek.size == 5);
    CHECK(other.seek.pieces == 80);
    CHECK(other.seek.capstones == 5);
}

// ---- the bridge against the fake server -------------------------------------------------------

class TempDir {
public:
    TempDir() {
        static int counter = 0;
        path_ = fs::temp_directory_path() /
                ("bge_playtak_test_" + std::to_string(::getpid()) + "_" + std::to_string(++counter));
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() {
        if (std::getenv("BGE_KEEP_TEST_FILES")) return;  // for looking at the bridge's logs
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

std::string read_file(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

class BridgeRun {
public:
    BridgeRun(int port, const TempDir& dir, const std::vector<std::string>& extra,
              const std::string& engine = BGE_TAK_BINARY)
        : dir_(dir) {
        protocol::ProcessOptions options;
        options.command = BGE_PLAYTAK_BINARY;
        options.arguments = {"--host",
                             "127.0.0.1",
                             "--port",
                             std::to_string(port),
                             "--engine",
                             engine,
                             "--log-file",
                             (dir.path() / "bridge.log").string(),
                             "--ptn-dir",
                             (dir.path() / "ptn").string()};
        const auto given = [&](const std::string& flag) { return std::find(extra.begin(), extra.end(), flag) != extra.end(); };
        if (!given("--reconnect-min-ms")) options.arguments.insert(options.arguments.end(), {"--reconnect-min-ms", "100"});
        if (!given("--reconnect-max-ms")) options.arguments.insert(options.arguments.end(), {"--reconnect-max-ms", "400"});
        if (!given("--size")) options.arguments.insert(options.arguments.end(), {"--size", "5"});
        options.arguments.insert(options.arguments.end(), extra.begin(), extra.end());
        options.stderr_path = (dir.path() / "stderr.txt").string();
        REQUIRE(process_.start(options));
    }
    ~BridgeRun() { process_.kill(); }

    int pid() const { return process_.pid(); }
    void interrupt() { REQUIRE(::kill(process_.pid(), SIGINT) == 0); }

    // Reads stdout to its end and returns the exit status.
    int wait_exit(std::chrono::milliseconds timeout = 15'000ms) {
        const auto deadline = SteadyClock::now() + timeout;
        for (;;) {
            const auto read = process_.read_line_until(deadline);
            if (read.status == protocol::ReadStatus::line) {
                stdout_lines.push_back(read.line);
                continue;
            }
            INFO("the bridge should exit by itself; its log:\n" << log());
            REQUIRE(read.status == protocol::ReadStatus::closed);
            break;
        }
        REQUIRE(process_.wait_for_exit(5'000ms));
        return process_.exit_status().value_or(-1000);
    }

    std::string log() const { return read_file(dir_.path() / "bridge.log"); }
    bool wait_for_log(const std::string& part, std::chrono::milliseconds timeout = 15'000ms) const {
        const auto deadline = SteadyClock::now() + timeout;
        while (SteadyClock::now() < deadline) {
            if (log().find(part) != std::string::npos) return true;
            std::this_thread::sleep_for(20ms);
        }
        return false;
    }
    std::string stderr_text() const { return read_file(dir_.path() / "stderr.txt"); }
    // Every engine pid the bridge reported starting, in order.
    std::vector<int> engine_pids() const {
        std::vector<int> pids;
        std::istringstream lines(log());
        std::string line;
        while (std::getline(lines, line)) {
            const auto at = line.find("engine started: ");
            const auto pid_at = line.find("(pid ");
            if (at != std::string::npos && pid_at != std::string::npos)
                pids.push_back(std::stoi(line.substr(pid_at + 5)));
        }
        return pids;
    }

    std::vector<std::string> stdout_lines;

private:
    const TempDir& dir_;
    protocol::EngineProcess process_;
};

// The server side of logging in; returns the Login line.
std::string log_in(FakeConnection& connection, const std::string& name = "TestBot") {
    connection.send("Welcome!");
    connection.send("Login or Register");
    CHECK(connection.expect_prefix("Client ") == "Client bge-playtak");
    connection.send("OK");
    CHECK(connection.expect_prefix("Protocol") == "Protocol 2");
    connection.send("OK");
    const std::string login = connection.expect_prefix("Login ");
    connection.send("Welcome " + name + "!");
    return login;
}

// The bridge's Seek. The server gives no answer but announces the seek to everyone, the seeker
// too, with "Seek new" (protocol 2: an empty opponent is "0", and a last field says whether the
// seeker is a bot).
std::string expect_seek(FakeConnection& connection, const std::string& name = "TestBot", int number = 1) {
    const std::string seek = connection.expect_prefix("Seek ");
    std::vector<std::string> fields;
    std::size_t start = 5;
    for (std::size_t space = seek.find(' ', start); space != std::string::npos; space = seek.find(' ', start)) {
        fields.push_back(seek.substr(start, space - start));
        start = space + 1;
    }
    fields.push_back(seek.substr(start));
    REQUIRE(fields.size() == 12);
    std::string announced = "Seek new " + std::to_string(number) + " " + name;
    for (int i = 0; i < 11; ++i) announced += " " + fields[i];
    connection.send(announced + " " + (fields[11].empty() ? "0" : fields[11]) + " 0");
    return seek;
}

bool is_move_line(const std::string& line) {
    const auto words = words_of(line);
    return words.size() >= 2 && words[0].rfind("Game#", 0) == 0 && (words[1] == "P" || words[1] == "M");
}

// The bridge's next move in `game`, checked for legality by the server's own codec.
tak::Move read_bridge_move(FakeConnection& connection, const FakeGame& game) {
    const std::string line = connection.expect(is_move_line, "the bridge's move");
    INFO("position " << tak::format_tps(game.state) << ", bridge sent: " << line);
    REQUIRE(line.rfind(game.prefix(), 0) == 0);
    REQUIRE(game.bridge_to_move());
    const auto move = fake_parse_move(game.state, line.substr(game.prefix().size()));
    REQUIRE(move.has_value());
    return *move;
}

// Nothing the bridge has sent so far is a move (it must not move out of turn).
void require_no_move_waiting(FakeConnection& connection) {
    while (auto line = connection.read_line(0ms)) {
        INFO("the bridge sent a move out of turn: " << *line);
        REQUIRE_FALSE(is_move_line(*line));
        if (*line == "PING") connection.send("OK");
    }
}

// Plays the game out (or until `pause` says so before a turn): the bridge's moves are checked,
// the opponent plays random legal moves. As the real server does (Game.placeMove): after every
// move the clock line goes to both players, then the move to the opponent of the mover, then
// the end of the game if it ended, and only then OK to the mover. Returns true when the game is
// over; with `announce_end` false the end is not announced (the connection fails first).
bool play(FakeConnection& connection, FakeGame& game, const std::function<bool(const FakeGame&)>& pause = {},
          bool announce_end = true) {
    for (;;) {
        if (game.over()) return true;
        if (pause && pause(game)) return false;
        const bool bridge_moved = game.bridge_to_move();
        tak::Move move{};
        if (bridge_moved) {
            move = read_bridge_move(connection, game);
        } else {
            require_no_move_waiting(connection);
            move = game.random_move();
        }
        game.play(move);
        connection.send(game.time_line());
        if (!bridge_moved) connection.send(game.prefix() + fake_format_move(move));
        if (game.over() && announce_end)
            connection.send(game.prefix() + "Over " + tak::result_text(tak::outcome(game.state)));
        if (bridge_moved) connection.send("OK");
    }
}

// `quit`, after which the server closes the connection, as playtak does.
void expect_quit(FakeConnection& connection) {
    connection.expect([](const std::string& line) { return line == "quit"; }, "quit");
    connection.close();
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<fs::path> ptn_files(const TempDir& dir) {
    std::vector<fs::path> files;
    if (!fs::exists(dir.path() / "ptn")) return files;
    for (const auto& entry : fs::directory_iterator(dir.path() / "ptn")) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

TEST_CASE("the bridge plays whole games on the clock and records them", "[playtak]") {
    FakeServer server;
    TempDir dir;
    BridgeRun bridge(server.port(), dir,
                     {"--games", "2", "--time", "60", "--increment", "1", "--unrated", "--verbose"});
    auto connection = server.accept();
    log_in(*connection);
    CHECK(expect_seek(*connection) == "Seek 5 60 1 A 0 21 1 1 0 0 0 ");

    FakeGame first;
    first.id = 101;
    first.time_s = 2;
    first.begin();
    connection->send(first.start_line());  // no clock line: the bridge starts on the announced time
    REQUIRE(play(*connection, first));

    CHECK(expect_seek(*connection) == "Seek 5 60 1 A 0 21 1 1 0 0 0 ");
    FakeGame second;
    second.id = 102;
    second.bridge_white = false;
    second.white = "Opponent";
    second.black = "TestBot";
    second.half_komi = 4;
    second.time_s = 2;
    second.random.reseed(99);
    second.begin();
    connection->send(second.start_line());
    connection->send(second.time_line());
    REQUIRE(play(*connection, second));

    expect_quit(*connection);
    REQUIRE(bridge.wait_exit() == 0);

    const std::string log = bridge.log();
    INFO(log);
    CHECK(contains(log,
                   "engine: thinking on ply 1: go wtime 1700 btime 1700 winc 0 binc 0"));  // the lag margin is off both
    CHECK(contains(log, "engine < teinewgame 5"));
    CHECK(contains(log, "engine < setoption name HalfKomi value 4"));
    REQUIRE(bridge.stdout_lines.size() == 2);
    CHECK(bridge.stdout_lines[0].rfind("game 101: TestBot vs Opponent: ", 0) == 0);
    CHECK(bridge.stdout_lines[1].rfind("game 102: Opponent vs TestBot: ", 0) == 0);

    const auto files = ptn_files(dir);
    REQUIRE(files.size() == 2);
    const FakeGame* games[] = {&first, &second};
    for (int i = 0; i < 2; ++i) {
        INFO(files[i]);
        auto record = tak::parse_ptn(read_file(files[i]));
        REQUIRE(record.ok());
        CHECK(record->moves == games[i]->moves);
        CHECK(record->tag("Player1") == games[i]->white);
        CHECK(record->tag("Player2") == games[i]->black);
        CHECK(record->tag("Size") == "5");
        CHECK(record->tag("Clock") == "0:02 +0");
        CHECK(record->result == tak::result_text(tak::outcome(games[i]->state)));
    }
    CHECK(tak::parse_ptn(read_file(files[1]))->tag("Komi") == "2");
}

TEST_CASE("after a dropped connection the bridge reconnects and resumes the game", "[playtak]") {
    FakeServer server;
    TempDir dir;
    BridgeRun bridge(server.port(), dir, {"--games", "1", "--movetime-ms", "30"});
    auto connection = server.accept();
    log_in(*connection);
    expect_seek(*connection);
    FakeGame game;
    game.id = 201;
    game.time_s = 60;
    game.begin();
    connection->send(game.start_line());
    connection->send(game.time_line());

    // The bridge's third move reached the server; then the line drops.
    REQUIRE_FALSE(play(*connection, game, [](const FakeGame& g) { return g.moves.size() == 5; }));
    connection->close();
    connection = server.accept();
    log_in(*connection);
    game.resend(*connection);

    // Its fifth move is lost with the connection: after the replay it is its turn again.
    REQUIRE_FALSE(play(*connection, game, [](const FakeGame& g) { return g.moves.size() == 8; }));
    read_bridge_move(*connection, game);
    connection->close();
    connection = server.accept();
    log_in(*connection);
    game.resend(*connection);

    REQUIRE(play(*connection, game));
    expect_quit(*connection);
    REQUIRE(bridge.wait_exit() == 0);
    const std::string log = bridge.log();
    INFO(log);
    CHECK(contains(log, "game 201: resumed at ply 5; the server's moves match ours"));
    CHECK(contains(log, "game 201: resumed at ply 8; the server does not have our last 1 move(s)"));
    REQUIRE(bridge.stdout_lines.size() == 1);
    CHECK(contains(bridge.stdout_lines[0], "game 201:"));
}

TEST_CASE("garbage, NOK and refused or impossible moves do not stop the bridge", "[playtak]") {
    FakeServer server;
    TempDir dir;
    BridgeRun bridge(server.port(), dir, {"--games", "1", "--movetime-ms", "30", "--seek-retry-ms", "200"});
    auto connection = server.accept();
    log_in(*connection);
    // The server answers no Seek; a seek it does not announce back is sent again.
    connection->expect_prefix("Seek ");
    expect_seek(*connection);

    FakeGame game;
    game.id = 301;
    game.bridge_white = false;
    game.white = "Opponent";
    game.black = "TestBot";
    game.begin();
    connection->send(game.start_line());
    connection->send(game.time_line());
    for (const std::string& garbage : {std::string(""),
                                       std::string("   "),
                                       std::string("Gibberish from the server"),
                                       std::string("Game#"),
                                       std::string("Game#abc P A1"),
                                       std::string("Game#301 Frobnicate"),
                                       std::string("Game#301 Timems x y"),
                                       std::string("Game#301 Over 3-4"),
                                       std::string("Game#999 P A1"),
                                       std::string("Game#999 Over R-0"),
                                       std::string("Seek new x y"),
                                       std::string("Game Start nonsense"),
                                       std::string("Game Start 900 Alice vs Bob white 5 60 0 0 21 1 1 0 0 0 0"),
                                       std::string("OnlinePlayers [\"Alice\", \"Bob\", \"TestBot\"]"),
                                       std::string("Error: something odd"),
                                       std::string("NOK"),
                                       std::string("OK"),
                                       std::string(100'000, 'x'),
                                       std::string("\x01\x02\xff\xfe"),
                                       std::string("Welcome!"),
                                       std::string("Online 12"),
                                       std::string("Shout <someone> hello")})
        connection->send(garbage);
    connection->send_raw("Game#301 RemoveDraw\r\n");

    // The server refuses the bridge's first move: the bridge resynchronises by reconnecting.
    const tak::Move opening = game.random_move();
    game.play(opening);
    connection->send(game.prefix() + fake_format_move(opening));
    connection->send(game.time_line());
    read_bridge_move(*connection, game);
    connection->send("NOK");
    connection->send("Error:Square not empty");
    REQUIRE(connection->wait_closed(5'000ms));
    connection = server.accept();
    log_in(*connection);
    game.resend(*connection);

    // A move the bridge cannot apply (onto an occupied square): again it resynchronises.
    REQUIRE_FALSE(play(*connection, game, [](const FakeGame& g) { return g.moves.size() == 6; }));
    REQUIRE_FALSE(game.bridge_to_move());
    int occupied = -1;
    for (int square = 0; square < tak::square_count && occupied < 0; ++square)
        if (game.state.height[square] > 0) occupied = square;
    connection->send(game.prefix() + fake_format_move(tak::Move::place(occupied, tak::Stone::flat)));
    REQUIRE(connection->wait_closed(5'000ms));
    connection = server.accept();
    log_in(*connection);
    game.resend(*connection);

    REQUIRE(play(*connection, game));
    expect_quit(*connection);
    REQUIRE(bridge.wait_exit() == 0);
    const std::string log = bridge.log();
    INFO(log);
    CHECK(contains(log, "the server did not announce our seek within 0.2 s: seeking again"));
    CHECK(contains(log, "ignored: an unknown game command"));
    CHECK(contains(log, "ignored: game 999 is not ours"));
    CHECK(contains(log, "ignored: game 900 is between Alice and Bob, not us (TestBot)"));
    // A refused first move as Black is a refused move, with the server's reason.
    CHECK(contains(log, "game 301: the server refused our move ('Error:Square not empty')"));
    CHECK_FALSE(contains(log, "refused our seek"));
    CHECK_FALSE(contains(log, "OnlinePlayers [\"Alice\", \"Bob\", \"TestBot\"]' "));
    CHECK_FALSE(contains(log, "ignored: an unknown message: 'OnlinePlayers"));
    CHECK(contains(log, "cannot apply the server's move"));
    CHECK(bridge.stdout_lines.size() == 1);
}

TEST_CASE("an unanswered seek is kept alive with PING, and SIGINT removes it and quits", "[playtak]") {
    FakeServer server;
    TempDir dir;
    BridgeRun bridge(server.port(), dir, {"--ping-interval-ms", "150"});
    auto connection = server.accept();
    log_in(*connection);
    expect_seek(*connection);
    // Nothing but PING comes while the seek waits (three of them, 150 ms apart).
    const auto deadline = SteadyClock::now() + 10'000ms;
    while (connection->pings < 3 && SteadyClock::now() < deadline) {
        if (auto line = connection->read_line(50ms)) {
            REQUIRE(*line == "PING");
            ++connection->pings;
            connection->send("OK");
        }
    }
    CHECK(connection->pings == 3);
    bridge.interrupt();
    CHECK(connection->expect_prefix("Seek ") == "Seek 0 0 0 A 0 0 0 0 0 0 0 ");
    expect_quit(*connection);
    REQUIRE(bridge.wait_exit() == 0);
    CHECK(bridge.stdout_lines.empty());
}

TEST_CASE("SIGINT during a game resigns it with --on-interrupt resign", "[playtak]") {
    FakeServer server;
    TempDir dir;
    BridgeRun bridge(server.port(), dir, {"--movetime-ms", "30", "--on-interrupt", "resign"});
    auto connection = server.accept();
    log_in(*connection);
    expect_seek(*connection);
    FakeGame game;
    game.id = 401;
    game.begin();
    connection->send(game.start_line());
    connection->send(game.time_line());
    REQUIRE_FALSE(play(*connection, game, [](const FakeGame& g) { return g.moves.size() == 3; }));
    bridge.interrupt();
    connection->expect([](const std::string& line) { return line == "Game#401 Resign"; }, "the resignation");
    connection->send("Game#401 Over 0-1");
    expect_quit(*connection);
    REQUIRE(bridge.wait_exit() == 0);
    REQUIRE(bridge.stdout_lines.size() == 1);
    CHECK(contains(bridge.stdout_lines[0], "game 401: TestBot vs Opponent: 0-1, a loss (we were white)"));
}

TEST_CASE("a crashed engine is restarted and the game goes on; SIGINT then finishes the game", "[playtak]") {
    FakeServer server;
    TempDir dir;
    BridgeRun bridge(server.port(), dir, {"--movetime-ms", "30"});
    auto connection = server.accept();
    log_in(*connection);
    expect_seek(*connection);
    FakeGame game;
    game.id = 601;
    game.begin();
    connection->send(game.start_line());
    connection->send(game.time_line());
    REQUIRE_FALSE(play(*connection, game, [](const FakeGame& g) { return g.moves.size() == 3; }));

    const auto pids = bridge.engine_pids();
    REQUIRE(pids.size() == 1);
    REQUIRE(::kill(pids[0], SIGKILL) == 0);
    bridge.interrupt();  // finish the game, then quit without seeking again
    REQUIRE(play(*connection, game));
    expect_quit(*connection);
    REQUIRE(bridge.wait_exit() == 0);
    CHECK(bridge.engine_pids().size() == 2);
    int seeks = 0;
    for (const std::string& line : connection->received) seeks += line.rfind("Seek ", 0) == 0;
    CHECK(seeks == 1);
    CHECK(bridge.stdout_lines.size() == 1);
}

TEST_CASE("accepting a player's seeks; an unplayable game is resigned; undo and draw on request", "[playtak]") {
    FakeServer server;
    TempDir dir;
    BridgeRun bridge(
        server.port(), dir,
        {"--accept-from", "alice", "--games", "2", "--movetime-ms", "30", "--accept-undo", "--accept-draws"});
    auto connection = server.accept();
    log_in(*connection);
    connection->expect([](const std::string& line) { return line == "List"; }, "List");  // no answer

    // The server starts a game the engine cannot play (25 stones on 5x5): the bridge resigns it.
    connection->send("Game Start 700 TestBot vs Alice white 5 60 0 0 25 1 1 0 0 0 0");
    connection->expect([](const std::string& line) { return line == "Game#700 Resign"; }, "the resignation");
    connection->send("Game#700 Over 0-R");  // the only answer to Resign
    connection->expect([](const std::string& line) { return line == "List"; }, "List after the game");

    // Protocol 2 writes an empty opponent as "0".
    connection->send("Seek new 5 Bob 5 60 0 A 0 21 1 1 0 0 0 0 0");        // not Alice
    connection->send("Seek new 6 Alice 9 60 0 A 0 21 1 1 0 0 0 0 0");      // no 9x9
    connection->send("Seek new 7 Alice 5 60 0 A 0 30 1 1 0 0 0 0 0");      // not the standard reserves
    connection->send("Seek new 8 Alice 5 60 0 A 0 21 1 1 0 0 0 Carol 0");  // for someone else
    connection->send("Seek new 9 Alice 5 60 0 A 0 21 1 1 0 0 0 0 1");
    CHECK(connection->expect_prefix("Accept ") == "Accept 9");
    connection->send("NOK");  // someone was faster; a successful Accept gets Game Start instead
    connection->send("Seek new 10 Alice 5 60 0 B 4 21 1 1 0 0 0 TestBot 0");
    CHECK(connection->expect_prefix("Accept ") == "Accept 10");

    FakeGame game;
    game.id = 710;
    game.black = "Alice";
    game.half_komi = 4;
    game.begin();
    connection->send(game.start_line());
    connection->send(game.time_line());
    REQUIRE_FALSE(play(*connection, game, [](const FakeGame& g) { return g.moves.size() == 3; }));

    // Alice takes back the bridge's last move: it is the bridge's turn again in the same position.
    connection->send("Game#710 RequestUndo");
    connection->expect([](const std::string& line) { return line == "Game#710 RequestUndo"; }, "undo accepted");
    game.undo();
    connection->send("Game#710 Undo");
    connection->send("OK");
    game.play(read_bridge_move(*connection, game));
    connection->send(game.time_line());
    connection->send("OK");

    connection->send("Game#710 OfferDraw");
    connection->expect([](const std::string& line) { return line == "Game#710 OfferDraw"; }, "draw accepted");
    connection->send("Game#710 Over 1/2-1/2");
    connection->send("OK");
    expect_quit(*connection);
    REQUIRE(bridge.wait_exit() == 0);

    const std::string log = bridge.log();
    INFO(log);
    CHECK(contains(log, "game 700: resigning: the engine cannot play it: 25 stones each"));
    CHECK(contains(log, "not accepting seek 6 from Alice: board size 9"));
    CHECK(contains(log, "not accepting seek 7 from Alice: 30 stones each"));
    CHECK(contains(log, "game 710: undo; back to ply 2"));
    REQUIRE(bridge.stdout_lines.size() == 2);
    CHECK(contains(bridge.stdout_lines[0], "game 700: TestBot vs Alice: 0-R, a loss (we were white)"));
    CHECK(contains(bridge.stdout_lines[1], "game 710: TestBot vs Alice: 1/2-1/2, a draw (we were white)"));
    for (const std::string& line : connection->received) {
        CHECK(line.rfind("Seek ", 0) != 0);
        CHECK(line != "Accept 5");
        CHECK(line != "Accept 8");
    }
}

TEST_CASE("an engine that cannot be started is a clear error", "[playtak]") {
    FakeServer server;
    TempDir dir;
    BridgeRun bridge(server.port(), dir, {}, (dir.path() / "no-such-engine").string());
    CHECK(bridge.wait_exit() == 3);
    CHECK(contains(bridge.stderr_text(), "cannot start the engine"));
}

TEST_CASE("a third-party engine: no komi option, and an illegal move twice resigns", "[playtak]") {
    FakeServer server;
    TempDir dir;
    // A TEI engine with no options that always answers a1.
    const fs::path engine = dir.path() / "always-a1.sh";
    std::ofstream(engine) << "#!/bin/sh\n"
                             "while read line; do\n"
                             "  case \"$line\" in\n"
                             "    tei) echo 'id name always-a1'; echo teiok ;;\n"
                             "    isready) echo readyok ;;\n"
                             "    go*) echo 'bestmove a1' ;;\n"
                             "    quit) exit 0 ;;\n"
                             "  esac\n"
                             "done\n";
    fs::permissions(engine, fs::perms::owner_all);
    BridgeRun bridge(server.port(), dir, {"--games", "2", "--verbose"}, engine.string());
    auto connection = server.accept();
    log_in(*connection);
    expect_seek(*connection);

    FakeGame komi;
    komi.id = 801;
    komi.half_komi = 4;
    komi.begin();
    connection->send(komi.start_line());
    connection->expect([](const std::string& line) { return line == "Game#801 Resign"; }, "komi refused");
    connection->send("Game#801 Over 0-R");
    connection->expect_prefix("Seek ");

    FakeGame game;
    game.id = 802;
    game.begin();
    connection->send(game.start_line());
    connection->send(game.time_line());
    REQUIRE_FALSE(play(*connection, game, [](const FakeGame& g) { return g.moves.size() == 2; }));
    connection->expect([](const std::string& line) { return line == "Game#802 Resign"; }, "illegal moves");
    connection->send("Game#802 Over 0-R");
    expect_quit(*connection);
    REQUIRE(bridge.wait_exit() == 0);

    const std::string log = bridge.log();
    INFO(log);
    CHECK(contains(log, "engine 'always-a1' is ready: sizes 3..8, no komi"));
    CHECK(contains(log,
                   "game 801: resigning: the engine cannot play it: komi 4 half flats, and the engine has no "
                   "HalfKomi option"));
    CHECK(contains(log, "game 802: the engine played 'a1', which is not legal here"));
    CHECK(contains(log, "game 802: resigning: the engine played illegal moves twice"));
    CHECK_FALSE(contains(log, "setoption name HalfKomi"));
    CHECK(bridge.engine_pids().size() == 2);  // restarted before it was asked again
}

// Sets an environment variable for the bridge (a child inherits it) and removes it afterwards.
class ScopedEnvironment {
public:
    ScopedEnvironment(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
    ~ScopedEnvironment() { ::unsetenv(name_); }

private:
    const char* name_;
};

TEST_CASE("the password never appears in the bridge's output, log or engine", "[playtak]") {
    const std::string secret = "Sup3rSecretPw9";
    ScopedEnvironment environment("PLAYTAK_PASSWORD", secret.c_str());
    FakeServer server;
    {
        TempDir dir;
        BridgeRun bridge(server.port(), dir, {"--user", "TestBot", "--verbose"});
        auto connection = server.accept();
        connection->send("Welcome!");
        connection->send("Login or Register");
        connection->expect_prefix("Protocol");
        CHECK(connection->expect_prefix("Login ") == "Login TestBot " + secret);
        const auto pids = bridge.engine_pids();
        REQUIRE(pids.size() == 1);
        CHECK_FALSE(contains(read_file("/proc/" + std::to_string(pids[0]) + "/environ"), secret));
        connection->send("Authentication failure");
        CHECK(bridge.wait_exit() == 2);
        const std::string log = bridge.log();
        CHECK(contains(log, "> Login TestBot ********"));
        CHECK(contains(log, "authentication failed for user 'TestBot'"));
        CHECK_FALSE(contains(log, secret));
        CHECK_FALSE(contains(bridge.stderr_text(), secret));
        for (const std::string& line : bridge.stdout_lines) CHECK_FALSE(contains(line, secret));
    }
    {
        TempDir dir;
        const std::string file_secret = "FilePassw0rd";
        std::ofstream(dir.path() / "password") << file_secret << "\n";
        BridgeRun bridge(server.port(), dir,
                         {"--user", "TestBot", "--password-file", (dir.path() / "password").string(), "--verbose"});
        auto connection = server.accept();
        CHECK(log_in(*connection) == "Login TestBot " + file_secret);
        connection->expect_prefix("Seek ");
        connection->send("Message Your password is " + file_secret);  // even an echo is masked
        bridge.interrupt();
        expect_quit(*connection);
        CHECK(bridge.wait_exit() == 0);
        for (const std::string& text : {bridge.log(), bridge.stderr_text()}) {
            CHECK_FALSE(contains(text, file_secret));
            CHECK_FALSE(contains(text, secret));
        }
        for (const std::string& line : bridge.stdout_lines) CHECK_FALSE(contains(line, file_secret));
    }
}

// ---- issue 20: the bridge as the real server expects it ----------------------------------------

// Runs the bridge with `extra` and no server, expecting it to refuse at once: exit code 1.
std::string refused_command_line(const std::vector<std::string>& extra) {
    TempDir dir;
    FakeServer server;
    BridgeRun bridge(server.port(), dir, extra);
    CHECK(bridge.wait_exit() == 1);
    return bridge.stderr_text();
}

TEST_CASE("a login the server could not read is refused before connecting", "[playtak]") {
    ScopedEnvironment environment("PLAYTAK_PASSWORD", "has a space");
    CHECK(contains(refused_command_line({"--user", "TestBot"}),
                   "playtak: error: the password must not hold spaces or other white space"));
    {
        ScopedEnvironment short_password("PLAYTAK_PASSWORD", "short");
        const std::string error = refused_command_line({"--user", "TestBot"});
        CHECK(contains(error, "the password must be 6-50 characters long (it has 5)"));
        CHECK_FALSE(contains(error, "short\n"));
    }
    {
        ScopedEnvironment long_password("PLAYTAK_PASSWORD", std::string(51, 'x').c_str());
        CHECK(contains(refused_command_line({"--user", "TestBot"}), "the password must be 6-50 characters long"));
    }
    CHECK(contains(refused_command_line({"--user", "Bad-Name"}),
                   "--user: the user name may hold only letters, digits and '_'"));
    CHECK(contains(refused_command_line({"--user", "GuestLike"}), "beginning with 'Guest'"));
}

TEST_CASE("a Login answered NOK stops the bridge instead of retrying", "[playtak]") {
    ScopedEnvironment environment("PLAYTAK_PASSWORD", "readable-password");
    FakeServer server;
    TempDir dir;
    BridgeRun bridge(server.port(), dir, {"--user", "TestBot"});
    auto connection = server.accept();
    connection->send("Welcome!");
    connection->send("Login or Register");
    connection->expect_prefix("Client ");
    connection->send("OK");
    connection->expect_prefix("Protocol ");
    connection->send("OK");
    connection->expect_prefix("Login ");
    connection->send("NOK");  // what the server says to a Login line it cannot match
    CHECK(bridge.wait_exit() == 2);
    CHECK(contains(bridge.log(), "the server could not read our Login line ('NOK')"));
    CHECK_FALSE(contains(bridge.log(), "reconnecting"));
}

TEST_CASE("usage errors never echo what may be a password", "[playtak]") {
    for (const std::vector<std::string>& arguments :
         {std::vector<std::string>{"--pass=SECRETVALUE1"}, std::vector<std::string>{"-pSECRETVALUE1"},
          std::vector<std::string>{"--passw", "SECRETVALUE1"}, std::vector<std::string>{"--password=SECRETVALUE1"},
          std::vector<std::string>{"--sizee=SECRETVALUE1"}, std::vector<std::string>{"--size", "SECRETVALUE1"},
          std::vector<std::string>{"--user", "TestBot", "SECRETVALUE1"}}) {
        INFO(arguments[0]);
        const std::string error = refused_command_line(arguments);
        CHECK(contains(error, "playtak: error: "));
        CHECK_FALSE(contains(error, "SECRETVALUE1"));
    }
    CHECK(contains(refused_command_line({"--pass=SECRETVALUE1"}), "--pass is refused: the password is never taken"));
    CHECK(contains(refused_command_line({"-pSECRETVALUE1"}), "-p is refused"));
    CHECK(contains(refused_command_line({"--sizee=SECRETVALUE1"}), "unrecognised option --sizee"));
    CHECK(contains(refused_command_line({"--size", "SECRETVALUE1"}), "the value given to --size is not valid"));
}

TEST_CASE("timing flags the server's liveness rules make unsafe are refused", "[playtak]") {
    CHECK(contains(refused_command_line({"--idle-timeout-ms", "20000"}),
                   "--idle-timeout-ms (20000) must be more than --ping-interval-ms + --ping-timeout-ms (40000)"));
    CHECK(contains(refused_command_line({"--ping-interval-ms", "60000"}), "--ping-interval-ms must be 100..55000"));
    CHECK(contains(refused_command_line({"--ping-timeout-ms", "50"}), "--ping-timeout-ms must be 100..55000"));
    CHECK(contains(refused_command_line({"--reconnect-min-ms", "500", "--reconnect-max-ms", "400"}),
                   "--reconnect-min-ms must not be more than --reconnect-max-ms"));
}

TEST_CASE("a move for our own side outside a replay resynchronises instead of being followed", "[playtak]") {
    FakeServer server;
    TempDir dir;
    BridgeRun bridge(server.port(), dir, {"--games", "1", "--movetime-ms", "1000"});
    auto connection = server.accept();
    log_in(*connection);
    expect_seek(*connection);
    FakeGame game;
    game.id = 1001;
    game.begin();
    connection->send(game.start_line());
    connection->send(game.time_line());  // the bridge (white) starts thinking for 2 s
    connection->send("Game#1001 P A1");  // a stray move for white
    REQUIRE(connection->wait_closed(5'000ms));
    connection = server.accept();
    log_in(*connection);
    game.resend(*connection);  // no move was played
    game.play(read_bridge_move(*connection, game));
    connection->send(game.time_line());
    connection->send("OK");
    connection->send("Game#1001 Over 1-0");  // the opponent resigns
    expect_quit(*connection);
    REQUIRE(bridge.wait_exit() == 0);
    const std::string log = bridge.log();
    INFO(log);
    CHECK(contains(log, "game 1001: the server sent a move for our side ('P A1') at ply 1; reconnecting"));
    CHECK_FALSE(contains(log, "following it"));
    REQUIRE(bridge.stdout_lines.size() == 1);
    CHECK(contains(bridge.stdout_lines[0], "game 1001:"));
}

// Point 2: the server answers no Seek, so the NOK after our first move as Black refuses that move,
// not the seek sent before the game: the bridge resynchronises and gives the server's reason.
// (The test above of garbage lines cannot show this: its stray NOK and OK would take the place
// of any answer wrongly awaited for the seek.)
TEST_CASE("a refused first move as Black is a refused move, not a refused seek", "[playtak]") {
    FakeServer server;
    TempDir dir;
    BridgeRun bridge(server.port(), dir, {"--games", "1", "--movetime-ms", "30"});
    auto connection = server.accept();
    log_in(*connection);
    expect_seek(*connection);
    FakeGame game;
    game.id = 1301;
    game.bridge_white = false;
    game.white = "Opponent";
    game.black = "TestBot";
    game.begin();
    connection->send(game.start_line());
    const tak::Move opening = game.random_move();
    game.play(opening);
    connection->send(game.time_line());
    connection->send(game.prefix() + fake_format_move(opening));
    read_bridge_move(*connection, game);  // refused: the server's position stays without it
    connection->send("NOK");
    connection->send("Error:Invalid move");
    REQUIRE(connection->wait_closed(5'000ms));
    connection = server.accept();
    log_in(*connection);
    game.resend(*connection);
    REQUIRE(play(*connection, game));
    expect_quit(*connection);
    REQUIRE(bridge.wait_exit() == 0);
    const std::string log = bridge.log();
    INFO(log);
    CHECK(contains(log, "game 1301: the server refused our move ('Error:Invalid move'); reconnecting"));
    CHECK_FALSE(contains(log, "refused our seek"));
    CHECK_FALSE(contains(log, "refused to start game"));
    CHECK_FALSE(contains(log, "draw or undo"));
    REQUIRE(bridge.stdout_lines.size() == 1);
    CHECK(contains(bridge.stdout_lines[0], "game 1301: Opponent vs TestBot: "));
}

TEST_CASE("a second SIGINT while reconnecting still writes the game's record", "[playtak]") {
    FakeServer server;
    TempDir dir;
    BridgeRun bridge(server.port(), dir, {"--movetime-ms", "30", "--reconnect-min-ms", "5000", "--reconnect-max-ms",
                                          "5000"});
    auto connection = server.accept();
    log_in(*connection);
    expect_seek(*connection);
    FakeGame game;
    game.id = 1101;
    game.begin();
    connection->send(game.start_line());
    connection->send(game.time_line());
    REQUIRE_FALSE(play(*connection, game, [](const FakeGame& g) { return g.moves.size() == 4; }));
    connection->close();
    REQUIRE(bridge.wait_for_log("reconnecting in 5.0 s"));
    bridge.interrupt();
    REQUIRE(bridge.wait_for_log("interrupted: finishing game 1101 first"));
    bridge.interrupt();
    REQUIRE(bridge.wait_exit() == 0);
    const auto files = ptn_files(dir);
    REQUIRE(files.size() == 1);
    auto record = tak::parse_ptn(read_file(files[0]));
    REQUIRE(record.ok());
    CHECK(record->moves == game.moves);
    CHECK(record->result == "*");
    CHECK(record->tag("Termination") == "the bridge stopped before the server ended the game");
    REQUIRE(bridge.stdout_lines.size() == 1);
    CHECK(contains(bridge.stdout_lines[0], "game 1101: TestBot vs Opponent: *, unfinished"));
}

TEST_CASE("a game that ended while the bridge was away is recorded with its result", "[playtak]") {
    FakeServer server;
    TempDir dir;
    BridgeRun bridge(server.port(), dir, {"--games", "1", "--movetime-ms", "20", "--resume-timeout-ms", "300"});
    auto connection = server.accept();
    log_in(*connection);
    expect_seek(*connection);
    FakeGame game;
    game.id = 1201;
    game.begin();
    connection->send(game.start_line());
    connection->send(game.time_line());
    // The game ends on the board, and the connection fails before the server says so.
    REQUIRE(play(*connection, game, {}, false));
    connection->close();
    connection = server.accept();
    log_in(*connection);  // the game is over: the server does not resend it
    expect_quit(*connection);
    REQUIRE(bridge.wait_exit() == 0);
    const auto files = ptn_files(dir);
    REQUIRE(files.size() == 1);
    auto record = tak::parse_ptn(read_file(files[0]));
    REQUIRE(record.ok());
    CHECK(record->moves == game.moves);
    CHECK(record->result == tak::result_text(tak::outcome(game.state)));
    CHECK(record->tag("Termination") == "ended while we were disconnected; result from the final position");
}

// ---- issue 20 against a whole fake server: bridges playing each other ---------------------------

std::string password_file(const TempDir& dir, const std::string& password) {
    const fs::path path = dir.path() / "password";
    std::ofstream(path) << password << "\n";
    return path.string();
}

std::string read_file_lines(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    return text;
}

int count_entries(const std::vector<std::string>& transcript, const std::string& entry) {
    return static_cast<int>(std::count(transcript.begin(), transcript.end(), entry));
}

// The server's moves of a finished game as PTN moves, through the fake's own codec.
std::vector<tak::Move> server_moves(const FakePlaytakServer::FinishedGame& game, int size, int half_komi) {
    tak::State state = tak::start_state(tak::Variant{size, half_komi, false});
    std::vector<tak::Move> moves;
    for (const std::string& text : game.moves) {
        auto move = fake_parse_move(state, text);
        REQUIRE(move.has_value());
        tak::play(state, *move);
        moves.push_back(*move);
    }
    return moves;
}

TEST_CASE("two bridges play an open seek through the server", "[playtak]") {
    FakeServerOptions options;
    options.accounts = {{"BotAlpha", "alpha-password"}, {"BotBeta", "beta-password"}};
    FakePlaytakServer server(options);
    TempDir alpha_dir, beta_dir;
    BridgeRun alpha(server.port(), alpha_dir,
                    {"--user", "BotAlpha", "--password-file", password_file(alpha_dir, "alpha-password"), "--games",
                     "1", "--movetime-ms", "20", "--time", "60", "--increment", "1", "--half-komi", "4"});
    BridgeRun beta(server.port(), beta_dir,
                   {"--user", "BotBeta", "--password-file", password_file(beta_dir, "beta-password"), "--accept-from",
                    "botalpha", "--games", "1", "--movetime-ms", "20"});
    REQUIRE(alpha.wait_exit(60'000ms) == 0);
    REQUIRE(beta.wait_exit(60'000ms) == 0);

    const auto transcript = server.transcript();
    if (const char* path = std::getenv("BGE_PLAYTAK_TRANSCRIPT")) {
        std::ofstream out(path);
        for (const std::string& line : transcript) out << line << "\n";
    }
    INFO(alpha.log() << beta.log());
    // The open seek is announced with "0" for its empty opponent, and accepted.
    CHECK(count_entries(transcript, "BotBeta > Seek new 1 BotAlpha 5 60 1 A 4 21 1 0 0 0 0 0 0") >= 1);
    CHECK(count_entries(transcript, "BotBeta < Accept 1") == 1);
    // Nothing either bridge sent was refused, and no server line was unknown to them.
    CHECK(count_entries(transcript, "BotAlpha > NOK") == 0);
    CHECK(count_entries(transcript, "BotBeta > NOK") == 0);
    for (const std::string& log : {alpha.log(), beta.log()}) {
        CHECK_FALSE(contains(log, "ignored:"));
        CHECK_FALSE(contains(log, "with no command of ours waiting"));
    }
    const auto games = server.finished_games();
    REQUIRE(games.size() == 1);
    const auto moves = server_moves(games[0], 5, 4);
    for (const TempDir* dir : {&alpha_dir, &beta_dir}) {
        const auto files = ptn_files(*dir);
        REQUIRE(files.size() == 1);
        auto record = tak::parse_ptn(read_file(files[0]));
        REQUIRE(record.ok());
        CHECK(record->moves == moves);
        CHECK(record->result == games[0].result);
        CHECK(record->tag("Komi") == "2");
    }
}

TEST_CASE("a guest keeps its name and its game across reconnections; the back-off restarts", "[playtak]") {
    FakeServerOptions options;
    options.accounts = {{"BotBeta", "beta-password"}};
    FakePlaytakServer server(options);
    TempDir guest_dir, beta_dir;
    BridgeRun guest(server.port(), guest_dir, {"--games", "1", "--movetime-ms", "30", "--verbose"});
    REQUIRE(server.wait_for_entry("Guest1 > Welcome Guest1!"));
    BridgeRun beta(server.port(), beta_dir,
                   {"--user", "BotBeta", "--password-file", password_file(beta_dir, "beta-password"), "--accept-from",
                    "Guest1", "--games", "1", "--movetime-ms", "30"});
    const auto moves_seen = [](int plies) {
        return [plies](const std::vector<std::string>& lines) {
            int moves = 0;
            for (const std::string& line : lines)
                if (line.rfind("BotBeta < Game#1 ", 0) == 0 && line.size() > 17 && (line[17] == 'P' || line[17] == 'M'))
                    ++moves;
            return moves >= plies;
        };
    };
    for (int drop = 1; drop <= 2; ++drop) {
        REQUIRE(server.wait_for(moves_seen(2 * drop)));
        server.drop("Guest1");
        REQUIRE(server.wait_for([&](const auto& lines) {
            return count_entries(lines, "Guest1 > Welcome Guest1!") == drop + 1;
        }));
    }
    REQUIRE(guest.wait_exit(60'000ms) == 0);
    REQUIRE(beta.wait_exit(60'000ms) == 0);
    const std::string log = guest.log();
    INFO(log);
    CHECK(contains(log, "> Login Guest ********"));
    CHECK(contains(log, "game 1: the server resent it"));
    // The back-off starts afresh once the game is back: 0.1 s both times, never 0.2 s.
    const auto count = [&](const std::string& part) {
        int n = 0;
        for (auto at = log.find(part); at != std::string::npos; at = log.find(part, at + 1)) ++n;
        return n;
    };
    CHECK(count("reconnecting in 0.1 s") == 2);
    CHECK(count("reconnecting in 0.2 s") == 0);
    const auto games = server.finished_games();
    REQUIRE(games.size() == 1);
    for (const std::string& line : server.transcript()) CHECK_FALSE(contains(line, "Abandoned"));
    const auto files = ptn_files(guest_dir);
    REQUIRE(files.size() == 1);
    auto record = tak::parse_ptn(read_file(files[0]));
    REQUIRE(record.ok());
    CHECK(record->moves == server_moves(games[0], 5, 0));
    CHECK(record->result == games[0].result);
}

TEST_CASE("only PING keeps a connection alive, and a missing PING answer reveals a half-dead one", "[playtak]") {
    FakeServerOptions options;
    options.ping_timeout = 1'000ms;
    options.accounts = {{"BotAlpha", "alpha-password"}, {"BotBeta", "beta-password"}};
    FakePlaytakServer server(options);

    // A client that sends no PING is dropped, whatever else it does.
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = htons(static_cast<std::uint16_t>(server.port()));
        REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        FakeConnection raw(fd);
        CHECK(raw.read_line(2'000ms) == std::optional<std::string>("Welcome!"));
        raw.send("Client raw");
        CHECK(raw.wait_closed(3'000ms));
    }

    TempDir alpha_dir, beta_dir;
    const std::vector<std::string> liveness = {"--ping-interval-ms", "150", "--ping-timeout-ms", "300"};
    std::vector<std::string> alpha_flags = {"--user", "BotAlpha", "--password-file",
                                            password_file(alpha_dir, "alpha-password"), "--games", "1",
                                            "--movetime-ms", "30"};
    std::vector<std::string> beta_flags = {"--user", "BotBeta", "--password-file",
                                           password_file(beta_dir, "beta-password"), "--accept-from", "BotAlpha",
                                           "--games", "1", "--movetime-ms", "30"};
    alpha_flags.insert(alpha_flags.end(), liveness.begin(), liveness.end());
    beta_flags.insert(beta_flags.end(), liveness.begin(), liveness.end());
    BridgeRun alpha(server.port(), alpha_dir, alpha_flags);
    BridgeRun beta(server.port(), beta_dir, beta_flags);
    REQUIRE(server.wait_for([](const auto& lines) {
        int moves = 0;
        for (const std::string& line : lines) moves += line.rfind("BotAlpha < Game#1 P", 0) == 0;
        return moves >= 2;
    }));
    server.stall("BotBeta");
    REQUIRE(alpha.wait_exit(60'000ms) == 0);
    REQUIRE(beta.wait_exit(60'000ms) == 0);
    const std::string log = beta.log();
    INFO(log);
    CHECK(contains(log, "no answer to PING within 0.3 s"));
    CHECK(contains(log, "game 1: the server resent it"));
    const auto transcript = server.transcript();
    // The healthy bridge, PINGing every 150 ms, was never dropped (the stalled one may have been).
    CHECK(count_entries(transcript, "BotAlpha closed: no PING for 1000 ms") == 0);
    CHECK(contains(read_file_lines(transcript), "closed: no PING for 1000 ms"));  // the plain client
    REQUIRE(server.finished_games().size() == 1);
}

TEST_CASE("the server's seek limits: the fake applies them, the bridge warns of them", "[playtak]") {
    FakePlaytakServer server;
    TempDir dir;
    BridgeRun bridge(server.port(), dir, {"--half-komi=-3"});
    REQUIRE(server.wait_for_entry("Guest1 > Seek new 1 Guest1 5 600 10 A 0 21 1 0 0 0 0 0 0"));
    CHECK(count_entries(server.transcript(), "Guest1 < Seek 5 600 10 A 0 21 1 0 0 0 0 ") == 1);
    bridge.interrupt();
    REQUIRE(bridge.wait_exit() == 0);
    CHECK(contains(bridge.log(),
                   "warning: the server changes this seek: half-komi -3 becomes 0 (the server reads no negative komi)"));

    // What the server does with seeks out of its limits, from a plain client.
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<std::uint16_t>(server.port()));
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    FakeConnection raw(fd);
    raw.send("Login Guest");
    raw.expect_prefix("Welcome Guest");
    raw.send("Seek 6 60 5 W -2 30 1 1 0 0 0 bob");  // a negative komi: read as the old short seek
    CHECK(raw.expect_prefix("Seek new") == "Seek new 2 Guest2 6 60 5 W 0 30 1 0 0 0 0 0 0");
    raw.send("Seek 6 60 5 A 12 90 7 0 0 0 0 ");
    CHECK(raw.expect_prefix("Seek new") == "Seek new 3 Guest2 6 60 5 A 8 80 5 0 0 0 0 0 0");
    raw.send("Seek 9 60 5 A 0 5 1 0 0 0 0 ");
    CHECK(raw.expect_prefix("Seek new") == "Seek new 4 Guest2 5 60 5 A 0 10 1 0 0 0 0 0 0");
    // List is answered by the seeks alone, with no OK.
    raw.send("List");
    raw.send("PING");
    CHECK(raw.expect([](const std::string& line) { return line == "OK" || line.rfind("Seek new", 0) == 0; },
                     "List then PING") == "Seek new 4 Guest2 5 60 5 A 0 10 1 0 0 0 0 0 0");
    CHECK(raw.expect_prefix("OK") == "OK");
}

// ---- a measurement, run by hand (hidden from ctest) -------------------------------------------

// How long after its connection fails a bridge is back in its game, with the default timing flags
// (reconnection back-off from 1 s, PING every 30 s and 10 s for its answer). In each run two
// bridges play a 6x6 game through FakePlaytakServer at 100 ms a move; once BotBeta has been sent
// the opponent's third move (so it is thinking), its connection fails, either closed (`drop`) or
// silently half-dead (`stall`). Printed for each run, and as medians: the time from the failure
// to its new login, to the end of the server's resend, and to its next move. Runs of each kind:
// $BGE_PLAYTAK_TIMING_DROPS (default 5) and $BGE_PLAYTAK_TIMING_STALLS (default 3).
//   build/tests/unit_tests "[.playtak-reconnect-timing]"
struct ReconnectTiming {
    double login_ms = 0, resumed_ms = 0, move_ms = 0;
};

ReconnectTiming time_reconnect(bool stall, int run) {
    FakeServerOptions options;
    options.accounts = {{"BotAlpha", "alpha-password"}, {"BotBeta", "beta-password"}};
    options.seed = static_cast<std::uint64_t>(run);
    FakePlaytakServer server(options);
    TempDir alpha_dir, beta_dir;
    const std::vector<std::string> common = {"--games", "1", "--movetime-ms", "100", "--size", "6",
                                             "--reconnect-min-ms", "1000", "--reconnect-max-ms", "60000"};
    std::vector<std::string> alpha_flags = {"--user", "BotAlpha", "--password-file",
                                            password_file(alpha_dir, "alpha-password")};
    std::vector<std::string> beta_flags = {"--user", "BotBeta", "--password-file",
                                           password_file(beta_dir, "beta-password"), "--accept-from", "BotAlpha"};
    alpha_flags.insert(alpha_flags.end(), common.begin(), common.end());
    beta_flags.insert(beta_flags.end(), common.begin(), common.end());
    BridgeRun alpha(server.port(), alpha_dir, alpha_flags);
    BridgeRun beta(server.port(), beta_dir, beta_flags);

    const auto beta_move = [](const std::string& line) {
        return line.rfind("BotBeta < Game#1 P", 0) == 0 || line.rfind("BotBeta < Game#1 M", 0) == 0;
    };
    REQUIRE(server.wait_for([](const auto& lines) {
        int received = 0;
        for (const std::string& line : lines)
            received += line.rfind("BotBeta > Game#1 P", 0) == 0 || line.rfind("BotBeta > Game#1 M", 0) == 0;
        return received >= 3;
    }));
    const std::size_t from = server.transcript().size();
    const auto failed = SteadyClock::now();
    if (stall)
        server.stall("BotBeta");
    else
        server.drop("BotBeta");
    REQUIRE(server.wait_for(
        [&](const auto& lines) { return std::find_if(lines.begin() + from, lines.end(), beta_move) != lines.end(); },
        120'000ms));
    const auto lines = server.transcript();
    const auto times = server.transcript_times();
    const auto after = [&](const std::function<bool(const std::string&)>& wanted) {
        const auto at = std::find_if(lines.begin() + from, lines.end(), wanted);
        REQUIRE(at != lines.end());
        return std::chrono::duration<double, std::milli>(times[at - lines.begin()] - failed).count();
    };
    ReconnectTiming timing;
    timing.login_ms = after([](const std::string& line) { return line == "BotBeta > Welcome BotBeta!"; });
    timing.resumed_ms = after([](const std::string& line) { return line == "BotBeta > Message Your game is resumed"; });
    timing.move_ms = after(beta_move);
    // The game goes on to its end, and both bridges stop after it.
    CHECK(alpha.wait_exit(120'000ms) == 0);
    CHECK(beta.wait_exit(120'000ms) == 0);
    return timing;
}

TEST_CASE("playtak: reconnect timings", "[.playtak-reconnect-timing]") {
    const auto runs = [](const char* variable, int fallback) {
        const char* value = std::getenv(variable);
        return value ? std::atoi(value) : fallback;
    };
    const auto median = [](std::vector<double> values) {
        std::sort(values.begin(), values.end());
        const std::size_t n = values.size();
        return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    };
    for (const bool stall : {false, true}) {
        const char* kind = stall ? "stall" : "drop";
        const int count = stall ? runs("BGE_PLAYTAK_TIMING_STALLS", 3) : runs("BGE_PLAYTAK_TIMING_DROPS", 5);
        std::vector<double> login, resumed, move;
        for (int run = 1; run <= count; ++run) {
            const ReconnectTiming timing = time_reconnect(stall, run);
            std::printf("%s run %d: logged in again %.0f ms, game resent %.0f ms, next move %.0f ms after the failure\n",
                        kind, run, timing.login_ms, timing.resumed_ms, timing.move_ms);
            std::fflush(stdout);
            login.push_back(timing.login_ms);
            resumed.push_back(timing.resumed_ms);
            move.push_back(timing.move_ms);
        }
        if (count > 0)
            std::printf("%s, median of %d: logged in again %.0f ms, game resent %.0f ms, next move %.0f ms\n", kind,
                        count, median(login), median(resumed), median(move));
    }
}

}  // namespace
