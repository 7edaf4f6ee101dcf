#include "protocol/search_options.hpp"

#include <fmt/format.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <unistd.h>
#endif

#include <thread>

namespace bge::protocol {

std::int64_t machine_memory_mib() {
#ifdef _WIN32
    MEMORYSTATUSEX status{};
    status.dwLength = sizeof status;
    if (!::GlobalMemoryStatusEx(&status)) return 0;
    return static_cast<std::int64_t>(status.ullTotalPhys / (1024 * 1024));
#else
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return 0;
    return static_cast<std::int64_t>(pages) / 1024 * page_size / 1024;
#endif
}

int machine_cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

void refuse_beyond_memory(Option& option) {
    option.accept = [name = option.name](std::int64_t mib) -> Status {
        const std::int64_t memory = machine_memory_mib();
        if (memory > 0 && mib > memory)
            return make_error(fmt::format("option {}: {} MiB is more than this machine's memory ({} MiB); kept the "
                                          "previous value",
                                          name, mib, memory));
        return success();
    };
}

void add_search_options(OptionRegistry& options, std::int64_t hash_default_mib) {
    options.add_spin("Threads", 1, 1, max_threads, "search threads: Lazy SMP for alpha-beta, one shared tree for MCTS");
    refuse_beyond_memory(
        options.add_spin("Hash", hash_default_mib, 1, 65536, "transposition table size in MiB (alpha-beta players)"));
}

}  // namespace bge::protocol
