#include "tools/arbiter/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tools/arbiter/statistics.hpp"

namespace bge::arbiter {

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            case '\n':
            case '\t':
                out += c;
                break;
            case '\r':
                break;  // CRLF records show as LF
            default:
                // Other control characters are not allowed in HTML text.
                if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
                    out += "&#xFFFD;";
                else
                    out += c;
        }
    }
    return out;
}

namespace {

// ---- reading the results, every field optional -----------------------------------------------

std::optional<std::string> string_field(const Json& object, std::string_view key) {
    const Json* value = json::find(object, key);
    if (!value || !value->is_string()) return std::nullopt;
    return value->get<std::string>();
}

struct Game {
    std::optional<std::int64_t> number;
    std::optional<std::int64_t> encounter;
    int white = -1;  // engine index, -1 when missing or out of range
    int black = -1;
    std::optional<std::string> result;
    std::optional<double> white_points;  // from a valid result
    std::optional<std::string> termination;
    std::optional<std::string> reason;
    std::optional<std::int64_t> plies;
    std::optional<std::string> record;

    // Counts in the statistics: two different known engines and a result.
    bool rated() const { return white >= 0 && black >= 0 && white != black && white_points.has_value(); }
};

struct Results {
    std::vector<std::string> names;
    std::vector<Game> games;  // sorted by number, games without one last
    std::optional<SprtConfig> sprt;
};

Results read_results(const Json& root) {
    Results results;
    int index = 0;
    for (const Json& engine : json::items(root, "engines")) {
        ++index;
        const auto name = string_field(engine, "name");
        results.names.push_back(name && !name->empty() ? *name : fmt::format("engine {}", index));
    }
    const auto engine_index = [&](const Json& game, std::string_view key) {
        const auto value = json::integer(game, key);
        return value && *value >= 0 && *value < static_cast<std::int64_t>(results.names.size())
                   ? static_cast<int>(*value)
                   : -1;
    };
    for (const Json& entry : json::items(root, "games")) {
        if (!entry.is_object()) continue;
        Game game;
        game.number = json::integer(entry, "number");
        game.encounter = json::integer(entry, "encounter");
        game.white = engine_index(entry, "white");
        game.black = engine_index(entry, "black");
        game.result = string_field(entry, "result");
        if (game.result == "1-0")
            game.white_points = 1.0;
        else if (game.result == "0-1")
            game.white_points = 0.0;
        else if (game.result == "1/2-1/2")
            game.white_points = 0.5;
        game.termination = string_field(entry, "termination");
        game.reason = string_field(entry, "reason");
        game.plies = json::integer(entry, "plies");
        game.record = string_field(entry, "record");
        results.games.push_back(std::move(game));
    }
    std::stable_sort(results.games.begin(), results.games.end(), [](const Game& a, const Game& b) {
        if (a.number.has_value() != b.number.has_value()) return a.number.has_value();
        return a.number.has_value() && *a.number < *b.number;
    });
    const Json& sprt = json::member(root, "sprt");
    const auto elo0 = json::number(sprt, "elo0"), elo1 = json::number(sprt, "elo1");
    if (elo0 && elo1)
        results.sprt = SprtConfig{*elo0, *elo1, json::number(sprt, "alpha").value_or(0.05),
                                  json::number(sprt, "beta").value_or(0.05)};
    return results;
}

// ---- per pair of engines ---------------------------------------------------------------------

struct PairStats {
    int first;  // the lower engine index: the point of view
    int second;
    Tally tally;
    Pentanomial pentanomial;
    std::vector<const Game*> games;  // in number order
};

double points_of(const Game& game, int engine) {
    return game.white == engine ? *game.white_points : 1.0 - *game.white_points;
}

std::vector<PairStats> pair_stats(const Results& results) {
    std::map<std::pair<int, int>, PairStats> by_pair;
    std::map<std::int64_t, std::vector<const Game*>> by_encounter;
    for (const Game& game : results.games) {
        if (!game.rated()) continue;
        const int first = std::min(game.white, game.black), second = std::max(game.white, game.black);
        PairStats& stats = by_pair.try_emplace({first, second}, PairStats{first, second, {}, {}, {}}).first->second;
        stats.games.push_back(&game);
        const double points = points_of(game, first);
        if (points == 1.0)
            ++stats.tally.wins;
        else if (points == 0.0)
            ++stats.tally.losses;
        else
            ++stats.tally.draws;
        if (game.encounter && game.number) by_encounter[*game.encounter].push_back(&game);
    }
    // Two games of one encounter with consecutive numbers, between the same engines, are a pair.
    for (const auto& [encounter, games] : by_encounter) {
        for (std::size_t i = 0; i + 1 < games.size();) {
            const Game& a = *games[i];
            const Game& b = *games[i + 1];
            const bool same_engines = std::minmax(a.white, a.black) == std::minmax(b.white, b.black);
            if (*b.number == *a.number + 1 && same_engines) {
                const int first = std::min(a.white, a.black), second = std::max(a.white, a.black);
                by_pair.at({first, second}).pentanomial.add_pair(points_of(a, first), points_of(b, first));
                i += 2;
            } else {
                i += 1;
            }
        }
    }
    std::vector<PairStats> pairs;
    for (auto& [key, stats] : by_pair) pairs.push_back(std::move(stats));
    return pairs;
}

// ---- formatting ------------------------------------------------------------------------------

template <typename... Args>
void put(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

std::string fixed(double value, int decimals) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    std::string text = fmt::format("{:.{}f}", value, decimals);
    // No "-0.0" for a value that rounds to zero.
    if (text.front() == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
    return text;
}

std::string plus_minus(double value, double error, int decimals) {
    return fixed(value, decimals) + " &plusmn; " + fixed(error, decimals);
}

const char* verdict_text(SprtStatus::Verdict verdict) {
    switch (verdict) {
        case SprtStatus::Verdict::accept_h0:
            return "H0 accepted";
        case SprtStatus::Verdict::accept_h1:
            return "H1 accepted";
        default:
            return "continue";
    }
}

// "Nice" tick step (1, 2 or 5 times a power of ten) giving at most `ticks` intervals over `span`.
double tick_step(double span, int ticks) {
    if (!(span > 0)) return 1.0;
    const double raw = span / ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double factor : {1.0, 2.0, 5.0, 10.0})
        if (factor * magnitude >= raw) return factor * magnitude;
    return 10.0 * magnitude;
}

// ---- sections --------------------------------------------------------------------------------

constexpr std::string_view style = R"(
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 1100px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; white-space: nowrap; }
th { background: #f0f0f0; } td.name, th.name { text-align: left; }
code, pre { font-family: ui-monospace, monospace; font-size: 0.9em; }
pre { background: #f7f7f7; border: 1px solid #ddd; padding: 0.6em; overflow-x: auto; white-space: pre-wrap; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dt { font-weight: bold; } dd { margin: 0; }
details { margin: 0.2em 0; } summary { cursor: pointer; }
svg { display: block; margin: 0.5em 0 1.5em; }
svg text { font-family: system-ui, sans-serif; font-size: 11px; fill: #333; }
)";

void header_section(std::string& out, const Json& root, const Results& results) {
    const std::string game = string_field(root, "game").value_or("");
    put(out, "<h1>Arbiter results{}{}</h1>\n<dl>\n", game.empty() ? "" : ": ", html_escape(game));
    if (const auto variant = string_field(root, "variant"))
        put(out, "<dt>Variant</dt><dd>{}</dd>\n", html_escape(*variant));
    if (const auto command = string_field(root, "command_line"))
        put(out, "<dt>Command line</dt><dd><code>{}</code></dd>\n", html_escape(*command));
    if (const auto seed = json::integer(root, "seed")) put(out, "<dt>Seed</dt><dd>{}</dd>\n", *seed);
    const Json& shard = json::member(root, "shard");
    const auto shard_index = json::integer(shard, "index"), shard_count = json::integer(shard, "count");
    if (shard_index && shard_count) put(out, "<dt>Shard</dt><dd>{} of {}</dd>\n", *shard_index, *shard_count);
    const auto scheduled = json::integer(root, "scheduled_games"), total = json::integer(root, "total_games");
    std::string games = fmt::format("{} played", results.games.size());
    if (scheduled) games += fmt::format(" of {} scheduled", *scheduled);
    if (total && total != scheduled) games += fmt::format(" ({} in the whole schedule)", *total);
    put(out, "<dt>Games</dt><dd>{}</dd>\n", games);
    if (!results.names.empty()) {
        put(out, "<dt>Engines</dt><dd>");
        int index = 0;
        for (const Json& engine : json::items(root, "engines")) {
            if (index > 0) out += ", ";
            put(out, "{}", html_escape(results.names[index]));
            if (const auto command = string_field(engine, "command"))
                put(out, " (<code>{}</code>)", html_escape(*command));
            ++index;
        }
        out += "</dd>\n";
    }
    if (results.sprt)
        put(out, "<dt>SPRT</dt><dd>nElo0 {}, nElo1 {}, alpha {}, beta {}</dd>\n", fixed(results.sprt->elo0, 2),
            fixed(results.sprt->elo1, 2), results.sprt->alpha, results.sprt->beta);
    out += "</dl>\n";
}

void results_section(std::string& out, const Results& results, const std::vector<PairStats>& pairs) {
    out += "<h2>Results</h2>\n";
    if (pairs.empty()) {
        out += "<p>No games played yet.</p>\n";
        return;
    }
    out +=
        "<table class=\"results\">\n<tr><th class=\"name\">Pair</th><th>Games</th><th>W</th><th>L</th><th>D</th>"
        "<th>Score</th><th>Elo</th><th>nElo</th><th>LOS</th><th>Draws</th><th>Ptnml(0-2)</th>";
    if (results.sprt) out += "<th>LLR</th>";
    out += "</tr>\n";
    for (const PairStats& pair : pairs) {
        const bool paired = pair.pentanomial.pairs() > 0;
        EloInterval elo{}, nelo{};
        double los = 50.0;
        if (paired) {
            elo = elo_from_pentanomial(pair.pentanomial);
            nelo = normalized_elo(pair.pentanomial);
            los = los_percent(pair.pentanomial);
        } else {
            const EloEstimate estimate = estimate_elo(pair.tally);
            elo = {estimate.elo, estimate.error_95};
            nelo = normalized_elo(pair.tally);
            los = los_percent(pair.tally);
        }
        const auto& c = pair.pentanomial.counts;
        const Tally& t = pair.tally;
        put(out,
            "<tr><td class=\"name\">{} vs {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} ({}%)</td>"
            "<td>{}</td><td>{}</td><td>{} %</td><td>{}%</td><td>[{}, {}, {}, {}, {}]</td>",
            html_escape(results.names[pair.first]), html_escape(results.names[pair.second]), t.games(), t.wins,
            t.losses, t.draws, fixed(t.wins + 0.5 * t.draws, 1), fixed(100.0 * t.score(), 1),
            plus_minus(elo.elo, elo.error_95, 1), plus_minus(nelo.elo, nelo.error_95, 1), fixed(los, 2),
            fixed(100.0 * t.draws / t.games(), 1), c[0], c[1], c[2], c[3], c[4]);
        if (results.sprt) {
            const SprtStatus status = paired ? sprt(pair.pentanomial, *results.sprt) : sprt(t, *results.sprt);
            put(out, "<td>{} ({}, {}) {}</td>", fixed(status.llr, 2), fixed(status.lower, 2), fixed(status.upper, 2),
                verdict_text(status.verdict));
        }
        out += "</tr>\n";
    }
    out +=
        "</table>\n<p>From the first engine's side. Elo, nElo and LOS come from the game pairs (pentanomial) "
        "when the pair has complete pairs, else from the single games; errors are 95% intervals.</p>\n";
}

void ranking_section(std::string& out, const Results& results) {
    if (results.names.size() <= 2) return;
    std::vector<GameResult> games;
    for (const Game& game : results.games)
        if (game.rated()) games.push_back({game.white, game.black, *game.white_points});
    if (games.empty()) return;
    const auto rows = rank_engines(static_cast<int>(results.names.size()), games);
    out +=
        "<h2>Ranking</h2>\n<table class=\"ranking\">\n<tr><th>Rank</th><th class=\"name\">Name</th><th>Elo</th>"
        "<th>+/-</th><th>Games</th><th>Score</th><th>Draw</th></tr>\n";
    int rank = 0;
    for (const RankRow& row : rows)
        put(out,
            "<tr><td>{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}%</td><td>{}%</td></tr>\n",
            ++rank, html_escape(results.names[row.engine]), fixed(row.elo, 0), fixed(row.error_95, 0), row.games,
            fixed(100.0 * row.score, 1), fixed(100.0 * row.draw_ratio, 1));
    out +=
        "</table>\n<p>Maximum-likelihood logistic ratings, mean 0; an all-win (all-loss) record is "
        "inf (-inf).</p>\n";
}

void elo_plot(std::string& out, const Results& results, const PairStats& pair) {
    constexpr double width = 640, height = 260, left = 56, right = 16, top = 24, bottom = 40;
    constexpr double z_95 = 1.959963984540054;
    const double plot_width = width - left - right, plot_height = height - top - bottom;

    struct Point {
        double elo, low, high;
    };
    std::vector<Point> points;
    Tally tally;
    const auto logistic_elo = [](double score) {
        if (score <= 0.0) return -std::numeric_limits<double>::infinity();
        if (score >= 1.0) return std::numeric_limits<double>::infinity();
        return elo_from_score(score);
    };
    for (const Game* game : pair.games) {
        const double p = points_of(*game, pair.first);
        ++(p == 1.0 ? tally.wins : p == 0.0 ? tally.losses : tally.draws);
        const double n = tally.games(), s = tally.score();
        const double variance =
            (tally.wins * std::pow(1 - s, 2) + tally.losses * s * s + tally.draws * std::pow(0.5 - s, 2)) / n;
        const double se = std::sqrt(variance / n);
        points.push_back({logistic_elo(s), logistic_elo(s - z_95 * se), logistic_elo(s + z_95 * se)});
    }
    const double n = static_cast<double>(points.size());
    // The range fits the later four fifths of the games: the first few games' intervals are huge
    // and would flatten the rest; they run off the edge instead.
    double extent = 0.0;
    for (std::size_t k = points.size() / 5; k < points.size(); ++k)
        for (double v : {points[k].elo, points[k].low, points[k].high})
            if (std::isfinite(v)) extent = std::max(extent, std::abs(v));
    extent = std::clamp(extent, 50.0, 1000.0);
    const double y_step = tick_step(2 * extent, 8);
    const double y_max = std::ceil(extent / y_step - 1e-9) * y_step;
    const double x_max = std::max(n, 1.0);
    const double x_step = std::max(1.0, tick_step(x_max, 10));

    const auto px = [&](double games) { return left + games / x_max * plot_width; };
    // Infinite (or beyond the range) values sit on the plot's edge.
    const auto py = [&](double elo) {
        return top + (y_max - std::clamp(elo, -y_max, y_max)) / (2 * y_max) * plot_height;
    };

    const std::string title =
        fmt::format("{} vs {}", html_escape(results.names[pair.first]), html_escape(results.names[pair.second]));
    put(out, "<h3>{}</h3>\n", title);
    put(out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\">"
        "<title>Elo of {2} after each game, with its 95% interval</title>\n",
        width, height, title);
    put(out, "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fff\" stroke=\"#999\"/>\n", left, top,
        plot_width, plot_height);
    // Horizontal grid and Elo ticks.
    for (double y = -y_max; y <= y_max + y_step / 2; y += y_step) {
        const double v = std::abs(y) < y_step / 2 ? 0.0 : y;
        put(out, "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\"{}/>", left, py(v),
            left + plot_width, py(v), v == 0.0 ? "#666" : "#e4e4e4", v == 0.0 ? " stroke-dasharray=\"4 3\"" : "");
        put(out, "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 6, py(v) + 4, fixed(v, 0));
    }
    // Game ticks.
    for (double x = 0; x <= x_max + x_step / 2; x += x_step)
        put(out,
            "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#999\"/>"
            "<text x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\">{4}</text>\n",
            px(x), top + plot_height, top + plot_height + 4, top + plot_height + 16, fixed(x, 0));
    put(out, "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">games</text>\n", left + plot_width / 2,
        height - 6);
    put(out, "<text x=\"14\" y=\"{:.1f}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {:.1f})\">Elo</text>\n",
        top + plot_height / 2, top + plot_height / 2);
    if (!points.empty()) {
        std::string band, line;
        for (std::size_t k = 0; k < points.size(); ++k)
            band += fmt::format("{:.1f},{:.1f} ", px(k + 1.0), py(points[k].high));
        for (std::size_t k = points.size(); k-- > 0;)
            band += fmt::format("{:.1f},{:.1f} ", px(k + 1.0), py(points[k].low));
        for (std::size_t k = 0; k < points.size(); ++k)
            line += fmt::format("{:.1f},{:.1f} ", px(k + 1.0), py(points[k].elo));
        band.pop_back();
        line.pop_back();
        put(out, "<polygon class=\"band\" points=\"{}\" fill=\"#4a7fc1\" fill-opacity=\"0.2\" stroke=\"none\"/>\n",
            band);
        put(out, "<polyline class=\"elo\" points=\"{}\" fill=\"none\" stroke=\"#1f4f8f\" stroke-width=\"1.5\"/>\n",
            line);
    }
    out += "</svg>\n";
}

void plots_section(std::string& out, const Results& results, const std::vector<PairStats>& pairs) {
    if (pairs.empty()) return;
    out +=
        "<h2>Elo over games</h2>\n<p>Elo of the first engine after each game of the pair (from all its games "
        "so far), with the 95% interval shaded; values beyond the range, and infinite ones, sit on the edge.</p>\n";
    for (const PairStats& pair : pairs) elo_plot(out, results, pair);
}

void terminations_section(std::string& out, const Results& results) {
    if (results.games.empty()) return;
    static const std::vector<std::string> known{"road",         "flats",        "repetition", "max moves",
                                                "time forfeit", "illegal move", "stall",      "disconnect"};
    const std::string unknown = "(none)";
    std::vector<std::string> order;
    std::map<std::string, std::pair<int, std::vector<int>>> rows;  // games, losses by engine
    for (const Game& game : results.games) {
        const std::string& termination = game.termination ? *game.termination : unknown;
        auto [row, inserted] = rows.try_emplace(termination, 0, std::vector<int>(results.names.size(), 0));
        if (inserted) order.push_back(termination);
        ++row->second.first;
        if (game.rated() && *game.white_points != 0.5)
            ++row->second.second[*game.white_points == 1.0 ? game.black : game.white];
    }
    // The known ones in their usual order, then the others as they came.
    std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
        const auto rank = [&](const std::string& s) {
            return std::find(known.begin(), known.end(), s) - known.begin();
        };
        return rank(a) < rank(b);
    });
    out +=
        "<h2>Terminations</h2>\n<table class=\"terminations\">\n<tr><th class=\"name\">Termination</th>"
        "<th>Games</th>";
    for (const std::string& name : results.names) put(out, "<th>{} lost</th>", html_escape(name));
    out += "</tr>\n";
    for (const std::string& termination : order) {
        const auto& [games, losses] = rows.at(termination);
        put(out, "<tr><td class=\"name\">{}</td><td>{}</td>", html_escape(termination), games);
        for (int lost : losses) put(out, "<td>{}</td>", lost);
        out += "</tr>\n";
    }
    out += "</table>\n";
}

void records_section(std::string& out, const Results& results) {
    out += "<h2>Games</h2>\n";
    if (results.games.empty()) {
        out += "<p>No games.</p>\n";
        return;
    }
    const auto name = [&](int engine) { return engine >= 0 ? html_escape(results.names[engine]) : std::string("?"); };
    for (const Game& game : results.games) {
        put(out, "<details><summary>Game {}: {} vs {}, {}", game.number ? std::to_string(*game.number) : "?",
            name(game.white), name(game.black), game.result ? html_escape(*game.result) : "*");
        if (game.reason) put(out, " {{{}}}", html_escape(*game.reason));
        out += "</summary>\n";
        if (game.plies) put(out, "<p>{} plies</p>", *game.plies);
        if (game.record)
            put(out, "<pre>{}</pre>", html_escape(*game.record));
        else
            out += "<p><em>No record.</em></p>";
        out += "</details>\n";
    }
}

}  // namespace

std::string html_report(const Json& root) {
    const Results results = read_results(root);
    const std::vector<PairStats> pairs = pair_stats(results);
    const std::string game = string_field(root, "game").value_or("");

    std::string out;
    out.reserve(4096 + 512 * results.games.size());
    put(out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<title>Arbiter results{}{}</title>\n<style>{}</style>\n</head>\n<body>\n",
        game.empty() ? "" : ": ", html_escape(game), style);
    header_section(out, root, results);
    results_section(out, results, pairs);
    ranking_section(out, results);
    plots_section(out, results, pairs);
    terminations_section(out, results);
    records_section(out, results);
    out += "</body>\n</html>\n";
    return out;
}

}  // namespace bge::arbiter
