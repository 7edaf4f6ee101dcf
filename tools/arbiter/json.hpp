#pragma once
// A small JSON value for the arbiter's files (state journal, results, merge, report): parse with
// a clear error, build, and write. Objects keep their insertion order so files read naturally and
// diff cleanly. Integers are kept exact (int64) apart from other numbers.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/expected.hpp"

namespace bge::arbiter::json {

class Value;
using Array = std::vector<Value>;
using Member = std::pair<std::string, Value>;

class Object {
public:
    Value& operator[](std::string_view key);  // inserts null when missing
    const Value* find(std::string_view key) const;
    bool contains(std::string_view key) const { return find(key) != nullptr; }
    const std::vector<Member>& members() const { return members_; }
    std::size_t size() const { return members_.size(); }

private:
    std::vector<Member> members_;
};

class Value {
public:
    Value() = default;
    Value(std::nullptr_t) {}
    Value(bool value) : data_(value) {}
    Value(int value) : data_(static_cast<std::int64_t>(value)) {}
    Value(std::int64_t value) : data_(value) {}
    Value(std::uint64_t value) : data_(static_cast<std::int64_t>(value)) {}
    Value(double value) : data_(value) {}
    Value(const char* value) : data_(std::string(value)) {}
    Value(std::string value) : data_(std::move(value)) {}
    Value(std::string_view value) : data_(std::string(value)) {}
    Value(Array value) : data_(std::move(value)) {}
    Value(Object value) : data_(std::move(value)) {}

    bool is_null() const { return data_.index() == 0; }
    bool is_bool() const { return data_.index() == 1; }
    bool is_integer() const { return data_.index() == 2; }
    bool is_number() const { return data_.index() == 2 || data_.index() == 3; }
    bool is_string() const { return data_.index() == 4; }
    bool is_array() const { return data_.index() == 5; }
    bool is_object() const { return data_.index() == 6; }

    // Accessors with a fallback for a missing or mistyped value, so readers stay short; callers
    // that must reject bad files check the type first.
    bool as_bool(bool fallback = false) const;
    std::int64_t as_integer(std::int64_t fallback = 0) const;
    double as_number(double fallback = 0.0) const;
    const std::string& as_string() const;  // empty when not a string
    const Array& as_array() const;         // empty when not an array
    const Object& as_object() const;       // empty when not an object
    Array& array();                        // turns a null into an empty array
    Object& object();                      // turns a null into an empty object

    // Member of an object (null when missing or not an object).
    const Value& operator[](std::string_view key) const;
    Value& operator[](std::string_view key) { return object()[key]; }

    friend bool operator==(const Value& a, const Value& b);

private:
    std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, Array, Object> data_;
};

bool operator==(const Object& a, const Object& b);

// Parses one JSON text (surrounding whitespace allowed). The error gives the line and column.
Expected<Value> parse(std::string_view text);
// Compact (one line) or indented by two spaces.
std::string write(const Value& value, bool pretty = false);

}  // namespace bge::arbiter::json
