// The HTML report from a results JSON: the numbers in its tables, the plots, escaping, and
// robustness against missing or mistyped fields (docs/arbiter.md, "HTML report").

#include <catch2/catch.hpp>

#include <string>

#include "tools/arbiter/html_report.hpp"
#include "tools/arbiter/json.hpp"

using namespace bge::arbiter;

namespace {

Json parse_or_fail(const std::string& text) {
    auto value = json::parse(text);
    REQUIRE(value);
    return *value;
}

int count_of(const std::string& text, const std::string& needle) {
    int count = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
    return count;
}

// Three engines with markup in their names; games listed out of order; game 5 has no
// termination, game 9 names no valid White.
const char* const three_engines = R"({
  "format": "bge-arbiter-results", "version": 1,
  "game": "tak", "variant": "5x5, komi 2",
  "command_line": "arbiter -engine name=<script>alert('x')</script>",
  "seed": 7, "shard": {"index": 1, "count": 1},
  "engines": [{"name": "alpha<1>", "command": "build/bin/tak"}, {"name": "b&eta", "command": "build/bin/tak"},
              {"name": "gamma"}],
  "scheduled_games": 10, "total_games": 10,
  "sprt": {"elo0": 0, "elo1": 5, "alpha": 0.05, "beta": 0.05},
  "games": [
    {"number": 2, "round": 1, "encounter": 0, "white": 1, "black": 0, "opening": 0, "result": "1/2-1/2",
     "termination": "flats", "reason": "Draw on flats", "plies": 50, "record": "[Result \"1/2-1/2\"]\n"},
    {"number": 1, "round": 1, "encounter": 0, "white": 0, "black": 1, "opening": 0, "result": "1-0",
     "termination": "road", "reason": "White wins by road", "plies": 37,
     "record": "[Player1 \"alpha<1>\"]\n1. a1 e5 {x < y & z}\nR-0\n"},
    {"number": 3, "round": 1, "encounter": 1, "white": 1, "black": 2, "result": "0-1",
     "termination": "time forfeit", "reason": "White loses on time", "plies": 12, "record": "1. a1 e5\n0-1\n"},
    {"number": 4, "round": 1, "encounter": 1, "white": 2, "black": 1, "result": "1-0",
     "termination": "road", "reason": "White wins by road", "plies": 21, "record": "R-0\n"},
    {"number": 5, "round": 1, "encounter": 2, "white": 0, "black": 2, "result": "1-0",
     "reason": "White wins by road", "plies": 19, "record": "R-0\n"},
    {"number": 6, "round": 1, "encounter": 2, "white": 2, "black": 0, "result": "0-1",
     "termination": "road", "reason": "Black wins by road", "plies": 30, "record": "0-R\n"},
    {"number": 7, "round": 2, "encounter": 3, "white": 0, "black": 1, "result": "0-1",
     "termination": "road", "reason": "Black wins by road", "plies": 40, "record": "0-R\n"},
    {"number": 8, "round": 2, "encounter": 3, "white": 1, "black": 0, "result": "1/2-1/2",
     "termination": "max moves", "reason": "Draw by adjudication: max moves", "plies": 200, "record": "1/2-1/2\n"},
    {"number": 9, "round": 2, "encounter": 4, "white": "x", "black": 1, "result": "1-0",
     "termination": "stall", "reason": "Black's connection stalls"}
  ]
})";

}  // namespace

