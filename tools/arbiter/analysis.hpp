#pragma once
// `arbiter analyse`: computer analysis of game records (docs/arbiter.md, "Analysis"). An engine
// searches every position of the records at a fixed limit; the arbiter writes the records again
// with each move's evaluation and ?/?? marks, and a dataset of one JSON line per position (the
// trainers' teacher labels). The analyser itself is a template over the game adapter
// (tools/arbiter/analyser.hpp); this is the game-agnostic command line.

#include <string>
#include <vector>

#include "core/expected.hpp"
#include "core/shard.hpp"
#include "tools/arbiter/command_line.hpp"

namespace bge::arbiter {

struct AnalysisConfig {
    bool help = false;
    MatchConfig rules;  // -game and the variant flags, as a match reads them
    EngineConfig engine;
    std::vector<std::string> inputs;  // record files, in order
    std::string out_file;             // -out: the records again, annotated
    std::string data_file;            // -data: one JSON line per position searched
    int mistake_cp = 100;             // a move that loses at least this much is marked ?
    int blunder_cp = 300;             // ... and ?? from this much
    int concurrency = 1;              // engine processes at once, one record each
    bool resume = false;              // continue the -data file of a run that stopped
    Shard shard;                      // -shard k/K: this block of the records
};

// The flags after the word `analyse`. Every error names the flag or value at fault.
Expected<AnalysisConfig> parse_analysis_command_line(const std::vector<std::string>& arguments);

std::string analysis_help_text();

// "nodes=5000", "depth=8" or "st=0.5": the limit as the data file records it.
std::string analysis_limit_text(const EngineConfig& engine);

// Exit status: 0 every position analysed, 1 some position, record or the engine failed (the
// messages say which; what was written stays), 2 bad command line or unreadable input.
int run_analysis(const std::vector<std::string>& arguments);

}  // namespace bge::arbiter
