#pragma once
// The td networks of this folder, one per ruleset (RULESET.net), built into the engine
// (engines/ur/CMakeLists.txt).

#include <span>

#include "core/embedded_file.hpp"

namespace bge::ur {

std::span<const EmbeddedFile> embedded_networks();

}  // namespace bge::ur
