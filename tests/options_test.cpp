// Engine options: declarations as GUIs parse them, and refusal of bad values.

#include <catch2/catch.hpp>

#include "protocol/options.hpp"

using namespace bge::protocol;

TEST_CASE("options declare themselves in UCI form", "[protocol][options]") {
    OptionRegistry options;
    options.add_spin("HalfKomi", 0, -20, 20, "");
    options.add_check("Ponder", false, "");
    options.add_combo("Player", "alphabeta", {"alphabeta", "random"}, "");
    options.add_string("BookFile", "", "");
    options.add_button("Clear Hash", "");
    std::vector<std::string> lines;
    for (const auto& option : options.all()) lines.push_back(option.declaration());
    CHECK(lines == std::vector<std::string>{
                       "option name HalfKomi type spin default 0 min -20 max 20",
                       "option name Ponder type check default false",
                       "option name Player type combo default alphabeta var alphabeta var random",
                       "option name BookFile type string default <empty>",
                       "option name Clear Hash type button",
                   });
}

TEST_CASE("setoption values are checked and callbacks fire", "[protocol][options]") {
    OptionRegistry options;
    int changes = 0;
    options.add_spin("Hash", 16, 1, 1024, "").on_change = [&](const Option&) { ++changes; };
    options.add_check("Flag", false, "");
    options.add_combo("Player", "a", {"a", "b"}, "");

    CHECK(options.set("hash", "64"));  // names match case-insensitively
    CHECK(options.integer("Hash") == 64);
    CHECK(changes == 1);
    for (const char* bad : {"0", "1025", "abc", "", "12x", "1e3"}) {
        INFO(bad);
        auto status = options.set("Hash", bad);
        CHECK_FALSE(status);
    }
    CHECK(options.integer("Hash") == 64);  // unchanged
    CHECK(changes == 1);

    CHECK(options.set("Flag", "TRUE"));
    CHECK(options.boolean("Flag"));
    CHECK_FALSE(options.set("Flag", "yes"));
    CHECK(options.set("player", "B"));
    CHECK(options.text("Player") == "b");
    auto bad_choice = options.set("Player", "c");
    REQUIRE_FALSE(bad_choice);
    CHECK_THAT(bad_choice.error(), Catch::Contains("a, b"));
    CHECK_FALSE(options.set("NoSuchOption", "1"));
}
