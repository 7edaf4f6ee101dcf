// A bounded fuzz run of the GUI's message handler (Hub::message, which takes what a browser sent):
// malformed and truncated JSON, every field of every request with a value of the wrong type,
// deep nesting, huge messages, random bytes, and mutations of well-formed requests, from a fixed
// seed. Each must get exactly one reply, an error that says what was wrong, and nothing may
// throw or crash (the suite also runs under AddressSanitizer).
//
// No request here can succeed, so the hub never holds a session and every reply comes back
// within Hub::message, on this thread: the new_game requests name two engines the hub does not
// have, the other requests a game or a session that does not exist, and a mutation of a few
// bytes cannot turn those into names that do.

#include <catch2/catch.hpp>

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/random.hpp"
#include "tools/gui/hub.hpp"

using namespace bge;
using namespace bge::gui;

namespace {

class CollectingClient : public Client {
public:
    void send(std::string message) override {
        std::lock_guard lock(mutex_);
        replies_.push_back(std::move(message));
    }
    std::uint64_t id() const override { return 9; }
    std::vector<std::string> take() {
        std::lock_guard lock(mutex_);
        return std::exchange(replies_, {});
    }

private:
    std::mutex mutex_;
    std::vector<std::string> replies_;
};

// Requests that would be valid (the hub would create a game or an analysis) apart from the
// field under test; the wrong-type set below replaces one field at a time.
const char* const valid_requests[] = {
    R"({"type": "new_game", "game": "tak", "variant": {"size": 5, "komi": 1.5, "repetition": false},
        "players": ["person", "person"], "tc": "5+0.1", "limit": {"depth": 3, "nodes": 1000},
        "position": "", "seed": 7})",
    R"({"type": "new_game", "game": "tak", "variant": {"size": 5}, "players": ["person", "person"],
        "limit": {"movetime": 100, "depth": 3, "nodes": 1000}, "position": "", "seed": 7})",
    R"({"type": "new_game", "game": "ur", "variant": {"ruleset": "masters", "pieces": 5},
        "players": ["person", "person"]})",
    R"({"type": "new_game", "game": "gomoku", "variant": {"size": 9, "rule": "renju"},
        "players": ["person", "person"]})",
    R"({"type": "analyse", "game": "tak", "variant": {"size": 5}, "position": "", "moves": "a1 e5"})",
    R"({"type": "load_record", "game": "tak", "text": "[Size \"5\"]\n\n1. a1 e5\n", "index": 0})",
};

// Requests that cannot succeed, for the truncation and mutation sets: no such engines, games or sessions.
const char* const failing_requests[] = {
    R"({"type": "new_game", "game": "tak", "variant": {"size": 5, "komi": 1.5}, "players": ["ghost", "ghoul"],
        "tc": "5+0.1", "limit": {"movetime": 100, "depth": 3, "nodes": 1000}, "position": "", "seed": 7})",
    R"({"type": "new_game", "game": "gomoku", "variant": {"size": 9, "rule": "renju"}, "players": ["ghost", "ghoul"],
        "position": "9/9/9/9/9/9/9/9/9 1"})",
    R"({"type": "analyse", "game": "chess", "variant": {"size": 5}, "position": "", "moves": "a1 e5"})",
    R"({"type": "load_record", "game": "chess", "text": "[Size \"5\"]\n\n1. a1 e5\n", "index": 0})",
    R"({"type": "move", "id": 1, "move": "a1"})",
    R"({"type": "undo", "id": 2})",
    R"({"type": "goto", "id": 3, "ply": 4})",
    R"({"type": "start", "id": 4, "engine": "tak"})",
    R"({"type": "stop", "id": 5})",
    R"({"type": "subscribe", "id": 6})",
    R"({"type": "unsubscribe", "id": 7})",
    R"({"type": "close", "id": 8})",
};

// The fields of each request: a path of keys, and the kind of value it takes.
enum class Kind { text, integer, number, object, array, boolean };
struct Field {
    std::vector<std::string> path;
    Kind kind;
};

