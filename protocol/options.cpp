#include "protocol/options.hpp"

#include <fmt/format.h>

#include <limits>
#include <optional>
#include <stdexcept>

#include "protocol/text.hpp"

namespace bge::protocol {

std::int64_t Option::as_integer() const {
    std::int64_t result = 0;
    for (std::size_t i = value[0] == '-' ? 1 : 0; i < value.size(); ++i) result = result * 10 + (value[i] - '0');
    return !value.empty() && value[0] == '-' ? -result : result;
}

std::string Option::declaration() const {
    switch (type) {
        case OptionType::spin:
            return fmt::format("option name {} type spin default {} min {} max {}", name, default_value, min, max);
        case OptionType::check:
            return fmt::format("option name {} type check default {}", name, default_value);
        case OptionType::combo: {
            std::string line = fmt::format("option name {} type combo default {}", name, default_value);
            for (const auto& choice : choices) line += " var " + choice;
            return line;
        }
        case OptionType::string:
            return fmt::format("option name {} type string default {}", name,
                               default_value.empty() ? "<empty>" : default_value);
        case OptionType::button:
            return fmt::format("option name {} type button", name);
    }
    return {};
}

Expected<Option> parse_option_declaration(std::string_view line) {
    const auto words = split_words(line);
    if (words.size() < 5 || words[0] != "option" || words[1] != "name")
        return Error{"not an 'option name ... type ...' line"};
    std::size_t type_at = 2;
    while (type_at < words.size() && words[type_at] != "type") ++type_at;
    if (type_at == 2 || type_at + 1 >= words.size()) return Error{"an option declaration needs a name and a type"};
    Option option;
    option.name = join_words(words, 2, type_at);
    const std::string_view type = words[type_at + 1];
    if (type == "spin") option.type = OptionType::spin;
    else if (type == "check") option.type = OptionType::check;
    else if (type == "combo") option.type = OptionType::combo;
    else if (type == "string") option.type = OptionType::string;
    else if (type == "button") option.type = OptionType::button;
    else return Error{fmt::format("option {}: unknown type '{}'", option.name, type)};
    // The fields after the type: each keyword takes the words up to the next keyword.
    std::optional<std::string> min, max;
    for (std::size_t i = type_at + 2; i < words.size();) {
        const std::string_view key = words[i];
        if (key != "default" && key != "min" && key != "max" && key != "var")
            return Error{fmt::format("option {}: unexpected '{}'", option.name, key)};
        std::size_t end = i + 1;
        while (end < words.size() && words[end] != "default" && words[end] != "min" && words[end] != "max" &&
               words[end] != "var")
            ++end;
        std::string value = join_words(words, i + 1, end);
        if (key == "default") option.default_value = std::move(value);
        else if (key == "min") min = std::move(value);
        else if (key == "max") max = std::move(value);
        else option.choices.push_back(std::move(value));
        i = end;
    }
    if (option.type == OptionType::string && option.default_value == "<empty>") option.default_value.clear();
    if (option.type == OptionType::spin) {
        if (!min || !max) return Error{fmt::format("option {}: a spin needs min and max", option.name)};
        constexpr std::int64_t limit = std::numeric_limits<std::int64_t>::max() / 2;
        auto low = parse_integer(*min, -limit, limit, "min");
        auto high = parse_integer(*max, -limit, limit, "max");
        auto initial = parse_integer(option.default_value, -limit, limit, "default");
        if (!low || !high || !initial || *low > *high)
            return Error{fmt::format("option {}: a spin needs whole numbers with min <= max", option.name)};
        option.min = *low;
        option.max = *high;
    }
    if (option.type == OptionType::check && option.default_value != "true" && option.default_value != "false")
        return Error{fmt::format("option {}: a check's default is true or false", option.name)};
    option.value = option.default_value;
    return option;
}

const Option* find_option(const std::vector<Option>& options, std::string_view name) {
    for (const Option& option : options)
        if (equals_ignoring_case(option.name, name)) return &option;
    return nullptr;
}

Option& OptionRegistry::add(Option option) {
    if (find(option.name)) throw std::logic_error("option declared twice: " + option.name);
    option.value = option.default_value;
    options_.push_back(std::move(option));
    return options_.back();
}

Option& OptionRegistry::add_spin(std::string name, std::int64_t default_value, std::int64_t min, std::int64_t max,
                                 std::string help) {
    Option o;
    o.name = std::move(name);
    o.type = OptionType::spin;
    o.default_value = std::to_string(default_value);
    o.min = min;
    o.max = max;
    o.help = std::move(help);
    return add(std::move(o));
}

Option& OptionRegistry::add_check(std::string name, bool default_value, std::string help) {
    Option o;
    o.name = std::move(name);
    o.type = OptionType::check;
    o.default_value = default_value ? "true" : "false";
    o.help = std::move(help);
    return add(std::move(o));
}

Option& OptionRegistry::add_combo(std::string name, std::string default_value, std::vector<std::string> choices,
                                  std::string help) {
    Option o;
    o.name = std::move(name);
    o.type = OptionType::combo;
    o.default_value = std::move(default_value);
    o.choices = std::move(choices);
    o.help = std::move(help);
    return add(std::move(o));
}

Option& OptionRegistry::add_string(std::string name, std::string default_value, std::string help) {
    Option o;
    o.name = std::move(name);
    o.type = OptionType::string;
    o.default_value = std::move(default_value);
    o.help = std::move(help);
    return add(std::move(o));
}

Option& OptionRegistry::add_button(std::string name, std::string help) {
    Option o;
    o.name = std::move(name);
    o.type = OptionType::button;
    o.help = std::move(help);
    return add(std::move(o));
}

const Option* OptionRegistry::find(std::string_view name) const {
    for (const auto& option : options_)
        if (equals_ignoring_case(option.name, name)) return &option;
    return nullptr;
}

Option* OptionRegistry::find_mutable(std::string_view name) {
    for (auto& option : options_)
        if (equals_ignoring_case(option.name, name)) return &option;
    return nullptr;
}

Expected<std::string> OptionRegistry::validate(const Option& option, std::string_view value) const {
    switch (option.type) {
        case OptionType::spin: {
            auto number = parse_integer(value, option.min, option.max, fmt::format("option {}", option.name));
            if (!number) return make_error(number.error());
            if (option.accept)
                if (auto accepted = option.accept(*number); !accepted) return make_error(accepted.error());
            return std::to_string(*number);
        }
        case OptionType::check:
            if (equals_ignoring_case(value, "true")) return std::string("true");
            if (equals_ignoring_case(value, "false")) return std::string("false");
            return make_error(fmt::format("option {} takes true or false, got '{}'", option.name, excerpt(value)));
        case OptionType::combo:
            for (const auto& choice : option.choices)
                if (equals_ignoring_case(choice, value)) return choice;
            {
                std::string allowed;
                for (const auto& choice : option.choices) allowed += (allowed.empty() ? "" : ", ") + choice;
                return make_error(fmt::format("option {} has no value '{}'; choose one of: {}", option.name,
                                              excerpt(value), allowed));
            }
        case OptionType::string:
            return std::string(value == "<empty>" ? std::string_view{} : value);
        case OptionType::button:
            return std::string();
    }
    return make_error("unknown option type");
}

Status OptionRegistry::assign(std::string_view name, std::string_view value) {
    Option* option = find_mutable(name);
    if (!option) return make_error(fmt::format("no option named '{}'", excerpt(name)));
    auto checked = validate(*option, value);
    if (!checked) return make_error(checked.error());
    option->value = *checked;
    return success();
}

Status OptionRegistry::set(std::string_view name, std::string_view value) {
    auto status = assign(name, value);
    if (!status) return status;
    Option* option = find_mutable(name);
    if (option->on_change) option->on_change(*option);
    return success();
}

std::int64_t OptionRegistry::integer(std::string_view name) const {
    const Option* option = find(name);
    return option ? option->as_integer() : 0;
}

bool OptionRegistry::boolean(std::string_view name) const {
    const Option* option = find(name);
    return option && option->as_bool();
}

const std::string& OptionRegistry::text(std::string_view name) const {
    static const std::string empty;
    const Option* option = find(name);
    return option ? option->value : empty;
}

}  // namespace bge::protocol
