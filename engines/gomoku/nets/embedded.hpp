#pragma once
// The files of this folder (networks .nnue, policies .policy, fitted evaluation weights .eval),
// built into the engine (engines/gomoku/CMakeLists.txt).

#include <span>

#include "core/embedded_file.hpp"

namespace bge::gomoku::network {

std::span<const EmbeddedFile> embedded_networks();

}  // namespace bge::gomoku::network
