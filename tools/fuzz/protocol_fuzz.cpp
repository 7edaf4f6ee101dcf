// protocol_fuzz: a bounded protocol fuzz run into one engine (docs/protocol.md, "Fuzzing").
//
// It starts the engine, handshakes with `ugi`, and then writes a fixed number of lines, each
// either a valid command of the game (from a corpus built from the engine's own option list and
// random legal games played with the core rules), a mutation of one (tokens dropped, doubled,
// swapped or replaced, extreme numbers, random bytes, truncation), or random bytes. Afterwards
// the engine must still be alive, answer `isready`, and, once its options are back at their
// defaults, give a legal `bestmove` (checked with the core rules) for a clean position; at
// `quit` it must exit with status 0 (so a sanitizer report at exit fails the run too). Every `go`
// sent must have had exactly one answer by then: a `bestmove`, or `nodes` for `go perft`.
//
// Lines that legitimately end or block the engine are not sent: `quit`, `bench` (it runs on the
// loop's thread to its end), and options that size memory or threads (Hash, MctsMemory, ...). Every
// line whose first word is `go` is followed by `stop`, so a deep search or perft never holds the
// run up. With --log, every line sent is written to a file, to replay a failure by hand.
//
// Exit status: 0 the engine survived, 1 it failed (the reason on stderr), 2 a bad command line.

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/expendibots/expendibots.hpp"
#include "core/game_record.hpp"
#include "core/gomoku/gomoku.hpp"
#include "core/random.hpp"
#include "core/tak/tak.hpp"
#include "core/twixt/twixt.hpp"
#include "core/ur/ur.hpp"
#include "core/version.hpp"
#include "protocol/engine_process.hpp"
#include "protocol/text.hpp"

namespace {

using namespace bge;
using Clock = std::chrono::steady_clock;
using protocol::ReadStatus;

struct Settings {
    std::string game;
    std::string engine;
    long lines = 10000;
    std::uint64_t seed = 1;
    std::string log_path;
    bool pbrain = false;        // gomoku: fuzz the Gomocup pbrain dialect instead of UGI
    int answer_timeout_s = 60;  // for each answer the final checks wait for (sanitizer builds are slow)
};

// A declared option, from the `ugi` answer.
struct DeclaredOption {
    std::string name;
    std::string type;
    std::string default_value;
    long min = 0, max = 0;
    std::vector<std::string> choices;
};

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Options whose values size memory or threads: fuzzing them would only allocate gigabytes.
bool sizes_resources(std::string_view name) {
    const std::string n = lower(name);
    return n.find("hash") != std::string::npos || n.find("memory") != std::string::npos ||
           n.find("thread") != std::string::npos;
}

std::optional<DeclaredOption> parse_declaration(const std::string& line) {
    const auto words = protocol::split_words(line);
    if (words.size() < 4 || words[0] != "option" || words[1] != "name") return std::nullopt;
    std::size_t type_at = 2;
    while (type_at < words.size() && words[type_at] != "type") ++type_at;
    if (type_at + 1 >= words.size()) return std::nullopt;
    DeclaredOption option;
    option.name = protocol::join_words(words, 2, type_at);
    option.type = std::string(words[type_at + 1]);
    for (std::size_t i = type_at + 2; i + 1 < words.size(); ++i) {
        const std::string_view key = words[i];
        const std::string value(words[i + 1]);
        if (key == "default")
            option.default_value = value == "<empty>" ? "" : value;
        else if (key == "min")
            option.min = std::atol(value.c_str());
        else if (key == "max")
            option.max = std::atol(value.c_str());
        else if (key == "var")
            option.choices.push_back(value);
    }
    return option;
}

class Fuzzer {
public:
    Fuzzer(const Settings& settings, Random& random) : settings_(settings), random_(random) {}

    virtual ~Fuzzer() = default;
    int run();

protected:
    // The dialect's parts: the handshake (UGI's `ugi`, nothing in pbrain), and whether a line is
    // a search request that a stop must follow. The final checks are check_clean_position's.
    virtual bool pbrain() const { return false; }
    // The game's part: valid lines, and the clean position whose bestmove is checked.
    virtual void add_game_lines(std::vector<std::string>& corpus) = 0;
    // Sends the clean position and `go`; returns an error if the bestmove is missing or illegal.
    virtual std::optional<std::string> check_clean_position() = 0;

