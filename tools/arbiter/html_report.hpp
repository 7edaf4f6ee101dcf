#pragma once
// `arbiter report`: one self-contained HTML page (inline CSS and SVG, no script, nothing fetched)
// from the arbiter's results JSON (format "bge-arbiter-results"; docs/arbiter.md, "HTML report").
//
// The page: a header (game, variant, command line, games played of scheduled), per pair of engines
// the results (W/L/D, score, Elo, nElo, LOS, draw ratio, Ptnml, LLR with an SPRT), the ranking with
// more than two engines, an Elo-over-games plot per pair, the terminations (and who lost that
// way), and every game record. Missing or mistyped fields count as absent; all text is escaped.

#include <string>
#include <string_view>

#include "tools/arbiter/json.hpp"

namespace bge::arbiter {

std::string html_report(const Json& results);

// Text with &, <, >, " and ' replaced by entities, safe in element content and quoted attributes.
std::string html_escape(std::string_view text);

}  // namespace bge::arbiter
