#pragma once
// Everything the shared protocol loop needs to know about the Expendibots engine.

#include "core/expendibots/expendibots.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::expendibots {

protocol::EngineSpec<Expendibots> expendibots_engine_spec();

}  // namespace bge::expendibots
