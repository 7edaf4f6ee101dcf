#pragma once
// A data file built into a program (CMakeLists.txt, bge_embed_files): trained networks ship this
// way, so an engine needs no file at run time. Each engine's nets/embedded.hpp declares
// `bge::<game>::nets::embedded_files()`, the files of its nets/ folder.

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>
#include <utility>

namespace bge {

struct EmbeddedFile {
    std::string_view name;   // the file's name in the source tree, without its folder
    std::string_view bytes;  // its contents
};

// The bytes of the file called `name`; empty when no such file was built in.
inline std::string_view find_embedded_file(std::span<const EmbeddedFile> files, std::string_view name) {
    for (const EmbeddedFile& file : files)
        if (file.name == name) return file.bytes;
    return {};
}

// The built-in file `name` read by `parse` (bytes -> Expected<T>). A shipped file that does not
// parse is a build defect, which each engine's tests rule out by parsing every one; should it
// happen anyway, the program says which file and why, and stops.
template <class Parse>
auto parse_builtin_file(std::string_view program, std::span<const EmbeddedFile> files, std::string_view name,
                        Parse&& parse) {
    auto parsed = std::forward<Parse>(parse)(find_embedded_file(files, name));
    if (!parsed) {
        fmt::print(stderr, "{}: the built-in nets/{}: {}\n", program, name, parsed.error());
        std::abort();
    }
    return std::move(*parsed);
}

}  // namespace bge
