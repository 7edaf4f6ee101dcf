#pragma once
// JSON for the arbiter's files (results file, -state journal, merge, report) and the GUI's
// messages: nlohmann::ordered_json from Debian's nlohmann-json3-dev. Objects keep their insertion
// order, so files read naturally and diff cleanly; integers stay exact (64-bit).
//
// Text from outside (files, a browser) is read only through json::parse, which never throws and
// bounds the size and nesting it accepts. nlohmann throws on a wrong-type get<>() or a missing
// key in at(), so documents from outside are read with the helpers below, which treat a missing
// or mistyped member as absent; implicit conversions are off (JSON_USE_IMPLICIT_CONVERSIONS=0 in
// tools/arbiter/CMakeLists.txt), so every conversion is an explicit get<>() after a type check.

#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/expected.hpp"

namespace bge::arbiter {

using Json = nlohmann::ordered_json;

namespace json {

struct Limits {
    std::size_t max_bytes;
    int max_depth;  // arrays and objects inside one another: 1 for a flat object
};

// The arbiter's own files. A results file holds every game's record, so it may be large; the
// deepest of them nests 5 levels.
inline constexpr Limits file_limits{std::size_t{1} << 30, 64};

// Compact (one line) or indented by two spaces. Text that is not UTF-8 (an engine's output)
// is written with U+FFFD in place of the bad bytes rather than throwing.
inline std::string dump(const Json& value, bool pretty = false) {
    return value.dump(pretty ? 2 : -1, ' ', false, Json::error_handler_t::replace);
}

// `text` with U+FFFD in place of bytes that are not UTF-8, repaired by nlohmann as dump() does.
inline std::string valid_utf8(std::string_view text) {
    return Json::parse(dump(Json(std::string(text)))).get<std::string>();
}

// One JSON text (whitespace around it allowed), or an error saying what is wrong and where.
inline Expected<Json> parse(std::string_view text, Limits limits = file_limits) {
    if (text.size() > limits.max_bytes)
        return make_error(
            fmt::format("JSON text of {} bytes is longer than the {} allowed", text.size(), limits.max_bytes));
    // nlohmann's parser would take a NUL byte for the end of the text and ignore what follows;
    // JSON has no raw NUL anywhere (not even in a string).
    if (const auto nul = text.find('\0'); nul != text.npos)
        return make_error(fmt::format("bad JSON: a NUL byte at offset {}", nul));
    // nlohmann's parser does not recurse, but copying, comparing and writing the value it builds
    // do: stop at the first container too deep instead.
    struct TooDeep {};
    const auto check_depth = [&limits](int depth, Json::parse_event_t event, Json&) {
        if ((event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) &&
            depth >= limits.max_depth)
            throw TooDeep{};
        return true;
    };
    try {
        return Json::parse(text, check_depth);
    } catch (const TooDeep&) {
        return make_error(fmt::format("JSON nested deeper than {} levels", limits.max_depth));
    } catch (const Json::exception& error) {
        // The old writer copied text byte for byte, so a file from before may hold bytes that are
        // not UTF-8 (an engine's garbage move in a reason): they read as U+FFFD, as dump() writes them.
        if (std::string repaired = valid_utf8(text); repaired != text) return parse(repaired, limits);
        // "[json.exception.parse_error.101] parse error at line 1, column 3: ..." without the tag,
        // and without the end of a long "last read: '...'" (it may quote megabytes).
        std::string_view what = error.what();
        if (const auto tag_end = what.find("] "); what.starts_with("[json.exception.") && tag_end != what.npos)
            what.remove_prefix(tag_end + 2);
        constexpr std::size_t shown = 300;
        return make_error(fmt::format("bad JSON: {}{}", what.substr(0, shown), what.size() > shown ? "..." : ""));
    }
}

// ---- reading documents from outside: a missing or mistyped member is absent, never a throw

// The member `key` of an object; nullptr when `value` is not an object or has no such member.
inline const Json* find(const Json& value, std::string_view key) {
    if (!value.is_object()) return nullptr;
    const auto found = value.find(key);
    return found == value.end() ? nullptr : &*found;
}

// The member `key`, or null when `value` is not an object or has no such member.
inline const Json& member(const Json& value, std::string_view key) {
    static const Json null;
    const Json* found = find(value, key);
    return found ? *found : null;
}

// The member's text; empty when it is missing or not a string.
inline const std::string& text(const Json& value, std::string_view key) {
    static const std::string empty;
    const Json* member = find(value, key);
    return member && member->is_string() ? member->get_ref<const std::string&>() : empty;
}

// A whole number within int64 (written as an integer, or as a whole double below 2^53).
inline std::optional<std::int64_t> integer(const Json& value) {
    if (value.is_number_unsigned()) {
        const auto number = value.get<std::uint64_t>();
        if (number > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
        return static_cast<std::int64_t>(number);
    }
    if (value.is_number_integer()) return value.get<std::int64_t>();
    if (value.is_number_float()) {
        const double number = value.get<double>();
        if (std::isfinite(number) && number == std::floor(number) && std::abs(number) < 9e15)
            return static_cast<std::int64_t>(number);
    }
    return std::nullopt;
}
inline std::optional<std::int64_t> integer(const Json& value, std::string_view key) {
    const Json* member = find(value, key);
    return member ? integer(*member) : std::nullopt;
}

// A whole number that fits an int (counts and indexes in our files).
inline std::optional<int> small_integer(const Json& value) {
    const auto number = integer(value);
    if (!number || *number < INT_MIN || *number > INT_MAX) return std::nullopt;
    return static_cast<int>(*number);
}
inline std::optional<int> small_integer(const Json& value, std::string_view key) {
    const Json* member = find(value, key);
    return member ? small_integer(*member) : std::nullopt;
}

// Any finite number.
inline std::optional<double> number(const Json& value, std::string_view key) {
    const Json* member = find(value, key);
    if (!member || !member->is_number()) return std::nullopt;
    const double number = member->get<double>();
    return std::isfinite(number) ? std::optional<double>(number) : std::nullopt;
}

// The member's array; an empty one when it is missing or not an array.
inline const Json& items(const Json& value, std::string_view key) {
    static const Json empty = Json::array();
    const Json* member = find(value, key);
    return member && member->is_array() ? *member : empty;
}

}  // namespace json

}  // namespace bge::arbiter
