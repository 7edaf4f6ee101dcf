#pragma once
// The data files of this folder, built into the engine (engines/tak/CMakeLists.txt): the value
// networks (*.nnue), the move policy (policy.txt), the linear evaluation's weights
// (eval_weights.txt) and the sarsa player's (sarsa_weights.txt), each as its trainer writes it.

#include <span>

#include "core/embedded_file.hpp"

namespace bge::tak::nets {

std::span<const EmbeddedFile> embedded_files();

}  // namespace bge::tak::nets
