#pragma once
// The data files of this folder, built into the engine (engines/gomoku/CMakeLists.txt): per rule,
// the value network (RULE.nnue), the move policy (RULE.policy) and the fitted evaluation's
// weights (RULE.eval), each as its trainer writes it.

#include <span>

#include "core/embedded_file.hpp"

namespace bge::gomoku::nets {

std::span<const EmbeddedFile> embedded_files();

}  // namespace bge::gomoku::nets
