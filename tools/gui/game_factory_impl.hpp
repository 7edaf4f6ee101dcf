#pragma once
// GameFactory for one game's view: included only by the factory_<game>.cpp files.

#include <random>

#include <fmt/format.h>

#include "tools/arbiter/match.hpp"
#include "tools/gui/analysis_board.hpp"
#include "tools/gui/feed_replay.hpp"
#include "tools/gui/game_factory.hpp"
#include "tools/gui/match_watch.hpp"
#include "tools/gui/play_table.hpp"

namespace bge::gui {

template <class View>
class GameFactoryFor : public GameFactory {
public:
    using A = typename View::Adapter;
    using G = typename A::Game;

    Expected<std::shared_ptr<Session>> new_game(std::int64_t id, const Json& request,
                                                const std::vector<EngineEntry>& engines,
                                                EngineOptionsCache& engine_options) const override {
        auto variant = variant_from_settings<View>(json::member(request, "variant"));
        if (!variant) return make_error(variant.error());
        auto start = start_position(*variant, json::member(request, "position"));
        if (!start) return make_error(start.error());
        // A field of the wrong type is refused (null counts as absent), never taken as absent.
        std::optional<arbiter::TimeControl> time_control;
        auto tc = optional_text(request, "tc");
        if (!tc) return make_error(tc.error());
        if (!tc->empty()) {
            auto parsed = arbiter::parse_time_control(*tc);
            if (!parsed) return make_error(parsed.error());
            if (!parsed->infinite) time_control = *parsed;
        }
        const Json& limit = json::member(request, "limit");
        if (!limit.is_null() && !limit.is_object()) return make_error("limit must be an object");
        auto movetime = optional_integer(limit, "movetime", 1, 3'600'000);
        auto depth = optional_integer(limit, "depth", 1, 200);
        auto nodes = optional_integer(limit, "nodes", 1, 1'000'000'000'000LL);
        for (const auto* checked : {&movetime, &depth, &nodes})
            if (!*checked) return make_error(checked->error());
        // An engine on a clock spends the clock's time; a fixed move time beside it would leave the
        // clock untouched (the engine gets `go movetime` and is never charged).
        if (time_control && movetime->has_value())
            return make_error("a clock and a fixed move time exclude each other: engines on a clock plan their own "
                              "time; clear one of the two");
        const Json& players = json::items(request, "players");
        if (players.size() != 2) return make_error("players must name the two seats: \"person\" or an engine's name");
        const Json& seat_options = json::member(request, "options");
        if (!seat_options.is_null() && !(seat_options.is_array() && seat_options.size() == 2))
            return make_error("options must be a list of two: each seat's engine options");
        std::array<SeatConfig, 2> seats;
        for (int i = 0; i < 2; ++i) {
            const Json& player = players[static_cast<std::size_t>(i)];
            if (!player.is_string())
                return make_error("players must name the two seats: \"person\" or an engine's name");
            const std::string& name = player.get_ref<const std::string&>();
            if (name == "person") {
                seats[i].name = "person";
                continue;
            }
            const EngineEntry* entry = nullptr;
            for (const EngineEntry& candidate : engines)
                if (candidate.config.name == name) entry = &candidate;
            if (!entry) return make_error(fmt::format("no engine named '{}' was given to the GUI", clipped(name)));
            if (entry->game != View::game)
                return make_error(fmt::format("engine '{}' plays {}, not {}", name, entry->game, View::game));
            auto configured = engine_options.configure(
                *entry, entry->config.dialect.value_or(A::default_dialect),
                seat_options.is_array() ? seat_options[static_cast<std::size_t>(i)] : Json(), A::rule_option_names,
                /*may_ask=*/false);
            if (!configured) return make_error(configured.error());
            arbiter::EngineConfig config = std::move(*configured);
            if (time_control) {
                config.time_control = time_control;
                config.move_time_ms.reset();
            }
            if (movetime->has_value()) config.move_time_ms = **movetime;
            if (depth->has_value()) config.depth = static_cast<int>(**depth);
            if (nodes->has_value()) config.nodes = **nodes;
            // Every engine needs a limit, as in a match: without one it gets a second a move.
            if (!config.has_clock() && !config.depth && !config.nodes) config.move_time_ms = 1000;
            // Without a clock, a fixed move time is what the engine is asked to spend, not a clock
            // to lose on: engines overrun it by tens of milliseconds (process start-up, their own
            // time checks). Only one that overruns it by a second, or by the move time itself if
            // longer, has stopped answering and loses.
            if (!time_control && config.move_time_ms)
                config.time_margin_ms = std::max(config.time_margin_ms, std::max<std::int64_t>(1000, *config.move_time_ms));
            seats[i].engine = std::move(config);
            seats[i].name = name;
        }
        auto given_seed = optional_integer(request, "seed", 0, std::numeric_limits<std::int64_t>::max());
        if (!given_seed) return make_error(given_seed.error());
        const std::uint64_t seed =
            given_seed->has_value() ? static_cast<std::uint64_t>(**given_seed) : std::random_device{}();
        return std::shared_ptr<Session>(
            std::make_shared<PlayTable<View>>(id, G::variant_of(*start), *start, std::move(seats), time_control, seed));
    }

