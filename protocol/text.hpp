#pragma once
// Small text helpers shared by the protocol code.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"

namespace bge::protocol {

std::vector<std::string_view> split_words(std::string_view line);
std::string join_words(const std::vector<std::string_view>& words, std::size_t from, std::size_t to);
bool equals_ignoring_case(std::string_view a, std::string_view b);
// A whole decimal integer within [min, max]; `what` names it in the error.
Expected<std::int64_t> parse_integer(std::string_view text, std::int64_t min, std::int64_t max, std::string_view what);
// Shortens text for error messages.
std::string excerpt(std::string_view text, std::size_t limit = 60);

}  // namespace bge::protocol
