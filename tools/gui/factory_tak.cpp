// The GUI's sessions for tak (game_factory_impl.hpp).
#include "tools/gui/game_factory_impl.hpp"
#include "tools/gui/views.hpp"

namespace bge::gui {

const GameFactory& tak_factory() {
    static const GameFactoryFor<TakView> factory;
    return factory;
}

}  // namespace bge::gui