TEST_CASE("HTML report: tables, plots and records of a three-engine match", "[arbiter][report]") {
    const std::string page = html_report(parse_or_fail(three_engines));

    CHECK(page.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0) == 0);
    CHECK(page.size() > 2000);
    CHECK(page.substr(page.size() - 8) == "</html>\n");
    CHECK(count_of(page, "<body>") == 1);
    CHECK(count_of(page, "</body>") == 1);
    CHECK(page.find("<script") == std::string::npos);  // nothing external, no script
    CHECK(page.find("http://") == page.find("http://www.w3.org/2000/svg"));

    // Header.
    CHECK(page.find("<h1>Arbiter results: tak</h1>") != std::string::npos);
    CHECK(page.find("<dd>5x5, komi 2</dd>") != std::string::npos);
    CHECK(page.find("<code>arbiter -engine name=&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</code>") !=
          std::string::npos);
    CHECK(page.find("<dt>Games</dt><dd>9 played of 10 scheduled</dd>") != std::string::npos);

    // Results by pair, from the lower-numbered engine's side. alpha vs beta: W1 L1 D2 in two pairs
    // [W,D] and [L,D]: Ptnml [0,1,0,1,0], score 0.5, pair variance 0.0625, se 0.17678, interval
    // 0.1535..0.8465: Elo 0.0 +/- 296.6; nElo 0 +/- 1.96 * 0.17678 / 0.35355 * 347.44 = 340.5.
    CHECK(page.find("<tr><td class=\"name\">alpha&lt;1&gt; vs b&amp;eta</td><td>4</td><td>1</td><td>1</td>"
                    "<td>2</td><td>2.0 (50.0%)</td><td>0.0 &plusmn; 296.6</td><td>0.0 &plusmn; 340.5</td>"
                    "<td>50.00 %</td><td>50.0%</td><td>[0, 1, 0, 1, 0]</td><td>0.00 (-2.94, 2.94) continue</td>"
                    "</tr>") != std::string::npos);
    // alpha vs gamma: two wins in one pair: infinite; beta vs gamma: two losses.
    CHECK(page.find("<tr><td class=\"name\">alpha&lt;1&gt; vs gamma</td><td>2</td><td>2</td><td>0</td><td>0</td>"
                    "<td>2.0 (100.0%)</td><td>inf &plusmn; nan</td><td>inf &plusmn; nan</td><td>100.00 %</td>"
                    "<td>0.0%</td><td>[0, 0, 0, 0, 1]</td><td>0.02 (-2.94, 2.94) continue</td></tr>") !=
          std::string::npos);
    CHECK(page.find("<tr><td class=\"name\">b&amp;eta vs gamma</td><td>2</td><td>0</td><td>2</td><td>0</td>"
                    "<td>0.0 (0.0%)</td><td>-inf &plusmn; nan</td><td>-inf &plusmn; nan</td><td>0.00 %</td>"
                    "<td>0.0%</td><td>[1, 0, 0, 0, 0]</td><td>-0.02 (-2.94, 2.94) continue</td></tr>") !=
          std::string::npos);

    // Ranking (maximum likelihood, checked against the MM reference): 72.9 +/- 200.6, 0 +/- 232.0.
    CHECK(page.find("<tr><td>1</td><td class=\"name\">alpha&lt;1&gt;</td><td>73</td><td>201</td><td>6</td>"
                    "<td>66.7%</td><td>33.3%</td></tr>") != std::string::npos);
    CHECK(page.find("<tr><td>2</td><td class=\"name\">gamma</td><td>0</td><td>232</td><td>4</td>"
                    "<td>50.0%</td><td>0.0%</td></tr>") != std::string::npos);
    CHECK(page.find("<tr><td>3</td><td class=\"name\">b&amp;eta</td><td>-73</td><td>201</td><td>6</td>"
                    "<td>33.3%</td><td>33.3%</td></tr>") != std::string::npos);

    // One plot per pair, each with a band and a line; an infinite Elo sits on the top edge (y = 24).
    CHECK(count_of(page, "<svg ") == 3);
    CHECK(count_of(page, "</svg>") == 3);
    CHECK(count_of(page, "<polygon class=\"band\"") == 3);
    CHECK(page.find("<polyline class=\"elo\" points=\"340.0,24.0 624.0,24.0\"") != std::string::npos);
    CHECK(page.find("<polyline class=\"elo\" points=\"340.0,220.0 624.0,220.0\"") != std::string::npos);
    for (auto at = page.find("<svg "); at != std::string::npos; at = page.find("<svg ", at + 1)) {
        const std::string svg = page.substr(at, page.find("</svg>", at) - at);
        CHECK(svg.find("nan") == std::string::npos);
        CHECK(svg.find("inf") == std::string::npos);
        CHECK(svg.find(">games</text>") != std::string::npos);
    }

    // Terminations, with who lost that way; the game without a termination is "(none)".
    CHECK(page.find("<th>alpha&lt;1&gt; lost</th><th>b&amp;eta lost</th><th>gamma lost</th>") != std::string::npos);
    CHECK(page.find("<tr><td class=\"name\">road</td><td>4</td><td>1</td><td>2</td><td>1</td></tr>") !=
          std::string::npos);
    CHECK(page.find("<tr><td class=\"name\">time forfeit</td><td>1</td><td>0</td><td>1</td><td>0</td></tr>") !=
          std::string::npos);
    CHECK(page.find("<tr><td class=\"name\">flats</td><td>1</td><td>0</td><td>0</td><td>0</td></tr>") !=
          std::string::npos);
    CHECK(page.find("<tr><td class=\"name\">stall</td><td>1</td><td>0</td><td>0</td><td>0</td></tr>") !=
          std::string::npos);
    CHECK(page.find("<tr><td class=\"name\">(none)</td><td>1</td><td>0</td><td>0</td><td>1</td></tr>") !=
          std::string::npos);
    CHECK(page.find(">road<") < page.find(">flats<"));
    CHECK(page.find(">max moves<") < page.find(">time forfeit<"));

    // Records, by number, escaped.
    CHECK(page.find("<details><summary>Game 1: alpha&lt;1&gt; vs b&amp;eta, 1-0 {White wins by road}</summary>") !=
          std::string::npos);
    CHECK(page.find("<summary>Game 3: b&amp;eta vs gamma, 0-1 {White loses on time}</summary>") != std::string::npos);
    CHECK(page.find("<summary>Game 9: ? vs b&amp;eta, 1-0 {Black&#39;s connection stalls}</summary>") !=
          std::string::npos);
    CHECK(page.find("<pre>[Player1 &quot;alpha&lt;1&gt;&quot;]\n1. a1 e5 {x &lt; y &amp; z}\nR-0\n</pre>") !=
          std::string::npos);
    for (int n = 1; n < 9; ++n)
        CHECK(page.find("Game " + std::to_string(n) + ":") < page.find("Game " + std::to_string(n + 1) + ":"));

    // No user text got through unescaped.
    CHECK(page.find("alpha<1>") == std::string::npos);
    CHECK(page.find("b&eta") == std::string::npos);
    CHECK(page.find("x < y") == std::string::npos);
    CHECK(page.find("alert('x')") == std::string::npos);
}

