#include "core/version.hpp"

#include <cstdio>
#include <string_view>

namespace bge {

std::string version_text() { return std::string(project_version()) + " (commit " + std::string(build_commit()) + ")"; }

void print_version(std::string_view program) {
    std::printf("%.*s %s\n", static_cast<int>(program.size()), program.data(), version_text().c_str());
}

bool print_version_if_asked(int argc, char** argv, std::string_view program) {
    if (argc < 2) return false;
    const std::string_view first = argv[1];
    if (first != "--version" && first != "-version") return false;
    print_version(program);
    return true;
}

}  // namespace bge
