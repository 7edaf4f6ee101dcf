#pragma once
// The Ur engine's description for the shared protocol loop (protocol/engine_spec.hpp).

#include "core/ur/ur.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::ur {

protocol::EngineSpec<Ur> ur_engine_spec();

}  // namespace bge::ur