TEST_CASE("HTML report: an empty game list still makes a page", "[arbiter][report]") {
    const std::string page = html_report(parse_or_fail(R"({"format": "bge-arbiter-results", "version": 1,
        "game": "tak", "engines": [{"name": "a"}, {"name": "b"}], "scheduled_games": 4, "games": []})"));
    CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(page.substr(page.size() - 8) == "</html>\n");
    CHECK(page.find("<dt>Games</dt><dd>0 played of 4 scheduled</dd>") != std::string::npos);
    CHECK(page.find("No games played yet.") != std::string::npos);
    CHECK(page.find("<svg") == std::string::npos);
    CHECK(page.find("<h2>Ranking</h2>") == std::string::npos);
}

TEST_CASE("HTML report: bad or missing fields count as absent", "[arbiter][report]") {
    for (const char* text : {"null", "[]", "{}", R"({"engines": 3, "games": {"a": 1}, "sprt": "yes"})",
                             R"({"engines": [{}, {"name": 5}], "games": [7, {"white": 0, "black": 1,
                                 "result": "1-0", "record": 12}, {"white": 0, "black": 0, "result": "0-1"},
                                 {"white": 1, "black": 0, "result": "2-0", "number": "x"}]})"}) {
        const std::string page = html_report(parse_or_fail(text));
        CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
        CHECK(page.substr(page.size() - 8) == "</html>\n");
    }
    // Unnamed engines get numbers; the one valid game is counted, the others only listed.
    const std::string page = html_report(parse_or_fail(R"({"engines": [{}, {"name": 5}], "games": [
        {"white": 0, "black": 1, "result": "1-0"}, {"white": 0, "black": 0, "result": "0-1"},
        {"white": 1, "black": 0, "result": "2-0", "number": "x"}]})"));
    CHECK(page.find("<td class=\"name\">engine 1 vs engine 2</td><td>1</td><td>1</td><td>0</td><td>0</td>") !=
          std::string::npos);
    CHECK(count_of(page, "<details>") == 3);
    CHECK(page.find("<summary>Game ?: engine 2 vs engine 1, 2-0</summary>") != std::string::npos);
    CHECK(page.find("<p><em>No record.</em></p>") != std::string::npos);
    CHECK(page.find("<th>LLR</th>") == std::string::npos);
}

TEST_CASE("HTML escaping", "[arbiter][report]") {
    CHECK(html_escape("a<b>&\"c\"'d'") == "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
    CHECK(html_escape("line\r\nnext\ttab") == "line\nnext\ttab");
    CHECK(html_escape(std::string("bell\x07", 5)) == "bell&#xFFFD;");
    CHECK(html_escape("Ünïcode ✓") == "Ünïcode ✓");
}
