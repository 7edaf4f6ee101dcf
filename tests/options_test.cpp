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

TEST_CASE("an engine's option lines are read back as it declared them", "[protocol][options]") {
    OptionRegistry options;
    options.add_spin("Hash", 16, 1, 1024, "");
    options.add_check("Ponder", false, "");
    options.add_combo("Style", "calm", {"calm", "sharp edge"}, "");
    options.add_string("Eval File", "", "");
    options.add_button("Clear Hash", "");
    // Every declaration we write reads back as itself.
    for (const Option& option : options.all()) {
        INFO(option.declaration());
        auto read = parse_option_declaration(option.declaration());
        REQUIRE(read);
        CHECK(read->name == option.name);
        CHECK(read->type == option.type);
        CHECK(read->default_value == option.default_value);
        CHECK(read->min == option.min);
        CHECK(read->max == option.max);
        CHECK(read->choices == option.choices);
    }
    // Other engines' lines: a name with spaces, a negative minimum.
    auto contempt = parse_option_declaration("option name Draw Contempt type spin default -10 min -100 max 100");
    REQUIRE(contempt);
    CHECK(contempt->name == "Draw Contempt");
    CHECK(contempt->min == -100);
    CHECK(contempt->value == "-10");
    for (const char* bad : {"option name X", "option name type spin default 1 min 0 max 2", "id name X",
                            "option name X type spin default 1 min 5 max 2", "option name X type spin default a min 0 max 2",
                            "option name X type slider default 1", "option name X type check default maybe",
                            "option name X type spin default 1 min 0 max 99999999999999999999"}) {
        INFO(bad);
        CHECK_FALSE(parse_option_declaration(bad));
    }
}
