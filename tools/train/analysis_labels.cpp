#include "tools/train/analysis_labels.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "protocol/text.hpp"
#include "tools/arbiter/json.hpp"

namespace bge::train {

namespace json = arbiter::json;

Expected<std::vector<LabelledGame>> read_labelled_games(const std::vector<std::string>& paths) {
    std::vector<LabelledGame> games;
    std::map<std::pair<std::string, int>, std::size_t> index;  // (file, game) -> games[i]
    for (const std::string& path : paths) {
        std::ifstream in(path, std::ios::binary);
        if (!in) return make_error(fmt::format("{}: cannot read the file", path));
        std::string line;
        for (int number = 1; std::getline(in, line); ++number) {
            if (line.empty()) continue;
            auto value = json::parse(line);
            if (!value) return make_error(fmt::format("{}, line {}: {}", path, number, value.error()));
            const auto game = json::small_integer(*value, "game"), ply = json::small_integer(*value, "ply");
            const std::string& file = json::text(*value, "file");
            const std::string& position = json::text(*value, "position");
            if (!game || !ply || *ply < 0 || file.empty() || position.empty())
                return make_error(fmt::format("{}, line {}: not a line of `arbiter analyse` (file, game, ply, position)",
                                              path, number));
            auto [found, added] = index.try_emplace({file, *game}, games.size());
            if (added) {
                LabelledGame labelled;
                labelled.file = file;
                labelled.game = *game;
                labelled.variant = json::text(*value, "variant");
                labelled.outcome = json::text(*value, "outcome");
                labelled.engine = json::text(*value, "engine");
                games.push_back(std::move(labelled));
            }
            LabelledPosition labelled;
            labelled.ply = *ply;
            labelled.position = position;
            labelled.played = json::text(*value, "played");
            labelled.best = json::text(*value, "best");
            labelled.score_cp = json::small_integer(*value, "score_cp");
            labelled.mate = json::small_integer(*value, "mate");
            games[found->second].positions.push_back(std::move(labelled));
        }
    }
    for (LabelledGame& game : games) {
        auto& positions = game.positions;
        std::sort(positions.begin(), positions.end(), [](const auto& a, const auto& b) { return a.ply < b.ply; });
        // A shard run twice or two datasets of the same records: one line per ply.
        positions.erase(std::unique(positions.begin(), positions.end(),
                                    [](const auto& a, const auto& b) { return a.ply == b.ply; }),
                        positions.end());
        std::size_t consecutive = 0;
        while (consecutive < positions.size() && positions[consecutive].ply == positions.front().ply +
                                                                                   static_cast<int>(consecutive))
            ++consecutive;
        positions.resize(consecutive);
    }
    return games;
}

Expected<TeacherScale> TeacherScale::parse(std::string_view text) {
    TeacherScale scale;
    if (text == "tiltak") {
        scale.linear_ = true;
        return scale;
    }
    if (text.starts_with("logistic:")) {
        const std::string number(text.substr(9));
        char* end = nullptr;
        const double value = std::strtod(number.c_str(), &end);
        if (!number.empty() && end == number.c_str() + number.size() && value > 0 && std::isfinite(value)) {
            scale.scale_ = value;
            return scale;
        }
    }
    return make_error(fmt::format("teacher scale '{}': expected tiltak or logistic:S with S > 0 (e.g. logistic:200)", text));
}

double TeacherScale::expected_score(int score_cp, std::optional<int> mate) const {
    if (mate) return *mate > 0 ? 1.0 : 0.0;
    if (linear_) return std::clamp((score_cp + 100.0) / 200.0, 0.0, 1.0);
    return 1.0 / (1.0 + std::exp(-score_cp / scale_));
}

std::int16_t TeacherScale::training_score(int score_cp, std::optional<int> mate, double scale) const {
    const double p = std::clamp(expected_score(score_cp, mate), 1e-4, 1 - 1e-4);
    return static_cast<std::int16_t>(std::clamp(std::lround(scale * std::log(p / (1 - p))), -30000L, 30000L));
}

}  // namespace bge::train
