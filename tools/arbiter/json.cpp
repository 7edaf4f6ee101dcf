#include "tools/arbiter/json.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace bge::arbiter::json {

namespace {
const Value null_value;
const std::string empty_string;
const Array empty_array;
const Object empty_object;
}  // namespace

Value& Object::operator[](std::string_view key) {
    for (auto& [name, value] : members_)
        if (name == key) return value;
    members_.emplace_back(std::string(key), Value{});
    return members_.back().second;
}

const Value* Object::find(std::string_view key) const {
    for (const auto& [name, value] : members_)
        if (name == key) return &value;
    return nullptr;
}

bool operator==(const Object& a, const Object& b) { return a.members() == b.members(); }

bool operator==(const Value& a, const Value& b) { return a.data_ == b.data_; }

bool Value::as_bool(bool fallback) const { return is_bool() ? std::get<bool>(data_) : fallback; }

std::int64_t Value::as_integer(std::int64_t fallback) const {
    if (is_integer()) return std::get<std::int64_t>(data_);
    if (data_.index() == 3) return static_cast<std::int64_t>(std::get<double>(data_));
    return fallback;
}

double Value::as_number(double fallback) const {
    if (is_integer()) return static_cast<double>(std::get<std::int64_t>(data_));
    if (data_.index() == 3) return std::get<double>(data_);
    return fallback;
}

const std::string& Value::as_string() const { return is_string() ? std::get<std::string>(data_) : empty_string; }
const Array& Value::as_array() const { return is_array() ? std::get<Array>(data_) : empty_array; }
const Object& Value::as_object() const { return is_object() ? std::get<Object>(data_) : empty_object; }

Array& Value::array() {
    if (!is_array()) data_ = Array{};
    return std::get<Array>(data_);
}

Object& Value::object() {
    if (!is_object()) data_ = Object{};
    return std::get<Object>(data_);
}

const Value& Value::operator[](std::string_view key) const {
    if (!is_object()) return null_value;
    const Value* found = std::get<Object>(data_).find(key);
    return found ? *found : null_value;
}

// ---------------------------------------------------------------------------------------------
// Parsing

namespace {

class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    Expected<Value> document() {
        Value value;
        if (!parse_value(value, 0)) return make_error(error_);
        skip_space();
        if (pos_ != text_.size()) return fail_now("unexpected text after the JSON value");
        return value;
    }

private:
    static constexpr int max_depth = 200;

    Error fail_now(std::string what) {
        fail(std::move(what));
        return make_error(error_);
    }
    bool fail(std::string what) {
        if (error_.empty()) {
            int line = 1, column = 1;
            for (std::size_t i = 0; i < pos_ && i < text_.size(); ++i) {
                if (text_[i] == '\n') {
                    ++line;
                    column = 1;
                } else {
                    ++column;
                }
            }
            error_ = fmt::format("JSON line {} column {}: {}", line, column, what);
        }
        return false;
    }

    void skip_space() {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
            ++pos_;
    }

    bool literal(std::string_view word) {
        if (text_.substr(pos_, word.size()) != word) return false;
        pos_ += word.size();
        return true;
    }

    bool parse_value(Value& out, int depth) {
        if (depth > max_depth) return fail("nested too deeply");
        skip_space();
        if (pos_ >= text_.size()) return fail("unexpected end of text");
        const char c = text_[pos_];
        if (c == '{') return parse_object(out, depth);
        if (c == '[') return parse_array(out, depth);
        if (c == '"') {
            std::string s;
            if (!parse_string(s)) return false;
            out = Value(std::move(s));
            return true;
        }
        if (literal("true")) return out = Value(true), true;
        if (literal("false")) return out = Value(false), true;
        if (literal("null")) return out = Value(nullptr), true;
        if (c == '-' || (c >= '0' && c <= '9')) return parse_number(out);
        return fail(fmt::format("unexpected character '{}'", c));
    }

