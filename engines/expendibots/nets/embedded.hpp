#pragma once
// The data files of this folder, built into the engine (engines/expendibots/CMakeLists.txt): the
// evaluation weights (eval_weights.txt) as train_expendibots_tdleaf writes them.

#include <span>

#include "core/embedded_file.hpp"

namespace bge::expendibots::nets {

std::span<const EmbeddedFile> embedded_files();

}  // namespace bge::expendibots::nets
