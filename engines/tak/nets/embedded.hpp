#pragma once
// The network and policy files of this folder, built into the engine (engines/tak/CMakeLists.txt).

#include <span>

#include "core/embedded_file.hpp"

namespace bge::tak::network {

std::span<const EmbeddedFile> embedded_networks();

}  // namespace bge::tak::network
