#pragma once
// The options every engine declares the same way, whatever its game and player: Threads and Hash
// (UCI's names and meanings). The protocol layer declares them, so TEI, UGI and pbrain agree;
// players read them before each search.

#include <cstdint>

#include "protocol/options.hpp"

namespace bge::protocol {

constexpr std::int64_t max_threads = 256;

// Threads (1..256, default 1) and Hash (1..65536 MiB, default `hash_default_mib`). A Hash larger
// than this machine's memory is refused (refuse_beyond_memory).
void add_search_options(OptionRegistry& options, std::int64_t hash_default_mib);

// Makes a spin in MiB refuse a value beyond this machine's physical memory.
void refuse_beyond_memory(Option& option);

// This machine's physical memory in MiB (0 when the system does not say) and its cores (at least 1).
std::int64_t machine_memory_mib();
int machine_cores();

}  // namespace bge::protocol