    Expected<std::shared_ptr<Session>> new_analysis(std::int64_t id, const Json& request,
                                                    const std::vector<EngineEntry>& engines,
                                                    std::shared_ptr<EngineOptionsCache> engine_options) const override {
        RecordLine<G> line;
        const bool from_record = json::text(request, "type") == "load_record";
        if (from_record) {
            auto index = optional_integer(request, "index", 0, 1'000'000);
            if (!index) return make_error(index.error());
            auto text = optional_text(request, "text");
            if (!text) return make_error(text.error());
            auto read = View::read_record(*text, static_cast<std::size_t>(index->value_or(0)));
            if (!read) return make_error(fmt::format("the record: {}", read.error()));
            line = std::move(*read);
        } else {
            auto variant = variant_from_settings<View>(json::member(request, "variant"));
            if (!variant) return make_error(variant.error());
            auto start = start_position(*variant, json::member(request, "position"));
            if (!start) return make_error(start.error());
            auto moves = optional_text(request, "moves");
            if (!moves) return make_error(moves.error());
            line.variant = G::variant_of(*start);
            line.start = *start;
            GameRecord<G> record(*start);
            for (std::string_view word : protocol::split_words(*moves))
                if (auto status = record.play_text(word); !status)
                    return make_error(fmt::format("move '{}': {}", clipped(word), status.error()));
            line.moves = record.moves();
        }
        // A record is stepped through from its start, or shown at its end ("Analyse this game");
        // a set-up shows the position its moves reach.
        const std::string at = from_record ? json::text(request, "at") : std::string();
        if (from_record && !at.empty() && at != "start" && at != "end")
            return make_error(fmt::format("at must be \"start\" or \"end\", not '{}'", clipped(at)));
        const std::size_t ply = from_record && at != "end" ? 0 : line.moves.size();
        return std::shared_ptr<Session>(std::make_shared<AnalysisBoard<View>>(id, line, engines, std::move(engine_options), ply));
    }

    Expected<Json> preview(const Json& request) const override {
        auto variant = variant_from_settings<View>(json::member(request, "variant"));
        if (!variant) return make_error(variant.error());
        auto start = start_position(*variant, json::member(request, "position"));
        if (!start) return make_error(start.error());
        Json preview;
        preview["type"] = "preview";
        preview["game"] = std::string(View::game);
        preview["for"] = json::text(request, "for");  // the page's panel that asked
        preview["board"] = board_at<View>(*start, nullptr, *start);
        return preview;
    }

    protocol::Dialect default_dialect() const override { return A::default_dialect; }
    std::span<const std::string_view> rule_option_names() const override { return A::rule_option_names; }

    std::shared_ptr<Session> new_watch(std::int64_t id, const arbiter::MatchConfig& config) const override {
        std::vector<std::string> names;
        for (const auto& engine : config.engines) names.push_back(engine.name);
        return std::make_shared<MatchWatch<View>>(id, std::move(names));
    }

    int run_match(Session& watch, const arbiter::MatchConfig& config, const std::vector<std::string>& arguments,
                  const std::optional<arbiter::JournalContents>& resume) const override {
        return arbiter::run_match<A>(config, arguments, resume, dynamic_cast<MatchWatch<View>*>(&watch));
    }

    Expected<std::unique_ptr<FeedReplay>> new_feed_replay(Session& watch, const arbiter::MatchConfig& config,
                                                          const arbiter::ResultsFile& header) const override {
        auto variant = A::make_variant(config);
        if (!variant) return make_error(variant.error());
        return std::unique_ptr<FeedReplay>(
            std::make_unique<MatchFeedReplay<View>>(dynamic_cast<MatchWatch<View>&>(watch), *variant, header));
    }

private:
    // The position text if there is one (TPS, FEN or the game's own), else the standard start.
    static Expected<typename G::State> start_position(const typename G::Variant& variant, const Json& position) {
        if (!position.is_null() && !position.is_string()) return make_error("position must be text");
        static const std::string none;
        const std::string& text = position.is_string() ? position.get_ref<const std::string&>() : none;
        if (text.find_first_not_of(" \t\r\n") == std::string::npos) return G::start_state(variant);
        if (text.size() > 10000) return make_error("the position text is too long");
        auto parsed = G::parse_position(variant, text);
        if (!parsed) return make_error(fmt::format("position: {}", parsed.error()));
        return *parsed;
    }
};

}  // namespace bge::gui