    bool send(const std::string& line);
    // Every `go` gets exactly one answer: `bestmove`, or `nodes <count>` for `go perft`.
    void count_answer(const std::string& line) {
        if (!pbrain() && (line.rfind("bestmove", 0) == 0 || line.rfind("nodes ", 0) == 0)) ++answers_;
    }
    std::optional<std::string> wait_for(const std::function<bool(const std::string&)>& wanted,
                                        std::vector<std::string>* seen = nullptr);
    std::uint32_t below(std::size_t bound) { return random_.below(static_cast<std::uint32_t>(bound)); }

    const Settings& settings_;
    Random& random_;
    protocol::EngineProcess engine_;
    std::vector<DeclaredOption> options_;
    std::ofstream log_;
    std::string failure_;
    long gos_ = 0;      // UGI lines sent whose first word is `go`
    long answers_ = 0;  // their answers read so far

private:
    std::vector<std::string> build_corpus();
    std::string mutate(const std::string& line, const std::vector<std::string>& vocabulary);
    std::string random_bytes(std::size_t length);
    bool drain();
    bool safe_to_send(const std::string& line) const;
    std::optional<std::string> final_ugi_checks();
};

bool Fuzzer::send(const std::string& line) {
    if (log_.is_open()) log_ << line << '\n';
    if (!pbrain()) {
        const auto words = protocol::split_words(line);
        if (!words.empty() && words[0] == "go") ++gos_;
    }
    if (engine_.write_line(line)) return true;
    failure_ = fmt::format("the engine stopped reading its input: {}", engine_.error());
    return false;
}

// Reads whatever the engine has printed so far; false if it is gone.
bool Fuzzer::drain() {
    for (;;) {
        const auto read = engine_.read_line(std::chrono::milliseconds(0));
        if (read.status == ReadStatus::timeout) return true;
        if (read.status == ReadStatus::closed) {
            failure_ = "the engine exited or closed its output";
            return false;
        }
        count_answer(read.line);
    }
}

std::optional<std::string> Fuzzer::wait_for(const std::function<bool(const std::string&)>& wanted,
                                            std::vector<std::string>* seen) {
    const auto deadline = Clock::now() + std::chrono::seconds(settings_.answer_timeout_s);
    for (;;) {
        const auto read = engine_.read_line_until(deadline);
        if (read.status == ReadStatus::timeout)
            return fmt::format("no answer within {} s", settings_.answer_timeout_s);
        if (read.status == ReadStatus::closed) return std::string("the engine exited or closed its output");
        count_answer(read.line);
        if (seen) seen->push_back(read.line);
        if (wanted(read.line)) return std::nullopt;
    }
}

bool Fuzzer::safe_to_send(const std::string& line) const {
    const auto words = protocol::split_words(line);
    if (words.empty()) return true;
    if (pbrain()) {
        const std::string command = lower(words[0]);
        // END exits the brain; ABOUT is kept for the final check, whose answer must be its own.
        if (command == "end" || command == "about") return false;
        // pbrain's STOP ends only the move being thought about, not one still waiting: keep
        // move times short, so a waiting move request cannot hold the run up for long.
        if (command == "info" && words.size() >= 2) {
            const std::string key = lower(words[1]);
            if (key == "timeout_turn" || key == "timeout_match" || key == "time_left") {
                if (words.size() != 3) return true;
                const auto value = protocol::parse_integer(words[2], 0, 1000, "time");
                return value.ok();
            }
        }
        return true;
    }
    if (words[0] == "quit" || words[0] == "bench") return false;
    if (words[0] == "setoption")
        for (const auto& word : words)
            if (sizes_resources(word)) return false;
    return true;
}

std::string Fuzzer::random_bytes(std::size_t length) {
    std::string bytes;
    for (std::size_t i = 0; i < length; ++i) {
        char c = static_cast<char>(below(256));
        if (c == '\n') c = ' ';
        bytes += c;
    }
    return bytes;
}

std::vector<std::string> Fuzzer::build_corpus() {
    if (pbrain()) {
        // Commands of the Gomocup protocol (docs/protocol.md, "pbrain"), and board lines.
        std::vector<std::string> corpus = {
            "START 15", "START 20", "START 3", "RECTSTART 10,12", "RESTART", "BEGIN", "TURN 7,7", "TURN 0,0",
            "TURN 14,14", "BOARD", "7,7,1", "7,8,2", "8,8,3", "0,0,1", "DONE", "INFO timeout_turn 50",
            "INFO timeout_turn 0", "INFO timeout_match 1000", "INFO time_left 500", "INFO max_memory 83886080",
            "INFO rule 0", "INFO rule 1", "INFO rule 4", "INFO rule 8", "INFO game_type 1", "INFO evaluate 3,3",
            "TAKEBACK 7,7", "STOP", "YXSTOP", "SWAP2BOARD"};
        add_game_lines(corpus);
        return corpus;
    }
    std::vector<std::string> corpus = {"ugi", "isready", "uginewgame", "teinewgame", "teinewgame 5", "position startpos",
                                       "go depth 1", "go depth 3", "go nodes 500", "go movetime 10",
                                       "go p1time 1000 p2time 1000 p1inc 10 p2inc 10",
                                       "go wtime 500 btime 500 winc 5 binc 5 movestogo 3", "go infinite",
                                       "go perft 2", "go ponder", "stop", "ponderhit", "query p1turn",
                                       "query gameover", "query result", "query score", "d", "debug on", "tei",
                                       "position", "go", "setoption", "query"};
    for (const DeclaredOption& option : options_) {
        if (sizes_resources(option.name)) continue;
        const std::string head = "setoption name " + option.name;
        if (option.type == "spin") {
            for (long value : {option.min, option.max, option.min - 1, option.max + 1})
                corpus.push_back(fmt::format("{} value {}", head, value));
            if (option.max >= option.min)
                corpus.push_back(fmt::format("{} value {}", head,
                                             option.min + static_cast<long>(below(
                                                              static_cast<std::size_t>(option.max - option.min) + 1))));
        } else if (option.type == "check") {
            corpus.push_back(head + " value true");
            corpus.push_back(head + " value false");
        } else if (option.type == "combo") {
            for (const auto& choice : option.choices) corpus.push_back(head + " value " + choice);
        } else if (option.type == "string") {
            corpus.push_back(head + " value");
            corpus.push_back(head + " value /nonexistent/file");
        } else {
            corpus.push_back(head);
        }
        corpus.push_back(head + " value " + option.default_value);
    }
    add_game_lines(corpus);
    return corpus;
}

std::string Fuzzer::mutate(const std::string& line, const std::vector<std::string>& vocabulary) {
    static const std::array<std::string_view, 12> numbers = {
        "0", "-1", "1", "2147483647", "2147483648", "-2147483649", "9223372036854775807", "18446744073709551616",
        "1e309", "-0", "999999999999999999999999", "0x10"};
    const auto views = protocol::split_words(line);
    std::vector<std::string> words(views.begin(), views.end());
    const int edits = 1 + static_cast<int>(below(3));
    for (int e = 0; e < edits; ++e) {
        const std::size_t at = words.empty() ? 0 : below(words.size());
        switch (below(9)) {
            case 0:
                if (!words.empty()) words.erase(words.begin() + static_cast<long>(at));
                break;
            case 1:
                if (!words.empty()) words.insert(words.begin() + static_cast<long>(at), words[at]);
                break;
            case 2:
                if (words.size() > 1) std::swap(words[at], words[below(words.size())]);
                break;
            case 3: {
                const auto other = protocol::split_words(vocabulary[below(vocabulary.size())]);
                if (!other.empty() && !words.empty()) words[at] = std::string(other[below(other.size())]);
                break;
            }
            case 4:
                if (!words.empty()) words[at] = std::string(numbers[below(numbers.size())]);
                break;
            case 5:
                if (!words.empty() && !words[at].empty()) words[at][below(words[at].size())] = static_cast<char>(33 + below(94));
                break;
            case 6:
                words.insert(words.begin() + static_cast<long>(at), random_bytes(1 + below(12)));
                break;
            case 7:
                if (!words.empty() && !words[at].empty()) words[at] = words[at].substr(0, below(words[at].size()));
                break;
            default:
                if (!words.empty()) words.push_back(words[below(words.size())]);
                break;
        }
    }
    std::string out;
    for (const auto& word : words) {
        if (!out.empty()) out += below(8) == 0 ? "\t" : " ";
        out += word;
    }
    return out;
}

int Fuzzer::run() {
    if (!settings_.log_path.empty()) {
        log_.open(settings_.log_path);
        if (!log_) {
            std::fprintf(stderr, "protocol_fuzz: cannot write --log %s\n", settings_.log_path.c_str());
            return 2;
        }
    }
    protocol::ProcessOptions process;
    process.command = settings_.engine;
    if (!engine_.start(process)) {
        std::fprintf(stderr, "protocol_fuzz: %s\n", engine_.error().c_str());
        return 2;
    }
    auto fail = [&](const std::string& what) {
        std::fprintf(stderr, "protocol_fuzz: %s: FAILED: %s (seed %llu, %ld lines%s)\n", settings_.game.c_str(),
                     what.c_str(), static_cast<unsigned long long>(settings_.seed), settings_.lines,
                     settings_.log_path.empty() ? "; --log FILE keeps them" : "; sent lines in the --log file");
        return 1;
    };
    if (pbrain()) {
        // The first command makes the session pbrain for good.
        if (!send("START 15") || !send("INFO timeout_turn 50")) return fail(failure_);
        if (auto error = wait_for([](const std::string& l) { return l == "OK"; })) return fail("START 15: " + *error);
    } else {
        std::vector<std::string> handshake;
        if (!send("ugi")) return fail(failure_);
        if (auto error = wait_for([](const std::string& l) { return l == "ugiok"; }, &handshake)) return fail(*error);
        for (const auto& line : handshake)
            if (auto option = parse_declaration(line)) options_.push_back(*option);
    }

    const std::vector<std::string> corpus = build_corpus();
    long sent = 0, gos = 0;
    while (sent < settings_.lines) {
        std::string line;
        const auto kind = below(100);
        if (kind < 25)
            line = corpus[below(corpus.size())];
        else if (kind < 90)
            line = mutate(corpus[below(corpus.size())], corpus);
        else if (kind < 99 || sent % 2 == 1)
            line = random_bytes(below(120));
        else
            line = std::string(1000 + below(200000), static_cast<char>('a' + below(26)));
        if (!safe_to_send(line)) continue;
        if (!send(line)) return fail(failure_);
        ++sent;
        const auto words = protocol::split_words(line);
        const std::string first = words.empty() ? std::string() : lower(words[0]);
        const bool search = pbrain() ? first == "begin" || first == "turn" || first == "done" : words.size() > 0 && words[0] == "go";
        if (search) {
            ++gos;
            if (!send(pbrain() ? "STOP" : "stop")) return fail(failure_);
        }
        if (!drain()) return fail(fmt::format("after line {} ('{}'): {}", sent, protocol::excerpt(line), failure_));
    }

    if (pbrain()) {
        // DONE closes a BOARD block the fuzz may have left open; STOP ends a search; ABOUT, which
        // waits behind any move request, answers once everything before it is done.
        if (!send("DONE") || !send("STOP") || !send("ABOUT")) return fail(failure_);
        if (auto error = wait_for([](const std::string& l) { return l.rfind("name=", 0) == 0; }))
            return fail("ABOUT after the fuzz: " + *error);
        if (auto error = check_clean_position()) return fail(*error);
        if (!send("END")) return fail(failure_);
    } else {
        if (auto error = final_ugi_checks()) return fail(*error);
        // The clean position's bestmove came after every other answer: none may be missing.
        if (answers_ != gos_)
            return fail(fmt::format("{} go commands got {} answers (bestmove, or nodes for go perft); each must get one",
                                    gos_, answers_));
        if (!send("quit")) return fail(failure_);
    }
    if (!engine_.wait_for_exit(std::chrono::seconds(settings_.answer_timeout_s))) {
        engine_.kill();
        return fail("no exit within the timeout after quit");
    }
    if (engine_.exit_status() != 0)
        return fail(fmt::format("exit status {} after quit", engine_.exit_status().value_or(-999)));
    std::printf("protocol_fuzz: %s%s: %ld lines (%ld move requests) into %s, seed %llu: still answering, legal move, clean exit\n",
                settings_.game.c_str(), pbrain() ? " (pbrain)" : "", sent, gos, settings_.engine.c_str(),
                static_cast<unsigned long long>(settings_.seed));
    return 0;
}

std::optional<std::string> Fuzzer::final_ugi_checks() {
    // Still alive and answering?
    if (!send("stop") || !send("isready")) return failure_;
    if (auto error = wait_for([](const std::string& l) { return l == "readyok"; }))
        return "isready after the fuzz: " + *error;
    // Options back to their defaults, then a clean game.
    for (const DeclaredOption& option : options_) {
        if (option.type == "button") continue;
        if (!send(fmt::format("setoption name {} value {}", option.name, option.default_value))) return failure_;
    }
    if (!send("ugi")) return failure_;
    if (auto error = wait_for([](const std::string& l) { return l == "ugiok"; })) return "ugi: " + *error;
    if (!send("uginewgame")) return failure_;
    return check_clean_position();
}

// The part that knows the game: random legal games for the corpus, and the clean position.
template <Game G>
class GameFuzzer : public Fuzzer {
public:
    GameFuzzer(const Settings& settings, Random& random, typename G::Variant variant)
        : Fuzzer(settings, random), variant_(variant) {}

private:
    using Record = GameRecord<G>;