std::vector<Field> fields_of(const Json& value, std::vector<std::string> path = {}) {
    std::vector<Field> fields;
    for (const auto& [key, member] : value.items()) {
        std::vector<std::string> here = path;
        here.push_back(key);
        const Kind kind = member.is_string()           ? Kind::text
                          : member.is_number_integer() ? Kind::integer
                          : member.is_number()         ? Kind::number
                          : member.is_boolean()        ? Kind::boolean
                          : member.is_array()          ? Kind::array
                                                       : Kind::object;
        fields.push_back({here, kind});
        if (member.is_object())
            for (Field& inner : fields_of(member, here)) fields.push_back(std::move(inner));
    }
    return fields;
}

// JSON texts of another kind (null is left out: an optional field may be null).
std::vector<std::string> wrong_values(Kind kind) {
    std::vector<std::string> values = {"true", "[]", "{}", "[[[[]]]]"};
    if (kind != Kind::text) values.insert(values.end(), {"\"5\"", "\"\""});
    if (kind != Kind::integer && kind != Kind::number) values.insert(values.end(), {"5", "-1", "0.5"});
    if (kind == Kind::integer)
        values.insert(values.end(), {"1.5", "-1", "1e400", "9223372036854775808", "18446744073709551616",
                                     "-9223372036854775809", "1e18"});
    if (kind == Kind::number) values.insert(values.end(), {"0.3", "1e300", "-1e-300", "1e400"});
    if (kind == Kind::array)
        values.insert(values.end(), {"[\"person\"]", "[\"person\", 5]", "[\"person\", \"person\", \"person\"]",
                                     "[[\"person\"], \"person\"]", "{\"0\": \"person\", \"1\": \"person\"}"});
    if (kind == Kind::boolean) std::erase(values, "true");  // the right kind here
    if (kind == Kind::object) std::erase(values, "{}");
    return values;
}

// `request` with the member at `path` replaced by the JSON text `value` (which may be one that
// cannot be held in a value, such as 1e400).
std::string with_member(Json request, const std::vector<std::string>& path, const std::string& value) {
    Json* member = &request;
    for (const std::string& key : path) member = &(*member)[key];
    *member = "\x01placeholder";
    std::string text = json::dump(request);
    const std::string placeholder = "\"\\u0001placeholder\"";
    return text.replace(text.find(placeholder), placeholder.size(), value);
}

std::string mutated(std::string text, Random& random) {
    static const char* const tokens[] = {"{",
                                         "}",
                                         "[",
                                         "]",
                                         "\"",
                                         ",",
                                         ":",
                                         "\\",
                                         "null",
                                         "-1",
                                         "1e400",
                                         "0.5",
                                         "18446744073709551616",
                                         "\"\\ud800\"",
                                         "[[[[",
                                         "true",
                                         "\"\xff\"",
                                         "\\u"};
    const int count = 1 + static_cast<int>(random.below(4));
    for (int i = 0; i < count; ++i) {
        const auto at = [&] {
            return static_cast<std::size_t>(random.below(static_cast<std::uint32_t>(text.size() + 1)));
        };
        const auto byte = [&] { return static_cast<char>(random.below(256)); };
        switch (random.below(7)) {
            case 0:  // replace a byte
                if (!text.empty()) text[std::min(at(), text.size() - 1)] = byte();
                break;
            case 1:  // insert a byte
                text.insert(at(), 1, byte());
                break;
            case 2: {  // delete a run
                const std::size_t start = at();
                text.erase(start, 1 + random.below(16));
                break;
            }
            case 3: {  // copy a run elsewhere
                const std::size_t start = at();
                const std::string run = text.substr(start, 1 + random.below(16));
                text.insert(at(), run);
                break;
            }
            case 4:  // a JSON token
                text.insert(at(), tokens[random.below(std::size(tokens))]);
                break;
            case 5:  // cut off
                text.resize(at());
                break;
            default: {  // a digit changed, so numbers move
                const std::size_t digit = text.find_first_of("0123456789", at());
                if (digit != std::string::npos) text[digit] = static_cast<char>('0' + random.below(10));
            }
        }
    }
    return text;
}

