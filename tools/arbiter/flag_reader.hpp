#pragma once
// Reads the flags of the arbiter's subcommands (book, analyse) one word at a time: `-flag value`,
// and the key=value words after -engine.

#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/expected.hpp"
#include "protocol/text.hpp"
#include "tools/arbiter/command_line.hpp"

namespace bge::arbiter {

class FlagReader {
public:
    explicit FlagReader(const std::vector<std::string>& arguments) : arguments_(arguments) {}
    bool done() const { return position_ >= arguments_.size(); }
    const std::string& take() { return arguments_[position_++]; }

    // A flag's value is the next word, even if it starts with a dash (-komi -1.5).
    Expected<std::string> value_of(const std::string& flag) {
        if (done()) return make_error(fmt::format("{} needs a value", flag));
        return take();
    }
    Expected<std::int64_t> integer_of(const std::string& flag, std::int64_t min, std::int64_t max) {
        auto text = value_of(flag);
        if (!text) return make_error(text.error());
        auto value = protocol::parse_integer(*text, min, max, flag);
        if (!value) return make_error(value.error());
        return *value;
    }
    // The key=value words after -engine, up to the next flag.
    std::vector<std::string> words() {
        std::vector<std::string> words;
        while (!done() && !arguments_[position_].starts_with('-')) words.push_back(take());
        return words;
    }
    // The same, for a command line that has file names after its flags: a word without '='
    // ends them too (every engine setting is key=value).
    std::vector<std::string> settings() {
        std::vector<std::string> words;
        while (!done() && !arguments_[position_].starts_with('-') && arguments_[position_].find('=') != std::string::npos)
            words.push_back(take());
        return words;
    }

private:
    const std::vector<std::string>& arguments_;
    std::size_t position_ = 0;
};

// The game and variant flags of a match (-game, -size, -komi, -rule, -ruleset, -pieces), read
// into `rules` as a match reads them (the game adapter checks the values): true when `flag` was
// one of them.
inline Expected<bool> read_variant_flag(FlagReader& reader, const std::string& flag, MatchConfig& rules) {
    if (flag == "-size" || flag == "-pieces") {
        auto value = reader.integer_of(flag, 1, flag == "-size" ? 1000 : 7);
        if (!value) return make_error(value.error());
        (flag == "-size" ? rules.size.emplace() : rules.pieces) = static_cast<int>(*value);
        return true;
    }
    if (flag != "-game" && flag != "-komi" && flag != "-rule" && flag != "-ruleset") return false;
    auto value = reader.value_of(flag);
    if (!value) return make_error(value.error());
    if (flag == "-komi") {
        auto half = parse_half_points(*value);
        if (!half) return make_error(half.error());
        rules.half_komi = *half;
    } else {
        if (value->empty()) return make_error(fmt::format("{} needs a value", flag));
        (flag == "-game" ? rules.game : flag == "-rule" ? rules.rule : rules.ruleset) = *value;
    }
    return true;
}

}  // namespace bge::arbiter
