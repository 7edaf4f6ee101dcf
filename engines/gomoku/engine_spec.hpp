#pragma once
// Everything the shared protocol loop needs to know about the Gomoku engine, and the board hooks
// of its pbrain session.

#include "core/gomoku/gomoku.hpp"
#include "protocol/engine_spec.hpp"
#include "protocol/pbrain_loop.hpp"

namespace bge::gomoku {

protocol::EngineSpec<Gomoku> gomoku_engine_spec();
protocol::PbrainHooks<Gomoku> gomoku_pbrain_hooks();

}  // namespace bge::gomoku
