// The GUI's sessions for gomoku (game_factory_impl.hpp).
#include "tools/gui/game_factory_impl.hpp"
#include "tools/gui/views.hpp"

namespace bge::gui {

const GameFactory& gomoku_factory() {
    static const GameFactoryFor<GomokuView> factory;
    return factory;
}

}  // namespace bge::gui