    bool parse_number(Value& out) {
        const std::size_t start = pos_;
        if (text_[pos_] == '-') ++pos_;
        bool is_integer = true;
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (c >= '0' && c <= '9') {
                ++pos_;
            } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                is_integer = false;
                ++pos_;
            } else {
                break;
            }
        }
        const std::string_view number = text_.substr(start, pos_ - start);
        if (is_integer) {
            std::int64_t value = 0;
            const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
            if (ec == std::errc{} && end == number.data() + number.size()) return out = Value(value), true;
        }
        double value = 0;
        const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
        if (ec != std::errc{} || end != number.data() + number.size())
            return fail(fmt::format("bad number '{}'", number));
        out = Value(value);
        return true;
    }

    static void append_utf8(std::string& s, unsigned code) {
        if (code < 0x80) {
            s += static_cast<char>(code);
        } else if (code < 0x800) {
            s += static_cast<char>(0xC0 | (code >> 6));
            s += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            s += static_cast<char>(0xE0 | (code >> 12));
            s += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            s += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            s += static_cast<char>(0xF0 | (code >> 18));
            s += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            s += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            s += static_cast<char>(0x80 | (code & 0x3F));
        }
    }

    bool hex4(unsigned& code) {
        if (pos_ + 4 > text_.size()) return fail("short \\u escape");
        code = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = text_[pos_++];
            code <<= 4;
            if (c >= '0' && c <= '9') code |= static_cast<unsigned>(c - '0');
            else if (c >= 'a' && c <= 'f') code |= static_cast<unsigned>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') code |= static_cast<unsigned>(c - 'A' + 10);
            else return fail("bad \\u escape");
        }
        return true;
    }

    bool parse_string(std::string& out) {
        ++pos_;  // opening quote
        while (true) {
            if (pos_ >= text_.size()) return fail("unterminated string");
            const char c = text_[pos_++];
            if (c == '"') return true;
            if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos_ >= text_.size()) return fail("unterminated escape");
            const char e = text_[pos_++];
            switch (e) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    unsigned code;
                    if (!hex4(code)) return false;
                    if (code >= 0xD800 && code < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
                        pos_ += 2;
                        unsigned low;
                        if (!hex4(low)) return false;
                        if (low >= 0xDC00 && low < 0xE000) code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                    }
                    append_utf8(out, code);
                    break;
                }
                default: return fail(fmt::format("bad escape '\\{}'", e));
            }
        }
    }

    bool parse_array(Value& out, int depth) {
        ++pos_;
        Array items;
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == ']') {
            ++pos_;
            out = Value(std::move(items));
            return true;
        }
        while (true) {
            Value item;
            if (!parse_value(item, depth + 1)) return false;
            items.push_back(std::move(item));
            skip_space();
            if (pos_ >= text_.size()) return fail("unterminated array");
            if (text_[pos_] == ',') {
                ++pos_;
                continue;
            }
            if (text_[pos_] == ']') {
                ++pos_;
                out = Value(std::move(items));
                return true;
            }
            return fail("expected ',' or ']' in an array");
        }
    }

    bool parse_object(Value& out, int depth) {
        ++pos_;
        Object object;
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == '}') {
            ++pos_;
            out = Value(std::move(object));
            return true;
        }
        while (true) {
            skip_space();
            if (pos_ >= text_.size() || text_[pos_] != '"') return fail("expected a quoted key");
            std::string key;
            if (!parse_string(key)) return false;
            skip_space();
            if (pos_ >= text_.size() || text_[pos_] != ':') return fail("expected ':' after a key");
            ++pos_;
            Value value;
            if (!parse_value(value, depth + 1)) return false;
            object[key] = std::move(value);
            skip_space();
            if (pos_ >= text_.size()) return fail("unterminated object");
            if (text_[pos_] == ',') {
                ++pos_;
                continue;
            }
            if (text_[pos_] == '}') {
                ++pos_;
                out = Value(std::move(object));
                return true;
            }
            return fail("expected ',' or '}' in an object");
        }
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    std::string error_;
};

// ---------------------------------------------------------------------------------------------
// Writing

void write_string(std::string& out, const std::string& s) {
    out += '"';
    for (const char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
                else out += c;
        }
    }
    out += '"';
}

void write_value(std::string& out, const Value& value, bool pretty, int indent) {
    auto newline = [&](int level) {
        if (!pretty) return;
        out += '\n';
        out.append(static_cast<std::size_t>(2 * level), ' ');
    };
    if (value.is_null()) {
        out += "null";
    } else if (value.is_bool()) {
        out += value.as_bool() ? "true" : "false";
    } else if (value.is_integer()) {
        out += std::to_string(value.as_integer());
    } else if (value.is_number()) {
        const double number = value.as_number();
        // JSON has no infinity or NaN: write null, which readers take as "unknown".
        out += std::isfinite(number) ? fmt::format("{}", number) : "null";
    } else if (value.is_string()) {
        write_string(out, value.as_string());
    } else if (value.is_array()) {
        const Array& items = value.as_array();
        out += '[';
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (i) out += ',';
            newline(indent + 1);
            write_value(out, items[i], pretty, indent + 1);
        }
        if (!items.empty()) newline(indent);
        out += ']';
    } else {
        const Object& object = value.as_object();
        out += '{';
        bool first = true;
        for (const auto& [key, member] : object.members()) {
            if (!first) out += ',';
            first = false;
            newline(indent + 1);
            write_string(out, key);
            out += pretty ? ": " : ":";
            write_value(out, member, pretty, indent + 1);
        }
        if (object.size()) newline(indent);
        out += '}';
    }
}

}  // namespace

Expected<Value> parse(std::string_view text) { return Parser(text).document(); }

std::string write(const Value& value, bool pretty) {
    std::string out;
    write_value(out, value, pretty, 0);
    return out;
}

}  // namespace bge::arbiter::json