    // Random legal plies from the start, never ending the game, and ending where the engine can
    // move (after a roll, in a dice game).
    Record random_game(int plies) {
        Record record(G::start_state(variant_));
        for (int ply = 0; ply < plies || is_chance_node<G>(record.current()); ++ply) {
            typename G::Move move{};
            if constexpr (StochasticGame<G>) {
                if (G::is_chance_node(record.current())) {
                    ChanceList<G> rolls;
                    G::chance_outcomes(record.current(), rolls);
                    move = rolls[below(rolls.size())].roll;
                    record.play(move);
                    continue;
                }
            }
            MoveList<G> moves;
            G::generate_moves(record.current(), moves);
            if (moves.size() == 0) break;
            move = moves[below(moves.size())];
            Record next = record;
            next.play(move);
            if (next.outcome().is_over()) break;
            record = next;
        }
        return record;
    }

    static std::string moves_text(const Record& record) {
        std::string text;
        auto position = record.start();
        for (const auto& move : record.moves()) {
            text += ' ';
            text += G::format_move(position, move);
            G::play(position, move);
        }
        return text;
    }

    void add_game_lines(std::vector<std::string>& corpus) override {
        for (int i = 0; i < 12; ++i) {
            const Record game = random_game(static_cast<int>(below(30)));
            corpus.push_back("position startpos moves" + moves_text(game));
            corpus.push_back("position fen " + G::format_position(game.current()));
            const Record more = random_game(static_cast<int>(below(8)));
            corpus.push_back("position fen " + G::format_position(more.start()) + " moves" + moves_text(more));
            corpus.push_back("position tps " + G::format_position(game.current()));
        }
    }

