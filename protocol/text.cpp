#include "protocol/text.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>

namespace bge::protocol {

std::vector<std::string_view> split_words(std::string_view line) {
    std::vector<std::string_view> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        const std::size_t start = i;
        while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        if (i > start) words.push_back(line.substr(start, i - start));
    }
    return words;
}

std::string join_words(const std::vector<std::string_view>& words, std::size_t from, std::size_t to) {
    std::string joined;
    for (std::size_t i = from; i < to && i < words.size(); ++i) {
        if (!joined.empty()) joined += ' ';
        joined += words[i];
    }
    return joined;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

Expected<std::int64_t> parse_integer(std::string_view text, std::int64_t min, std::int64_t max, std::string_view what) {
    std::int64_t value = 0;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    if (!text.empty() && text[0] == '+') ++begin;
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (text.empty() || ec != std::errc{} || ptr != end)
        return make_error(fmt::format("{} must be a whole number, got '{}'", what, excerpt(text)));
    if (value < min || value > max)
        return make_error(fmt::format("{} must be between {} and {}, got {}", what, min, max, value));
    return value;
}

std::string excerpt(std::string_view text, std::size_t limit) {
    if (text.size() <= limit) return std::string(text);
    return fmt::format("{}... ({} bytes)", text.substr(0, limit), text.size());
}

}  // namespace bge::protocol
