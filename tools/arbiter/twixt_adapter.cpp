#include "tools/arbiter/twixt_adapter.hpp"

#include <fmt/format.h>

#include <cctype>

#include "core/game_record.hpp"
#include "tools/arbiter/move_record.hpp"

namespace bge::arbiter {

Expected<twixt::Variant> TwixtAdapter::make_variant(const MatchConfig& config) {
    twixt::Variant variant;
    variant.size = config.size.value_or(twixt::default_size);
    if (config.half_komi != 0) return make_error("-komi has no meaning in twixt");
    if (!config.rule.empty()) return make_error("-rule has no meaning in twixt");
    auto checked = twixt::check_variant(variant);
    if (!checked) return make_error(fmt::format("-size: {}", checked.error()));
    return variant;
}

std::string TwixtAdapter::variant_text(const twixt::Variant& v) { return fmt::format("{}x{}", v.size, v.size); }

Expected<OptionList> TwixtAdapter::rule_options(const twixt::Variant& variant, const EnginePlayer& player) {
    OptionList options;
    if (player.declares_option("BoardSize")) {
        options.emplace_back("BoardSize", std::to_string(variant.size));
        return options;
    }
    if (variant.size != twixt::default_size)
        return make_error(fmt::format("engine {} declares no BoardSize option, so it cannot play {}x{}", player.name(),
                                      variant.size, variant.size));
    return options;
}

std::string TwixtAdapter::new_game_command(protocol::Dialect dialect, const twixt::Variant& variant) {
    return dialect == protocol::Dialect::tei ? fmt::format("teinewgame {}", variant.size) : "uginewgame";
}

std::string TwixtAdapter::rule_phrase(const Outcome& outcome) {
    if (outcome.reason == "connection") return "by connecting its borders";
    if (outcome.reason == "no placement") return "with no placement left";
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

// Tags in [Name "value"], comments in {braces}, move numbers ("12.") skipped; a result token
// ends a game.
Expected<std::vector<RecordGame>> parse_records(std::string_view text) {
    std::vector<RecordGame> games;
    RecordGame current;
    bool in_game = false;
    auto finish = [&] {
        if (in_game) games.push_back(std::move(current));
        current = RecordGame{};
        in_game = false;
    };
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (c == '[') {
            if (in_game && !current.moves.empty()) finish();
            const std::size_t end = text.find(']', i);
            if (end == std::string_view::npos) return make_error("a tag has no closing ]");
            const std::string_view inside = text.substr(i + 1, end - i - 1);
            const std::size_t space = inside.find(' ');
            const std::size_t open = inside.find('"'), close = inside.rfind('"');
            if (space == std::string_view::npos || open == std::string_view::npos || close <= open)
                return make_error(fmt::format("bad tag [{}]", inside));
            current.tags.emplace_back(std::string(inside.substr(0, space)),
                                      std::string(inside.substr(open + 1, close - open - 1)));
            in_game = true;
            i = end + 1;
        } else if (c == '{') {
            const std::size_t end = text.find('}', i);
            if (end == std::string_view::npos) return make_error("a comment has no closing }");
            i = end + 1;
        } else {
            std::size_t end = i;
            while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) && text[end] != '{' &&
                   text[end] != '[')
                ++end;
            const std::string_view word = text.substr(i, end - i);
            i = end;
            in_game = true;
            if (word == "1-0" || word == "0-1" || word == "1/2-1/2" || word == "*")
                finish();
            else if (!(std::isdigit(static_cast<unsigned char>(word[0])) && word.back() == '.'))
                current.moves.emplace_back(word);
        }
    }
    finish();
    return games;
}

}  // namespace

Expected<std::vector<Opening<twixt::Twixt>>> TwixtAdapter::parse_record_openings(std::string_view text,
                                                                                 const twixt::Variant& variant) {
    auto games = parse_records(text);
    if (!games) return make_error(games.error());
    std::vector<Opening<twixt::Twixt>> openings;
    for (std::size_t g = 0; g < games->size(); ++g) {
        const RecordGame& game = (*games)[g];
        twixt::Variant size = variant;
        if (const std::string tag = game.tag("Size"); !tag.empty()) size.size = std::atoi(tag.c_str());
        if (size.size != variant.size)
            return make_error(fmt::format("game {}: a {}x{} game, but the match is {}x{}", g + 1, size.size, size.size,
                                          variant.size, variant.size));
        twixt::State start = twixt::start_state(variant);
        if (const std::string fen = game.tag("FEN"); !fen.empty()) {
            auto parsed = twixt::parse_position(fen, variant);
            if (!parsed) return make_error(fmt::format("game {}: FEN: {}", g + 1, parsed.error()));
            if (parsed->size != variant.size)
                return make_error(fmt::format("game {}: the FEN is not {}x{}", g + 1, variant.size, variant.size));
            start = *parsed;
        }
        GameRecord<twixt::Twixt> record(start);
        for (const std::string& move : game.moves)
            if (auto status = record.play_text(move); !status)
                return make_error(fmt::format("game {}: move '{}': {}", g + 1, move, status.error()));
        openings.push_back({record.start(), record.moves()});
    }
    return openings;
}

std::string TwixtAdapter::format_record(const PlayedGame<twixt::Twixt>& played, const RecordInfo& info) {
    const twixt::Variant variant = twixt::variant_of(played.start);
    const std::string result = twixt::result_text(played.end.outcome);
    RecordTags tags = {
        {"Game", "twixt"},   {"X", info.white},  // the first player, whom the arbiter calls White
        {"O", info.black},   {"Size", std::to_string(variant.size)},
        {"Date", info.date}, {"Round", std::to_string(info.round)},
        {"Result", result},  {"Termination", termination_tag(played.end)},
    };
    const std::string start = twixt::format_position(played.start);
    if (start != twixt::format_position(twixt::start_state(variant))) tags.emplace_back("FEN", start);
    return move_record_text(tags, played, result);
}

}  // namespace bge::arbiter
