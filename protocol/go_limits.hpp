#pragma once
// The limits of a `go` line, read leniently: a client waits for a `bestmove` after every `go`, so
// no limit it sends may cost it that answer. A value out of range is clamped, one that does not
// parse is ignored, an unknown word is skipped; each of these leaves one warning, and the rest of
// the line still counts (docs/protocol.md, "go limits").

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "search/limits.hpp"

namespace bge::protocol {

struct GoRequest {
    search::Limits limits;
    std::optional<int> perft_depth;     // `go perft N`: a count, not a search
    std::vector<std::string> warnings;  // one per limit clamped or ignored, for `info string`

    // No depth, nodes, move time or clock of the side to move: only `stop` (or the end of
    // input) ends the search.
    bool unbounded(Side to_move) const;
};

// `words` is the whole line, "go" first.
GoRequest parse_go(const std::vector<std::string_view>& words);

}  // namespace bge::protocol
