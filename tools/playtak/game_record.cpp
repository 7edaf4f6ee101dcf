#include "tools/playtak/game_record.hpp"

#include <cctype>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <fmt/format.h>

#include "core/tak/ptn_file.hpp"

namespace bge::playtak {

std::string timestamp_now() {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y.%m.%d %H:%M:%S", &local);
    return text;
}

std::string format_game_record(const GameRecordInfo& info) {
    const GameStart& start = info.start;
    tak::PtnGame game;
    game.start = tak::start_state(tak::Variant{start.size, start.half_komi, false});
    game.moves = info.moves;
    game.set_tag("Site", info.site);
    game.set_tag("Event", fmt::format("playtak game {}", start.game));
    const std::string date = info.started_at.substr(0, 10);
    game.set_tag("Date", date);
    if (info.started_at.size() > 11) game.set_tag("Time", info.started_at.substr(11));
    game.set_tag("Player1", start.white);
    game.set_tag("Player2", start.black);
    game.set_tag("Size", std::to_string(start.size));
    game.set_tag("Komi", tak::komi_text(start.half_komi));
    game.set_tag("Clock", fmt::format("{}:{:02} +{}", start.time_s / 60, start.time_s % 60, start.increment_s));
    const tak::Reserves standard = tak::reserves_for(start.size);
    game.set_tag("Flats", std::to_string(start.pieces > 0 ? start.pieces : standard.stones));
    game.set_tag("Caps", std::to_string(start.capstones >= 0 ? start.capstones : standard.caps));
    game.set_tag("Rated", start.unrated ? "no" : "yes");
    game.result = info.result.empty() ? "*" : info.result;
    game.set_tag("Result", game.result);
    if (!info.termination.empty()) game.set_tag("Termination", info.termination);
    return tak::write_ptn(game);
}

Expected<std::string> write_game_record(const std::string& directory, const GameRecordInfo& info) {
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error) return make_error(fmt::format("cannot create {}: {}", directory, error.message()));
    std::string stamp;
    for (char c : info.started_at)
        if (std::isdigit(static_cast<unsigned char>(c))) stamp += c;
    if (stamp.size() == 14) stamp.insert(8, "-");
    const std::string path =
        (std::filesystem::path(directory) / fmt::format("playtak-{}-{}.ptn", info.start.game, stamp)).string();
    std::ofstream out(path, std::ios::trunc);
    out << format_game_record(info);
    out.close();
    if (!out) return make_error(fmt::format("cannot write {}", path));
    return path;
}

}  // namespace bge::playtak
