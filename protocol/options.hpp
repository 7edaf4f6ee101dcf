#pragma once
// Engine options as UCI/TEI/UGI declare them (`option name X type spin default D min A max B`)
// and `setoption` changes them. Options carry change callbacks, as in Stockfish. Names match
// case-insensitively. A value out of range or of the wrong kind is refused and nothing changes.

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"

namespace bge::protocol {

enum class OptionType { spin, check, combo, string, button };

struct Option {
    std::string name;
    OptionType type = OptionType::string;
    std::string default_value;
    std::int64_t min = 0;
    std::int64_t max = 0;
    std::vector<std::string> choices;  // combo
    std::string value;
    std::string help;  // one line for `help` and the docs
    std::function<void(const Option&)> on_change;
    // A spin's own check beyond its range (Hash against the machine's memory): an error refuses
    // the value, as an out-of-range one is.
    std::function<Status(std::int64_t)> accept;

    std::int64_t as_integer() const;
    bool as_bool() const { return value == "true"; }
    std::string declaration() const;  // the `option name ...` line
};

// The option an engine declares in an `option name X type spin default D min A max B` line (as
// a GUI reads it): the name may have spaces, a combo lists its `var`s, a string default may be
// `<empty>`. A line of another shape, an unknown type or a spin without numbers is an error.
Expected<Option> parse_option_declaration(std::string_view line);
// The option of that name (any case) among an engine's declared ones, or nullptr.
const Option* find_option(const std::vector<Option>& options, std::string_view name);

class OptionRegistry {
public:
    Option& add_spin(std::string name, std::int64_t default_value, std::int64_t min, std::int64_t max,
                     std::string help);
    Option& add_check(std::string name, bool default_value, std::string help);
    Option& add_combo(std::string name, std::string default_value, std::vector<std::string> choices, std::string help);
    Option& add_string(std::string name, std::string default_value, std::string help);
    Option& add_button(std::string name, std::string help);

    // `setoption name <name> value <value>` after parsing; value is empty for buttons.
    Status set(std::string_view name, std::string_view value);
    // Sets without callbacks (used when the protocol itself changes a value, e.g. teinewgame).
    Status assign(std::string_view name, std::string_view value);

    const Option* find(std::string_view name) const;
    std::int64_t integer(std::string_view name) const;
    bool boolean(std::string_view name) const;
    const std::string& text(std::string_view name) const;
    const std::deque<Option>& all() const { return options_; }

private:
    Option& add(Option option);
    Option* find_mutable(std::string_view name);
    Expected<std::string> validate(const Option& option, std::string_view value) const;
    std::deque<Option> options_;  // a deque keeps references from add_* valid
};

}  // namespace bge::protocol
