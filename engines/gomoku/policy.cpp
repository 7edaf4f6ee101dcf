#include "engines/gomoku/policy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

#include "engines/gomoku/board.hpp"
#include "engines/gomoku/nets/embedded.hpp"
#include "engines/gomoku/network.hpp"
#include "search/learning/named_weights.hpp"

namespace bge::gomoku::policy {

namespace {

constexpr std::string_view header = "bge-gomoku-policy 1";
constexpr int threat_kinds = 8;
constexpr int distances = 5;
constexpr int threats_offset = network::input_count;
constexpr int last_offset = threats_offset + threat_kinds * threat_kinds;
constexpr int total_features = last_offset + distances;

std::string class_name(int cell_class) {
    static constexpr const char* patterns[] = {"dead", "one", "two", "flex2", "three", "flex3", "four", "flex4", "five"};
    if (cell_class == 0) return "none";
    for (int strongest = 2; strongest <= 8; ++strongest)
        for (int second = 0; second <= strongest; ++second)
            if (cell_class_of(strongest, second) == cell_class)
                return std::string(patterns[strongest]) + "+" + patterns[second];
    return "?";
}

const std::vector<std::string>& names() {
    static const std::vector<std::string> all = [] {
        static constexpr const char* threats[] = {"none",        "flex3",       "four",  "double_three",
                                                  "four_three",  "double_four", "flex4", "five"};
        std::vector<std::string> list;
        for (int own = 0; own < network::shape_classes; ++own)
            for (int theirs = 0; theirs < network::shape_classes; ++theirs)
                list.push_back("cell:" + class_name(own) + ":" + class_name(theirs));
        for (int own = 0; own < threat_kinds; ++own)
            for (int theirs = 0; theirs < threat_kinds; ++theirs)
                list.push_back(std::string("threats:") + threats[own] + ":" + threats[theirs]);
        for (int d = 1; d <= distances; ++d) list.push_back(fmt::format("last:{}", d));
        return list;
    }();
    return all;
}

template <class Add>
void for_each_feature(const SearchBoard& b, int square, Add&& add) {
    const int me = index_of(b.side_to_move());
    add(network::input_of(b.shape_class(square, me), b.shape_class(square, 1 - me)));
    const auto cell = static_cast<std::size_t>(square);
    add(threats_offset + b.threat[static_cast<std::size_t>(me)][cell] * threat_kinds +
        b.threat[static_cast<std::size_t>(1 - me)][cell]);
    int distance = distances;
    if (b.rules.last != 0)
        distance = std::min(distances, std::max(std::abs(x_of(square) - x_of(b.rules.last)),
                                                std::abs(y_of(square) - y_of(b.rules.last))));
    add(last_offset + std::max(distance, 1) - 1);
}

}  // namespace

int feature_count() { return total_features; }
std::string feature_name(int index) { return names()[static_cast<std::size_t>(index)]; }

void move_features(const SearchBoard& board, int square, std::vector<std::uint16_t>& out) {
    out.clear();
    for_each_feature(board, square, [&](int index) { out.push_back(static_cast<std::uint16_t>(index)); });
}

float Policy::logit(const SearchBoard& board, int square) const {
    float sum = 0;
    for_each_feature(board, square, [&](int index) { sum += weights_[static_cast<std::size_t>(index)]; });
    return sum;
}

Expected<Policy> Policy::parse(std::string_view text) {
    auto weights = search::learning::parse_named_weights(text, header, names(), "policy");
    if (!weights) return make_error(weights.error());
    return Policy(std::move(*weights));
}

Expected<Policy> Policy::load(const std::string& path) {
    auto weights = search::learning::load_named_weights(path, header, names(), "policy");
    if (!weights) return make_error(weights.error());
    return Policy(std::move(*weights));
}

std::string Policy::format(std::string_view comment) const {
    return search::learning::format_named_weights(header, comment, names(), weights_);
}

const Policy* builtin_policy(Rule rule) {
    static const std::array<std::optional<Policy>, 3> policies = [] {
        std::array<std::optional<Policy>, 3> loaded;
        for (const auto& file : nets::embedded_files()) {
            if (!file.name.ends_with(".policy")) continue;
            // A shipped file that does not load is a build defect; tests check every one.
            const auto for_rule = parse_rule(file.name.substr(0, file.name.size() - 7));
            auto parsed = Policy::parse(file.bytes);
            if (for_rule && parsed) loaded[static_cast<std::size_t>(*for_rule)] = std::move(*parsed);
        }
        return loaded;
    }();
    const auto& policy = policies[static_cast<std::size_t>(rule)];
    return policy ? &*policy : nullptr;
}

}  // namespace bge::gomoku::policy
