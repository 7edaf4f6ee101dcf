// The GUI's sessions for ur (game_factory_impl.hpp).
#include "tools/gui/game_factory_impl.hpp"
#include "tools/gui/views.hpp"

namespace bge::gui {

const GameFactory& ur_factory() {
    static const GameFactoryFor<UrView> factory;
    return factory;
}

}  // namespace bge::gui
