#pragma once
// The network files of this folder, built into the engine (engines/gomoku/CMakeLists.txt).

#include <span>

#include "core/embedded_file.hpp"

namespace bge::gomoku::network {

std::span<const EmbeddedFile> embedded_networks();

}  // namespace bge::gomoku::network
