#include "tools/gui/game_factory.hpp"

namespace bge::gui {

const GameFactory* factory_for(std::string_view game) {
    if (game == "tak") return &tak_factory();
    if (game == "gomoku") return &gomoku_factory();
    if (game == "twixt") return &twixt_factory();
    if (game == "ur") return &ur_factory();
    if (game == "expendibots") return &expendibots_factory();
    return nullptr;
}

}  // namespace bge::gui
