#pragma once
// Everything the shared protocol loop needs to know about the Tak engine.

#include "core/tak/tak.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::tak {

protocol::EngineSpec<Tak> tak_engine_spec();

}  // namespace bge::tak
