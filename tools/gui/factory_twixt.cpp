// The GUI's sessions for twixt (game_factory_impl.hpp).
#include "tools/gui/game_factory_impl.hpp"
#include "tools/gui/views.hpp"

namespace bge::gui {

const GameFactory& twixt_factory() {
    static const GameFactoryFor<TwixtView> factory;
    return factory;
}

}  // namespace bge::gui
