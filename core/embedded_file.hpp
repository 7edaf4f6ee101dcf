#pragma once
// A data file built into a program (CMakeLists.txt, bge_embed_files): trained networks ship this
// way, so an engine needs no file at run time.

#include <string_view>

namespace bge {

struct EmbeddedFile {
    std::string_view name;   // the file's name in the source tree, without its folder
    std::string_view bytes;  // its contents
};

}  // namespace bge
