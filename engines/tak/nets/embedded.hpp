#pragma once
// The data files of this folder, built into the engine (engines/tak/CMakeLists.txt): the value
// networks (*.nnue), the move policy (policy.txt), the linear evaluation's weights
// (eval_weights.txt) and the sarsa player's (sarsa_weights.txt), each as its trainer writes it.

#include <span>
#include <string_view>

#include "core/embedded_file.hpp"

namespace bge::tak::nets {

std::span<const EmbeddedFile> embedded_files();

// The bytes of the file called `name`; empty when no such file was built in.
inline std::string_view embedded_file(std::string_view name) {
    for (const EmbeddedFile& file : embedded_files())
        if (file.name == name) return file.bytes;
    return {};
}

}  // namespace bge::tak::nets
