// The GUI's sessions for expendibots (game_factory_impl.hpp).
#include "tools/gui/game_factory_impl.hpp"
#include "tools/gui/views.hpp"

namespace bge::gui {

const GameFactory& expendibots_factory() {
    static const GameFactoryFor<ExpendibotsView> factory;
    return factory;
}

}  // namespace bge::gui
