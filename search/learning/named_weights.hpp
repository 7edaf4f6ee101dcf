#pragma once
// A linear model's weights as text, written once for every game's move policy: a header line
// that names the format, then one "<feature name> <weight>" line per feature; blank lines and
// lines starting with # are ignored, and a feature the file does not name weighs 0. A trainer
// writes it, the engine embeds it, and a person can read and diff it.

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"

namespace bge::search::learning {

// `what` names the file in errors ("policy line 3: ...").
inline Expected<std::vector<float>> parse_named_weights(std::string_view text, std::string_view header,
                                                        const std::vector<std::string>& names, std::string_view what) {
    std::map<std::string, std::size_t, std::less<>> by_name;
    for (std::size_t i = 0; i < names.size(); ++i) by_name[names[i]] = i;
    std::vector<float> weights(names.size(), 0.0f);
    std::istringstream lines{std::string(text)};
    std::string line;
    int number = 0;
    bool header_seen = false;
    while (std::getline(lines, line)) {
        ++number;
        if (line.empty() || line[0] == '#') continue;
        if (!header_seen) {
            if (line != header) return make_error(fmt::format("{} line {}: expected '{}'", what, number, header));
            header_seen = true;
            continue;
        }
        std::istringstream words(line);
        std::string name, rest;
        double weight = 0;
        if (!(words >> name >> weight) || (words >> rest) || !std::isfinite(weight))
            return make_error(fmt::format("{} line {}: expected '<feature> <weight>', got '{}'", what, number, line));
        const auto found = by_name.find(name);
        if (found == by_name.end()) return make_error(fmt::format("{} line {}: no feature '{}'", what, number, name));
        weights[found->second] = static_cast<float>(weight);
    }
    if (!header_seen) return make_error(fmt::format("not a {} file (no '{}' line)", what, header));
    return weights;
}

// The same from a file; errors name it.
inline Expected<std::vector<float>> load_named_weights(const std::string& path, std::string_view header,
                                                       const std::vector<std::string>& names, std::string_view what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(fmt::format("cannot read the {} file '{}'", what, path));
    std::ostringstream text;
    text << in.rdbuf();
    auto weights = parse_named_weights(text.str(), header, names, what);
    if (!weights) return make_error(fmt::format("{}: {}", path, weights.error()));
    return weights;
}

inline std::string format_named_weights(std::string_view header, std::string_view comment,
                                        const std::vector<std::string>& names, const std::vector<float>& weights) {
    std::string text = fmt::format("{}\n", header);
    if (!comment.empty()) text += fmt::format("# {}\n", comment);
    for (std::size_t i = 0; i < names.size(); ++i) text += fmt::format("{} {:.6f}\n", names[i], weights[i]);
    return text;
}

}  // namespace bge::search::learning
