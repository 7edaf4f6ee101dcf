#include "tools/arbiter/ur_adapter.hpp"

#include <cctype>

#include <fmt/format.h>

#include "core/game_record.hpp"
#include "tools/arbiter/move_record.hpp"

namespace bge::arbiter {

Expected<ur::Variant> UrAdapter::make_variant(const MatchConfig& config) {
    if (config.size) return make_error("-size: ur has one board");
    if (config.half_komi != 0) return make_error("-komi has no meaning in ur");
    if (!config.rule.empty()) return make_error("-rule is gomoku's; ur uses -ruleset finkel|masters|blitz");
    ur::Variant variant;
    if (config.ruleset.empty() || config.ruleset == "finkel")
        variant.ruleset = ur::Ruleset::finkel;
    else if (config.ruleset == "masters")
        variant.ruleset = ur::Ruleset::masters;
    else if (config.ruleset == "blitz")
        variant.ruleset = ur::Ruleset::blitz;
    else
        return make_error(fmt::format("-ruleset {}: expected finkel, masters or blitz", config.ruleset));
    variant.pieces = config.pieces;
    auto resolved = ur::resolve_variant(variant);
    if (!resolved) return make_error(fmt::format("-pieces: {}", resolved.error()));
    return *resolved;
}

std::string UrAdapter::variant_text(const ur::Variant& variant) {
    return fmt::format("{}, {} pieces", ur::ruleset_name(variant.ruleset), variant.pieces);
}

Expected<OptionList> UrAdapter::rule_options(const ur::Variant& variant, const EnginePlayer& player) {
    OptionList options;
    const bool standard = variant == ur::Variant{};
    for (const char* name : {"Ruleset", "Pieces"}) {
        if (!player.declares_option(name)) {
            if (!standard)
                return make_error(fmt::format("engine {} declares no {} option, so it cannot play {}", player.name(),
                                              name, variant_text(variant)));
            continue;
        }
        options.emplace_back(name, name == std::string_view("Ruleset") ? std::string(ur::ruleset_name(variant.ruleset))
                                                                       : std::to_string(variant.pieces));
    }
    return options;
}

std::string UrAdapter::new_game_command(protocol::Dialect dialect, const ur::Variant&) {
    return dialect == protocol::Dialect::tei ? "teinewgame" : "uginewgame";
}

std::string UrAdapter::rule_phrase(const Outcome& outcome) {
    if (outcome.reason == "all pieces borne off") return "by bearing off every piece";
    return fmt::format("by {}", outcome.reason);
}

namespace {

struct RecordGame {
    std::vector<std::pair<std::string, std::string>> tags;
    std::vector<std::string> moves;
    std::string tag(std::string_view name) const {
        for (const auto& [key, value] : tags)
            if (key == name) return value;
        return {};
    }
};

// Tags `[Name "value"]`, then move words; `{...}` comments and result tokens are skipped.
Expected<std::vector<RecordGame>> parse_records(std::string_view text) {
    std::vector<RecordGame> games;
    RecordGame current;
    bool in_moves = false, any = false;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (c == '[') {
            if (in_moves) {
                games.push_back(std::move(current));
                current = RecordGame{};
                in_moves = false;
            }
            const std::size_t end = text.find(']', i);
            if (end == std::string_view::npos) return make_error("a tag without ']'");
            const std::string_view inside = text.substr(i + 1, end - i - 1);
            const std::size_t space = inside.find(' ');
            const std::size_t open = inside.find('"'), close = inside.rfind('"');
            if (space == std::string_view::npos || open == std::string_view::npos || close <= open)
                return make_error(fmt::format("bad tag [{}]", inside));
            current.tags.emplace_back(std::string(inside.substr(0, space)),
                                      std::string(inside.substr(open + 1, close - open - 1)));
            any = true;
            i = end + 1;
        } else if (c == '{') {
            const std::size_t end = text.find('}', i);
            if (end == std::string_view::npos) return make_error("a comment without '}'");
            i = end + 1;
        } else {
            std::size_t end = i;
            while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) && text[end] != '{') ++end;
            const std::string word(text.substr(i, end - i));
            if (word != "1-0" && word != "0-1" && word != "*") current.moves.push_back(word);
            in_moves = any = true;
            i = end;
        }
    }
    if (any) games.push_back(std::move(current));
    return games;
}

}  // namespace

Expected<std::vector<Opening<ur::Ur>>> UrAdapter::parse_record_openings(std::string_view text,
                                                                        const ur::Variant& variant) {
    auto games = parse_records(text);
    if (!games) return make_error(games.error());
    std::vector<Opening<Game>> openings;
    for (std::size_t g = 0; g < games->size(); ++g) {
        const RecordGame& game = (*games)[g];
        ur::State start = ur::start_state(variant);
        if (const std::string fen = game.tag("FEN"); !fen.empty()) {
            auto parsed = ur::parse_position(variant, fen);
            if (!parsed) return make_error(fmt::format("game {}: FEN: {}", g + 1, parsed.error()));
            start = *parsed;
        }
        GameRecord<Game> record(start);
        for (const std::string& move : game.moves)
            if (auto status = record.play_text(move); !status)
                return make_error(fmt::format("game {}: move '{}': {}", g + 1, move, status.error()));
        openings.push_back({start, record.moves()});
    }
    return openings;
}

std::string UrAdapter::format_record(const PlayedGame<ur::Ur>& played, const RecordInfo& info) {
    const ur::Variant variant = played.start.variant();
    const std::string result = ur::result_text(played.end.outcome);
    std::string text;
    auto tag = [&](std::string_view name, std::string_view value) {
        text += fmt::format("[{} \"{}\"]\n", name, escape_tag_value(value));
    };
    tag("Game", "ur");
    tag("Light", info.white);
    tag("Dark", info.black);
    tag("Date", info.date);
    tag("Round", std::to_string(info.round));
    tag("Ruleset", ur::ruleset_name(variant.ruleset));
    tag("Pieces", std::to_string(variant.pieces));
    if (played.start != ur::start_state(variant)) tag("FEN", ur::format_position(played.start));
    tag("Result", result);
    tag("Termination", termination_tag(played.end));
    text += '\n';
    ur::State position = played.start;
    std::string line;
    for (const auto& move : played.moves) {
        const std::string word = ur::format_move(position, move);
        if (!line.empty() && line.size() + word.size() + 1 > 100) {
            text += line + '\n';
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        ur::play(position, move);
    }
    line += (line.empty() ? "" : " ") + result;
    text += line + "\n\n";
    return text;
}

}  // namespace bge::arbiter
