#pragma once
// Everything the shared protocol loop needs to know about the TwixT engine.

#include "core/twixt/twixt.hpp"
#include "protocol/engine_spec.hpp"

namespace bge::twixt {

protocol::EngineSpec<Twixt> twixt_engine_spec();

}  // namespace bge::twixt