    std::optional<std::string> check_clean_position() override {
        const Record game = random_game(4 + static_cast<int>(below(10)));
        const std::string position = "position startpos moves" + moves_text(game);
        // `go perft 1` queues behind every search the fuzz left running, so once its own output
        // has come (one `<move> 1` line per legal move of this position, then `nodes <count>`;
        // a stale perft of another position does not match), the next bestmove is ours.
        MoveList<G> legal;
        G::generate_moves(game.current(), legal);
        std::vector<std::string> expected;
        for (const auto& move : legal) expected.push_back(G::format_move(game.current(), move) + " 1");
        std::sort(expected.begin(), expected.end());
        const std::string expected_total = fmt::format("nodes {}", expected.size());
        std::vector<std::string> block;
        if (!send(position) || !send("go perft 1")) return failure_;
        if (auto error = wait_for([&](const std::string& l) {
                if (l.rfind("nodes ", 0) == 0) {
                    // The perft lines come just before their total (other output may precede them).
                    bool ours = l == expected_total && block.size() >= expected.size();
                    if (ours) {
                        std::vector<std::string> last(block.end() - static_cast<long>(expected.size()), block.end());
                        std::sort(last.begin(), last.end());
                        ours = last == expected;
                    }
                    block.clear();
                    return ours;
                }
                block.push_back(l);
                return false;
            }))
            return "go perft 1 on a clean position: " + *error;
        if (!send("go movetime 100")) return failure_;
        std::vector<std::string> lines;
        if (auto error = wait_for([](const std::string& l) { return l.rfind("bestmove", 0) == 0; }, &lines))
            return "go on a clean position: " + *error;
        const auto words = protocol::split_words(lines.back());
        if (words.size() < 2) return "a bare 'bestmove' on a clean position";
        Record check = game;
        if (auto status = check.play_text(words[1]); !status)
            return fmt::format("bestmove {} is illegal after '{}': {}", words[1], position, status.error());
        return std::nullopt;
    }

