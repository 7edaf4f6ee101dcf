#pragma once
// `arbiter merge A.json B.json ... [-jsonout FILE] [-pgnout FILE]`: adds up the results files of
// the shards of one match (same schedule, different -shard k/K). The merged games, statistics
// and records are those of one full run; the summary goes to stdout as a match's would.

#include <string>
#include <vector>

namespace bge::arbiter {

int run_merge(const std::vector<std::string>& arguments);

}  // namespace bge::arbiter
