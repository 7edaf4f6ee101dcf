#pragma once
// The data files of this folder, built into the engine (engines/expendibots/CMakeLists.txt): the
// evaluation weights (eval_weights.txt) as train_expendibots_tdleaf writes them.

#include <span>
#include <string_view>

#include "core/embedded_file.hpp"

namespace bge::expendibots::nets {

std::span<const EmbeddedFile> embedded_files();

// The bytes of the file called `name`; empty when no such file was built in.
inline std::string_view embedded_file(std::string_view name) {
    for (const EmbeddedFile& file : embedded_files())
        if (file.name == name) return file.bytes;
    return {};
}

}  // namespace bge::expendibots::nets