    typename G::Variant variant_;
};

// Gomoku's pbrain dialect: after the fuzz, a clean 15x15 game where the brain answers TURN.
class PbrainFuzzer : public Fuzzer {
public:
    using Fuzzer::Fuzzer;

private:
    bool pbrain() const override { return true; }

    void add_game_lines(std::vector<std::string>& corpus) override {
        for (int i = 0; i < 20; ++i) {
            corpus.push_back(fmt::format("TURN {},{}", below(16), below(16)));
            corpus.push_back(fmt::format("{},{},{}", below(16), below(16), 1 + below(3)));
        }
    }

    std::optional<std::string> check_clean_position() override {
        if (!send("START 15")) return failure_;
        if (auto error = wait_for([](const std::string& l) { return l == "OK" || l.rfind("ERROR", 0) == 0; }))
            return "START 15 after the fuzz: " + *error;
        for (const char* line : {"INFO rule 0", "INFO timeout_match 0", "INFO timeout_turn 100", "TURN 7,7"})
            if (!send(line)) return failure_;
        std::vector<std::string> lines;
        if (auto error = wait_for(
                [](const std::string& l) {
                    return !(l.rfind("MESSAGE", 0) == 0 || l.rfind("DEBUG", 0) == 0 || l.rfind("SUGGEST", 0) == 0);
                },
                &lines))
            return "TURN 7,7 on a clean board: " + *error;
        int x = -1, y = -1;
        if (std::sscanf(lines.back().c_str(), "%d,%d", &x, &y) != 2 || x < 0 || x >= 15 || y < 0 || y >= 15 ||
            (x == 7 && y == 7))
            return fmt::format("the answer to TURN 7,7 on a clean board is '{}', not a free cell",
                               protocol::excerpt(lines.back()));
        return std::nullopt;
    }
};

int usage(const char* error) {
    if (error) std::fprintf(stderr, "protocol_fuzz: %s\n", error);
    std::fprintf(error ? stderr : stdout,
                 "Usage: protocol_fuzz --game tak|gomoku|twixt|ur|expendibots --engine PATH [--lines N] [--seed S]\n"
                 "                     [--log FILE] [--timeout SECONDS] [--pbrain]\n"
                 "Writes N (default 10000) random and mutated lines into the engine over UGI (gomoku with --pbrain:\n"
                 "the Gomocup protocol), then checks that it still answers, plays a legal move in a clean position\n"
                 "and exits with status 0 at quit (END).\n");
    return error ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (bge::print_version_if_asked(argc, argv, "protocol_fuzz")) return 0;
    Settings settings;
    for (int i = 1; i < argc; ++i) {
        const std::string_view flag = argv[i];
        if (flag == "--help" || flag == "-h") return usage(nullptr);
        if (flag == "--pbrain") {
            settings.pbrain = true;
            continue;
        }
        if (i + 1 >= argc) return usage(fmt::format("{} needs a value", flag).c_str());
        const std::string value = argv[++i];
        auto number = [&](long min, long max) -> std::optional<long> {
            auto parsed = protocol::parse_integer(value, min, max, std::string(flag));
            if (!parsed) return std::nullopt;
            return static_cast<long>(*parsed);
        };
        if (flag == "--game")
            settings.game = value;
        else if (flag == "--engine")
            settings.engine = value;
        else if (flag == "--log")
            settings.log_path = value;
        else if (flag == "--lines" || flag == "--seed" || flag == "--timeout") {
            const auto parsed = number(flag == "--lines" ? 0 : 1, 1'000'000'000);
            if (!parsed) return usage(fmt::format("{} {}: not a number in range", flag, value).c_str());
            if (flag == "--lines")
                settings.lines = *parsed;
            else if (flag == "--seed")
                settings.seed = static_cast<std::uint64_t>(*parsed);
            else
                settings.answer_timeout_s = static_cast<int>(*parsed);
        } else
            return usage(fmt::format("unknown flag '{}'", flag).c_str());
    }
    if (settings.engine.empty()) return usage("--engine is required");
    Random random(settings.seed);
    if (settings.game == "tak") return GameFuzzer<tak::Tak>(settings, random, tak::Variant{}).run();
    if (settings.game == "gomoku") {
        if (settings.pbrain) return PbrainFuzzer(settings, random).run();
        return GameFuzzer<gomoku::Gomoku>(settings, random, gomoku::Variant{}).run();
    }
    if (settings.pbrain) return usage("--pbrain is only for --game gomoku");
    if (settings.game == "twixt") return GameFuzzer<twixt::Twixt>(settings, random, twixt::Variant{}).run();
    if (settings.game == "ur") return GameFuzzer<ur::Ur>(settings, random, ur::Variant{}).run();
    if (settings.game == "expendibots")
        return GameFuzzer<expendibots::Expendibots>(settings, random, expendibots::Variant{}).run();
    return usage(settings.game.empty() ? "--game is required"
                                       : fmt::format("--game {}: not one of tak, gomoku, twixt, ur, expendibots",
                                                     settings.game)
                                             .c_str());
}
