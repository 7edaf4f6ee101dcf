#pragma once
// The project's version and the git commit a program was built from, for every program's
// --version, the engines' `id name` and the match records. core/version.cmake writes the first two
// into the build tree at every build, so a new commit shows without reconfiguring.

#include <string>
#include <string_view>

namespace bge {

// The project's version from CMakeLists.txt, e.g. "0.1.0".
std::string_view project_version();
// The short hash of the commit built from, with "-dirty" when tracked files had changes, or
// "unknown" when the source was not a git checkout.
std::string_view build_commit();
// "0.1.0 (commit 1a2b3c4)": what --version prints after the program's name.
std::string version_text();

// Prints "<program> <version_text()>" and a newline: what every --version prints.
void print_version(std::string_view program);
// True, once print_version(program) has run, when the first argument is --version (or
// -version, the arbiter's spelling): every program's main() asks this first.
bool print_version_if_asked(int argc, char** argv, std::string_view program);

}  // namespace bge