std::string repeated(std::string_view piece, std::size_t times) {
    std::string text;
    text.reserve(piece.size() * times);
    for (std::size_t i = 0; i < times; ++i) text += piece;
    return text;
}

// Every message of the run, with the set it belongs to.
std::vector<std::pair<std::string, std::string>> fuzz_messages() {
    std::vector<std::pair<std::string, std::string>> messages;
    const auto add = [&](const char* set, std::string text) { messages.emplace_back(set, std::move(text)); };

    for (const char* text : {"",
                             " ",
                             "\n",
                             "{",
                             "}",
                             "[",
                             "]",
                             "null",
                             "true",
                             "0",
                             "-",
                             "\"hello\"",
                             "nul",
                             "tru",
                             "{\"type\":",
                             "{\"type\" \"hello\"}",
                             "{'type': 'hello'}",
                             "{type: \"hello\"}",
                             "{\"type\": \"hello\",}",
                             "{\"type\": \"hello\"} x",
                             "{\"type\": \"hello\"}{\"type\": \"hello\"}",
                             "{\"type\": \"hel\\lo\"}",
                             "{\"type\": \"hello\\u0\"}",
                             "{\"type\": \"\\ud800\"}",
                             "{\"type\": \"\xff\xfe\"}",
                             "{\"type\": \"he\x01llo\"}",
                             "{\"type\": NaN}",
                             "{\"type\": Infinity}",
                             "{\"type\": 1e999}",
                             "{\"type\": 01}",
                             "{\"type\": -}",
                             "{\"type\": .5}",
                             "/* hi */ {\"type\": \"hello\"}",
                             "[{\"type\": \"hello\"}]",
                             "{\"type\": \"move\", \"id\": 1e999}",
                             "{\"type\": [\"hello\"]}"})
        add("malformed", text);
    add("malformed", std::string("{\"type\": \"hel\0lo\"}", 18));
    add("malformed", std::string("{\"type\": \"hello\"}\0", 18));

    for (const char* request : valid_requests) {
        const std::string text = json::dump(*json::parse(request));
        for (std::size_t length = 0; length < text.size(); ++length) add("truncated", text.substr(0, length));
    }
    for (const char* request : failing_requests) add("failing", request);

    for (const char* request : valid_requests) {
        const Json parsed = *json::parse(request);
        for (const Field& field : fields_of(parsed))
            for (const std::string& value : wrong_values(field.kind))
                add("wrong type", with_member(parsed, field.path, value));
    }
    for (const char* request : failing_requests) {
        const Json parsed = *json::parse(request);
        for (const Field& field : fields_of(parsed))
            for (const std::string& value : wrong_values(field.kind))
                add("wrong type", with_member(parsed, field.path, value));
    }

    add("deep", std::string(100'000, '['));
    add("deep", std::string(100'000, '[') + std::string(100'000, ']'));
    add("deep", repeated("{\"a\":", 100'000));
    add("deep", repeated("[{\"a\":", 50'000));
    add("deep", "{\"type\": \"new_game\", \"game\": \"tak\", \"variant\": " + std::string(15, '[') +
                    std::string(15, ']') +
                    ", \"players\": [\"person\", \"person\"]}");  // 16 levels: parsed, refused as a variant
    add("deep", "{\"type\": \"new_game\", \"game\": \"tak\", \"variant\": " + std::string(16, '[') +
                    std::string(16, ']') + ", \"players\": [\"person\", \"person\"]}");  // 17 levels: not parsed

    const std::string mega(5'000'000, 'x');
    add("huge", std::string(max_message_bytes + 1, ' '));
    add("huge", "{\"type\": \"" + mega + "\"}");
    add("huge", "{\"type\": \"new_game\", \"game\": \"" + mega + "\"}");
    add("huge", "{\"type\": \"new_game\", \"game\": \"tak\", \"players\": [\"" + mega + "\", \"person\"]}");
    add("huge", "{\"type\": \"new_game\", \"game\": \"tak\", \"position\": \"" + mega +
                    "\", \"players\": [\"person\", \"person\"]}");
    add("huge", "{\"type\": \"analyse\", \"game\": \"tak\", \"moves\": \"" + repeated("a1 ", 1'000'000) + "\"}");
    add("huge", "{\"type\": \"load_record\", \"game\": \"tak\", \"text\": \"" + repeated("1. a1 ", 500'000) + "\"}");
    add("huge", "{\"type\": \"move\", \"id\": 1, \"move\": \"" + std::string(max_message_bytes - 40, 'x') + "\"}");
    add("huge", "{\"type\": \"stop\", \"id\": 1, \"pad\": [" + repeated("0,", 1'000'000) + "0]}");
    add("huge", "{\"type\": \"stop\", \"id\": 1, \"pad\": \"" + repeated("\\u00e9", 1'000'000) + "\"}");
    add("huge", "{\"type\": \"stop\", \"id\": " + std::string(1'000'000, '1') + "}");
    add("huge", "{\"type\": \"" + mega);  // unterminated

    Random random(20261127);
    for (int i = 0; i < 1000; ++i) {
        static constexpr std::string_view json_characters = "{}[]\":,0123456789.-+eE \\truefalsnl";
        std::string text(random.below(300), '\0');
        const bool jsonish = random.below(2) == 0;  // half of them from JSON's own characters
        for (char& c : text)
            c = jsonish ? json_characters[random.below(json_characters.size())] : static_cast<char>(random.below(256));
        add("random bytes", std::move(text));
    }
    for (int i = 0; i < 3000; ++i) {
        const std::string base = json::dump(*json::parse(failing_requests[random.below(std::size(failing_requests))]));
        add("mutated", mutated(base, random));
    }
    return messages;
}

}  // namespace

TEST_CASE("gui: fuzzed messages each get exactly one error, and nothing throws", "[gui][fuzz]") {
    const auto messages = fuzz_messages();
    Hub hub({});
    auto client = std::make_shared<CollectingClient>();
    std::map<std::string, int> counts;
    std::vector<std::string> problems;
    for (const auto& [set, text] : messages) {
        ++counts[set];
        try {
            hub.message(client, text);
        } catch (const std::exception& error) {
            problems.push_back(fmt::format("{}: threw {}", set, error.what()));
            continue;
        }
        const auto replies = client->take();
        const auto error = replies.size() == 1 ? json::parse(replies[0]) : Expected<Json>(Json());
        const std::string message = error ? json::text(*error, "message") : std::string();
        if (replies.size() != 1 || !error || json::text(*error, "type") != "error" || message.empty() ||
            message.find("the server could not do that") != std::string::npos || replies[0].size() > 2000) {
            std::string shown = text.size() > 200 ? text.substr(0, 200) + "..." : text;
            problems.push_back(fmt::format("{}: {} replies to {}: {}", set, replies.size(), shown,
                                           replies.empty() ? "" : replies[0].substr(0, 300)));
        }
    }
    std::string report = fmt::format("{} messages:", messages.size());
    for (const auto& [set, count] : counts) report += fmt::format(" {} {},", count, set);
    for (std::size_t i = 0; i < problems.size() && i < 20; ++i) report += "\n" + problems[i];
    INFO(report);
    CHECK(problems.empty());
    CHECK(messages.size() > 5000);

    // The hub holds nothing and still answers.
    hub.message(client, R"({"type": "hello"})");
    auto replies = client->take();
    REQUIRE(replies.size() == 1);
    CHECK(json::text(*json::parse(replies[0]), "type") == "welcome");
    hub.message(client, R"({"type": "subscribe", "id": 1})");
    replies = client->take();
    REQUIRE(replies.size() == 1);
    CHECK(json::text(*json::parse(replies[0]), "message") == "there is no session 1");
}
