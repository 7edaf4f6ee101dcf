#pragma once
// The data files of this folder, built into the engine (engines/ur/CMakeLists.txt): one TD
// network per ruleset (RULESET.net), as train_ur_td writes it.

#include <span>

#include "core/embedded_file.hpp"

namespace bge::ur::nets {

std::span<const EmbeddedFile> embedded_files();

}  // namespace bge::ur::nets
