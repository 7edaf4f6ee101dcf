#include "tools/arbiter/engine_player.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <fmt/format.h>

#include "protocol/text.hpp"

namespace bge::arbiter {

using protocol::ReadStatus;

std::optional<PbrainStatus> parse_pbrain_status(std::string_view line) {
    const auto words = protocol::split_words(line);
    if (words.size() < 2 || words[0] != "MESSAGE") return std::nullopt;
    // A count with an optional K or M ("587K"), a time with an optional "ms".
    const auto count = [](std::string_view word) -> std::optional<std::int64_t> {
        std::int64_t scale = 1;
        if (word.ends_with("ms")) word.remove_suffix(2);
        if (!word.empty() && (word.back() == 'K' || word.back() == 'k')) scale = 1000, word.remove_suffix(1);
        else if (!word.empty() && (word.back() == 'M' || word.back() == 'm')) scale = 1000000, word.remove_suffix(1);
        auto value = protocol::parse_integer(word, -1'000'000'000, 1'000'000'000'000LL, "value");
        if (!value) return std::nullopt;
        return *value * scale;
    };
    PbrainStatus status;
    bool any = false;
    for (std::size_t i = 1; i + 1 < words.size(); ++i) {
        const std::string_view key = words[i], value = words[i + 1];
        if (key == "Depth") {
            const auto dash = value.find('-');
            if (auto depth = count(value.substr(0, dash))) status.depth = static_cast<int>(*depth), any = true;
            if (dash != std::string_view::npos)
                if (auto seldepth = count(value.substr(dash + 1))) status.seldepth = static_cast<int>(*seldepth);
        } else if (key == "Eval") {
            if (auto eval = count(value); eval && *eval > -1'000'000 && *eval < 1'000'000) {
                status.score_cp = static_cast<int>(*eval), any = true;
            } else if (value.size() > 2 && (value[0] == '+' || value[0] == '-') && value[1] == 'M') {
                // "+M23": a win 23 plies away, "-M4": a loss 4 plies away; as moves to mate.
                if (auto plies = protocol::parse_integer(value.substr(2), 0, 10'000, "plies")) {
                    const int p = static_cast<int>(*plies);
                    status.mate = value[0] == '+' ? (p + 1) / 2 : -std::max(1, p / 2);
                    any = true;
                }
            }
        } else if (key == "Node") {
            status.nodes = count(value);
        } else if (key == "Time") {
            status.time_ms = count(value);
        } else if (key == "Speed") {
            status.nps = count(value);
        }
    }
    if (!any) return std::nullopt;
    // The words after the last '|', when they are all move labels.
    if (const auto bar = line.rfind('|'); bar != std::string_view::npos)
        if (auto pv = pbrain_moves_from_labels(protocol::split_words(line.substr(bar + 1)))) status.pv = std::move(*pv);
    return status;
}

std::optional<std::vector<std::string>> pbrain_moves_from_labels(const std::vector<std::string_view>& words) {
    if (words.empty()) return std::nullopt;
    std::vector<std::string> moves;
    for (const std::string_view word : words) {
        if (word == "Pass") {
            moves.emplace_back("pass");
            continue;
        }
        if (word.size() < 2 || word[0] < 'A' || word[0] > 'Z') return std::nullopt;
        auto row = protocol::parse_integer(word.substr(1), 1, 26, "row");
        if (!row) return std::nullopt;
        moves.push_back(fmt::format("{},{}", word[0] - 'A', *row - 1));
    }
    return moves;
}

std::optional<std::pair<int, int>> parse_pbrain_cell(std::string_view text) {
    const auto comma = text.find(',');
    if (comma == std::string_view::npos) return std::nullopt;
    auto x = protocol::parse_integer(text.substr(0, comma), -1000, 1000, "x");
    auto y = protocol::parse_integer(text.substr(comma + 1), -1000, 1000, "y");
    if (!x || !y) return std::nullopt;
    return std::pair{static_cast<int>(*x), static_cast<int>(*y)};
}

bool is_pbrain_remark(std::string_view line) {
    const auto words = protocol::split_words(line);
    return words.empty() || words[0] == "MESSAGE" || words[0] == "DEBUG" || words[0] == "SUGGEST" ||
           words[0] == "UNKNOWN";
}

std::optional<SearchLine> parse_search_line(std::string_view line) {
    const auto words = protocol::split_words(line);
    if (words.empty()) return std::nullopt;
    SearchLine parsed;
    if (words[0] == "MESSAGE") {
        // Ours write an info line's words after MESSAGE; Rapfi writes its own fields
        // (parse_pbrain_status), and its PV in a later line of its own.
        if (words.size() > 1 && words[1] == "depth") {
            auto info = parse_search_line("info " + protocol::join_words(words, 1, words.size()));
            if (info) return info;
        }
        if (auto status = parse_pbrain_status(line)) {
            parsed.depth = status->depth;
            parsed.seldepth = status->seldepth;
            parsed.score_cp = status->score_cp;
            parsed.mate = status->mate;
            parsed.nodes = status->nodes;
            parsed.nps = status->nps;
            parsed.time_ms = status->time_ms;
            parsed.pv = std::move(status->pv);
            return parsed;
        }
        // Rapfi's "MESSAGE Bestline H8 I9 ...": its PV in its own labels.
        if (words.size() > 2 && words[1] == "Bestline")
            if (auto pv = pbrain_moves_from_labels({words.begin() + 2, words.begin() + std::min<std::size_t>(words.size(), 66)}))
                parsed.pv = std::move(*pv);
        parsed.text = protocol::join_words(words, 1, words.size());
        return parsed;
    }
    if (words[0] != "info") return std::nullopt;
    auto integer = [&](std::size_t i) -> std::optional<std::int64_t> {
        if (i >= words.size()) return std::nullopt;
        auto value = protocol::parse_integer(words[i], -1'000'000'000'000LL, 1'000'000'000'000'000LL, "value");
        if (!value) return std::nullopt;
        return *value;
    };
    auto small = [](std::optional<std::int64_t> value) -> std::optional<int> {
        if (!value || *value < -1'000'000'000 || *value > 1'000'000'000) return std::nullopt;
        return static_cast<int>(*value);
    };
    for (std::size_t i = 1; i < words.size(); ++i) {
        const std::string_view key = words[i];
        if (key == "string") {
            parsed.text = protocol::join_words(words, i + 1, words.size());
            break;
        }
        if (key == "pv") {
            for (std::size_t j = i + 1; j < words.size() && parsed.pv.size() < 64; ++j) parsed.pv.emplace_back(words[j]);
            break;
        }
        if (key == "depth") parsed.depth = small(integer(++i));
        else if (key == "seldepth") parsed.seldepth = small(integer(++i));
        else if (key == "nodes") parsed.nodes = integer(++i);
        else if (key == "nps") parsed.nps = integer(++i);
        else if (key == "time") parsed.time_ms = integer(++i);
        else if (key == "score" && i + 2 < words.size()) {
            if (words[i + 1] == "cp") parsed.score_cp = small(integer(i + 2));
            else if (words[i + 1] == "mate") {
                const auto mate = small(integer(i + 2));
                if (mate && *mate >= -10'000 && *mate <= 10'000) parsed.mate = mate;
            }
            i += 2;
        }
    }
    return parsed;
}

std::optional<SearchInfo> parse_search_info(std::string_view line) {
    const auto parsed = parse_search_line(line);
    if (!parsed || !parsed->depth || *parsed->depth < 0 || (!parsed->score_cp && !parsed->mate)) return std::nullopt;
    SearchInfo info;
    info.depth = *parsed->depth;
    if (parsed->mate) {
        // Mate in N moves is a win 2N - 1 plies away; mated in N, a loss 2N plies away.
        const int mate = *parsed->mate;
        info.mate = mate;
        info.score_cp = mate > 0 ? mate_cp - (2 * mate - 1) : -(mate_cp + 2 * mate);
    } else {
        info.score_cp = *parsed->score_cp;
    }
    info.pv = parsed->pv;
    return info;
}

void update_search_info(std::optional<SearchInfo>& info, std::string_view line) {
    if (auto scored = parse_search_info(line)) {
        if (scored->pv.empty() && info) scored->pv = std::move(info->pv);
        info = std::move(scored);
    } else if (info) {
        if (auto parsed = parse_search_line(line); parsed && !parsed->pv.empty()) info->pv = std::move(parsed->pv);
    }
}

std::string score_text(const SearchInfo& info) {
    if (info.mate) return fmt::format("{}M{}/{}", *info.mate > 0 ? '+' : '-', std::abs(*info.mate), info.depth);
    return fmt::format("{:+.2f}/{}", info.score_cp / 100.0, info.depth);
}

EnginePlayer::EnginePlayer(EngineConfig config, protocol::Dialect dialect, Timeouts timeouts,
                           const std::atomic<bool>* interrupt)
    : config_(std::move(config)), dialect_(dialect), timeouts_(timeouts), interrupt_(interrupt) {}

EngineStatus EnginePlayer::fail(EngineStatus status, std::string message) {
    error_ = fmt::format("engine {}: {}", config_.name, message);
    if (status != EngineStatus::ok) {
        serving_ = false;
        if (status != EngineStatus::fatal) failed_ = true;
        process_.kill();  // a half-working engine is restarted from scratch next time
    }
    return status;
}

bool EnginePlayer::send(std::string_view line) {
    if (process_.write_line(line)) return true;
    fail(EngineStatus::disconnect, process_.error());
    return false;
}

template <class OnLine>
EngineStatus EnginePlayer::read_until(std::string_view wanted, std::chrono::milliseconds timeout, OnLine on_line) {
    const auto deadline = SteadyClock::now() + timeout;
    for (;;) {
        const auto read = process_.read_line_until(deadline);
        if (read.status == ReadStatus::closed) return fail(EngineStatus::disconnect, "it exited or closed its output");
        if (read.status == ReadStatus::timeout)
            return fail(EngineStatus::stall, fmt::format("no '{}' within {} ms", wanted, timeout.count()));
        if (read.line == wanted) return EngineStatus::ok;
        on_line(read.line);
    }
}

EngineStatus EnginePlayer::ensure_running() {
    if (config_.restart_every_game && games_started_ > 0 && serving_) quit();
    if (serving_) {
        if (process_.running()) return EngineStatus::ok;
        return fail(EngineStatus::disconnect, "it exited after its last game");
    }
    if (const EngineStatus status = start_process(); status != EngineStatus::ok) return status;
    if (const EngineStatus status = handshake(); status != EngineStatus::ok) return status;
    send_configured_options();
    serving_ = !failed_;
    if (failed_) return EngineStatus::disconnect;
    return EngineStatus::ok;
}

EngineStatus EnginePlayer::start_process() {
    process_.kill();
    failed_ = false;
    serving_ = false;
    protocol::ProcessOptions options;
    options.command = config_.command;
    options.arguments = config_.arguments;
    options.working_directory = config_.working_directory;
    options.stderr_path = config_.stderr_path;
    if (!process_.start(options)) return fail(EngineStatus::fatal, process_.error());
    return EngineStatus::ok;
}

EngineStatus EnginePlayer::handshake() {
    // pbrain has no handshake and no options; START answered OK (start_game) shows it is alive.
    declared_options_.clear();
    identity_.clear();
    if (dialect_ == protocol::Dialect::pbrain) {
        ask_pbrain_identity();
        return failed_ ? EngineStatus::disconnect : EngineStatus::ok;
    }
    const bool tei = dialect_ == protocol::Dialect::tei;
    if (!send(tei ? "tei" : "ugi")) return EngineStatus::disconnect;
    return read_until(tei ? "teiok" : "ugiok", std::chrono::milliseconds(timeouts_.startup_ms), [this](const std::string& line) {
        // id name <words...>; option name <name words...> type ...
        const auto words = protocol::split_words(line);
        if (words.size() >= 3 && words[0] == "id" && words[1] == "name") identity_ = protocol::join_words(words, 2, words.size());
        if (words.size() < 3 || words[0] != "option" || words[1] != "name") return;
        if (auto option = protocol::parse_option_declaration(line)) {
            declared_options_.push_back(std::move(*option));
            return;
        }
        std::size_t type_at = 2;
        while (type_at < words.size() && words[type_at] != "type") ++type_at;
        protocol::Option option;
        option.name = protocol::join_words(words, 2, type_at);
        declared_options_.push_back(std::move(option));
    });
}

bool EnginePlayer::declares_option(std::string_view name) const {
    return protocol::find_option(declared_options_, name) != nullptr;
}

void EnginePlayer::send_configured_options() {
    for (const auto& [name, value] : config_.options) {
        if (dialect_ == protocol::Dialect::pbrain) {
            if (protocol::equals_ignoring_case(name, "Threads")) continue;  // INFO thread_num, at each START
            std::fputs(fmt::format("arbiter: warning: engine {} speaks pbrain, which has no options; '{}' not sent\n",
                                   config_.name, name)
                           .c_str(),
                       stderr);
            continue;
        }
        if (!declares_option(name)) {
            std::fputs(
                fmt::format("arbiter: warning: engine {} declares no option '{}'; not sent\n", config_.name, name)
                    .c_str(),
                stderr);
            continue;
        }
        if (!send(fmt::format("setoption name {} value {}", name, value))) return;
    }
}

EngineStatus EnginePlayer::start_game(const std::vector<std::pair<std::string, std::string>>& rule_options,
                                      const std::string& new_game_command) {
    ++games_started_;
    if (dialect_ == protocol::Dialect::pbrain) return start_pbrain_game(rule_options, new_game_command);
    for (const auto& [name, value] : rule_options)
        if (!send(fmt::format("setoption name {} value {}", name, value))) return EngineStatus::disconnect;
    if (!send(new_game_command) || !send("isready")) return EngineStatus::disconnect;
    // Anything before readyok (a late bestmove, info lines, error lines) belongs to nothing.
    return read_until("readyok", std::chrono::milliseconds(timeouts_.new_game_ms), [](const std::string&) {});
}

// Rapfi (v0.43) writes its move before its search has ended, and until then it drops every
// command but STOP and END: an INFO sent within a millisecond of its move (an opponent that
// answers at once) was lost, and the next words were read as commands ("ERROR Unknown command:
// TIMEOUT_MATCH"). A pbrain engine's next command therefore waits until its last answer is
// this old; the wait is before its clock starts.
constexpr std::chrono::milliseconds pbrain_settle{15};

void EnginePlayer::let_pbrain_settle() {
    if (!pbrain_answered_at_) return;
    std::this_thread::sleep_until(*pbrain_answered_at_ + pbrain_settle);
    pbrain_answered_at_.reset();
}

// ABOUT is optional for a brain's identity, so an engine that answers it late, or with an error,
// only goes without one; its late answer is skipped while START waits for OK.
void EnginePlayer::ask_pbrain_identity() {
    constexpr std::chrono::milliseconds about_timeout{2'000};
    if (!send("ABOUT")) return;
    const auto deadline = SteadyClock::now() + std::min(about_timeout, std::chrono::milliseconds(timeouts_.startup_ms));
    for (;;) {
        const auto read = process_.read_line_until(deadline);
        if (read.status == ReadStatus::closed) {
            fail(EngineStatus::disconnect, "it exited or closed its output");
            return;
        }
        if (read.status == ReadStatus::timeout) return;
        const auto words = protocol::split_words(read.line);
        if (words.empty() || words[0] == "MESSAGE" || words[0] == "DEBUG") continue;
        identity_ = pbrain_identity(read.line);
        pbrain_answered_at_ = SteadyClock::now();
        return;
    }
}

std::string pbrain_identity(std::string_view about) {
    // The value of key="value" in the answer, or empty.
    auto value_of = [&](std::string_view key) -> std::string {
        const std::string opening = std::string(key) + "=\"";
        std::size_t at = about.find(opening);
        while (at != std::string_view::npos && at > 0 && about[at - 1] != ' ' && about[at - 1] != ',')
            at = about.find(opening, at + 1);  // "nickname=" is not "name="
        if (at == std::string_view::npos) return "";
        const std::size_t begin = at + opening.size();
        const std::size_t end = about.find('"', begin);
        return std::string(about.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
    };
    std::string identity = value_of("name");
    if (identity.empty()) return "";
    if (const std::string version = value_of("version"); !version.empty()) identity += " " + version;
    return identity;
}

// pbrain: START (or RECTSTART) must be answered OK; then the rules go as INFO lines.
EngineStatus EnginePlayer::start_pbrain_game(const std::vector<std::pair<std::string, std::string>>& rule_options,
                                             const std::string& new_game_command) {
    pbrain_start_command_ = new_game_command;
    pbrain_rule_options_ = rule_options;
    return send_pbrain_start();
}

EngineStatus EnginePlayer::send_pbrain_start() {
    pbrain_board_.reset();
    let_pbrain_settle();
    if (!send(pbrain_start_command_)) return EngineStatus::disconnect;
    const auto deadline = SteadyClock::now() + std::chrono::milliseconds(timeouts_.new_game_ms);
    for (;;) {
        const auto read = process_.read_line_until(deadline);
        if (read.status == ReadStatus::closed) return fail(EngineStatus::disconnect, "it exited or closed its output");
        if (read.status == ReadStatus::timeout)
            return fail(EngineStatus::stall,
                        fmt::format("no 'OK' to '{}' within {} ms", pbrain_start_command_, timeouts_.new_game_ms));
        if (read.line.starts_with("OK")) break;
        if (read.line.starts_with("ERROR"))
            return fail(EngineStatus::fatal, fmt::format("it refused '{}': {}", pbrain_start_command_, read.line));
    }
    for (const auto& [name, value] : pbrain_rule_options_)
        if (!send(fmt::format("INFO {} {}", name, value))) return EngineStatus::disconnect;
    // pbrain has no options, but Yixin-Board's INFO thread_num is option.Threads= (docs/arbiter.md).
    for (const auto& [name, value] : config_.options)
        if (protocol::equals_ignoring_case(name, "Threads") && !send(fmt::format("INFO thread_num {}", value)))
            return EngineStatus::disconnect;
    pbrain_board_.emplace();  // START empties the brain's board
    return EngineStatus::ok;
}

std::string pbrain_board_block(const PbrainPosition& position) {
    std::string block = "BOARD";
    for (const PbrainStone& stone : position.stones)
        block += fmt::format("\n{},{},{}", stone.x, stone.y,
                             stone.owner == 3 ? 3 : stone.owner == position.mover ? 1 : 2);
    block += "\nDONE";
    return block;
}

std::string EnginePlayer::pbrain_turn_command(const PbrainPosition& position, EngineStatus& status) {
    status = EngineStatus::ok;
    const auto& stones = position.stones;
    if (pbrain_board_ && pbrain_board_->size() <= stones.size() &&
        std::equal(pbrain_board_->begin(), pbrain_board_->end(), stones.begin())) {
        const std::size_t new_stones = stones.size() - pbrain_board_->size();
        if (stones.empty()) return "BEGIN";
        const PbrainStone& last = stones.back();
        if (new_stones == 1 && last.owner != 3 && last.owner != position.mover)
            return fmt::format("TURN {},{}", last.x, last.y);
    }
    // A book position, a resumed game, or a brain whose board went its own way (an analysis, or
    // a move it played after a stop): Piskvork's BOARD goes on an empty board only.
    status = send_pbrain_start();
    return status == EngineStatus::ok ? pbrain_board_block(position) : std::string();
}

// pbrain: the INFO lines, then BEGIN, TURN or the BOARD block; the answer is the first line that
// is not a MESSAGE, DEBUG or SUGGEST line ("x,y", or "ERROR ..." which the referee rejects as a move).
EngineReply EnginePlayer::think_pbrain(const PbrainPosition& position, const std::string& clock,
                                       std::chrono::milliseconds budget, const SearchLineCallback& on_line) {
    EngineReply reply;
    EngineStatus status = EngineStatus::ok;
    const std::string command = config_.pbrain_mode == PbrainMode::board ? pbrain_board_block(position)
                                                                         : pbrain_turn_command(position, status);
    if (status != EngineStatus::ok) {
        reply.kind = status == EngineStatus::stall ? EngineReply::Kind::stall : EngineReply::Kind::closed;
        return reply;
    }
    // Until the answer is read, nobody knows what the brain's board holds.
    pbrain_board_.reset();
    let_pbrain_settle();
    const auto start = SteadyClock::now();
    const auto deadline = start + budget;
    for (const std::string* text : {&clock, &command}) {
        std::size_t from = 0;
        while (from <= text->size()) {
            const std::size_t end = text->find('\n', from);
            const std::string line = text->substr(from, end == std::string::npos ? std::string::npos : end - from);
            if (!line.empty() && !send(line)) {
                reply.kind = EngineReply::Kind::closed;
                return reply;
            }
            if (end == std::string::npos) break;
            from = end + 1;
        }
    }
    constexpr auto slice = std::chrono::milliseconds(100);
    for (;;) {
        auto until = deadline;
        if (interrupt_) until = std::min(until, SteadyClock::now() + slice);
        const auto read = process_.read_line_until(until);
        const auto now = SteadyClock::now();
        reply.elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - start).count();
        if (read.status == ReadStatus::timeout) {
            if (interrupt_ && interrupt_->load()) {
                reply.kind = EngineReply::Kind::interrupted;
                return reply;
            }
            if (now < deadline) continue;
            reply.kind = EngineReply::Kind::timeout;
            return reply;
        }
        if (read.status == ReadStatus::closed) {
            fail(EngineStatus::disconnect, "it exited or closed its output during a search");
            reply.kind = EngineReply::Kind::closed;
            return reply;
        }
        const auto words = protocol::split_words(read.line);
        if (is_pbrain_remark(read.line)) {
            if (!words.empty() && words[0] == "MESSAGE")
                update_search_info(reply.info, read.line);
            if (on_line) on_line(read.line);
            continue;
        }
        reply.kind = EngineReply::Kind::move;
        reply.move = words.size() == 1 ? std::string(words[0]) : read.line;
        pbrain_answered_at_ = now;
        // A brain that keeps its board has played its answer there.
        if (auto cell = parse_pbrain_cell(reply.move)) {
            pbrain_board_ = position.stones;
            pbrain_board_->push_back({cell->first, cell->second, position.mover});
        }
        return reply;
    }
}

EngineReply EnginePlayer::think(const std::string& position_command, const std::string& go_command,
                                std::chrono::milliseconds budget, const SearchLineCallback& on_line) {
    EngineReply reply;
    const bool ping = timeouts_.ping_ms > 0;
    // The clock starts before anything is written: the engine's own latency is its own.
    const auto start = SteadyClock::now();
    const auto deadline = start + budget;
    const auto ping_deadline = start + std::chrono::milliseconds(timeouts_.ping_ms);
    if ((ping && !send("isready")) || !send(position_command) || !send(go_command)) {
        reply.kind = EngineReply::Kind::closed;
        return reply;
    }
    bool ready = !ping;
    // Reads in slices so an interrupt (SIGINT) is noticed within a tenth of a second.
    constexpr auto slice = std::chrono::milliseconds(100);
    for (;;) {
        auto until = ready ? deadline : std::min(deadline, ping_deadline);
        if (interrupt_) until = std::min(until, SteadyClock::now() + slice);
        const auto read = process_.read_line_until(until);
        const auto now = SteadyClock::now();
        reply.elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - start).count();
        if (read.status == ReadStatus::timeout) {
            if (interrupt_ && interrupt_->load()) {
                reply.kind = EngineReply::Kind::interrupted;
                return reply;
            }
            if (!ready && now >= ping_deadline && ping_deadline < deadline) {
                fail(EngineStatus::stall, fmt::format("no 'readyok' within {} ms before its move", timeouts_.ping_ms));
                reply.kind = EngineReply::Kind::stall;
                return reply;
            }
            if (now < deadline) continue;
            reply.kind = EngineReply::Kind::timeout;
            return reply;
        }
        if (read.status == ReadStatus::closed) {
            fail(EngineStatus::disconnect, "it exited or closed its output during a search");
            reply.kind = EngineReply::Kind::closed;
            return reply;
        }
        if (!ready) {
            ready = read.line == "readyok";
            continue;
        }
        if (read.line.starts_with("info ")) {
            update_search_info(reply.info, read.line);
            if (on_line) on_line(read.line);
            continue;
        }
        const auto words = protocol::split_words(read.line);
        if (!words.empty() && words[0] == "bestmove") {
            reply.kind = EngineReply::Kind::move;
            reply.move = words.size() > 1 ? std::string(words[1]) : std::string();
            return reply;
        }
    }
}

void EnginePlayer::abandon_search() {
    // pbrain has no stop of its own: Yixin's YXSTOP, which Rapfi and ours answer with a move at
    // once. An engine that does not know it answers UNKNOWN (skipped) and moves when its time is up.
    const bool pbrain = dialect_ == protocol::Dialect::pbrain;
    if (!serving_ || !send(pbrain ? "YXSTOP" : "stop")) return;
    const auto deadline = SteadyClock::now() + stop_timeout;
    for (;;) {
        const auto read = process_.read_line_until(deadline);
        if (read.status == ReadStatus::line) {
            if (pbrain ? !is_pbrain_remark(read.line)
                       : read.line.starts_with("bestmove")) {
                if (pbrain) pbrain_answered_at_ = SteadyClock::now();
                return;
            }
            continue;
        }
        fail(read.status == ReadStatus::closed ? EngineStatus::disconnect : EngineStatus::stall,
             "it did not answer stop");
        return;
    }
}

void EnginePlayer::quit() {
    serving_ = false;
    if (!process_.running()) return;
    if (process_.write_line(dialect_ == protocol::Dialect::pbrain ? "END" : "quit") &&
        process_.wait_for_exit(quit_timeout))
        return;
    process_.kill();
}

}  // namespace bge::arbiter
