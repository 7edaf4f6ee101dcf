// The arbiter's JSON (tools/arbiter/json.hpp): nlohmann's ordered_json behind a parse that never
// throws, bounds size and nesting, and says what is wrong; the layout of what it writes; and the
// readers that take a missing or mistyped member as absent.

#include <catch2/catch.hpp>

#include <limits>
#include <string>

#include "tools/arbiter/json.hpp"

using namespace bge;
using namespace bge::arbiter;

TEST_CASE("JSON keeps member order, exact integers and escapes, compact or indented", "[arbiter][json]") {
    Json doc;
    doc["name"] = "tak \"quoted\"\n\t\\";
    doc["games"] = std::int64_t{9'007'199'254'740'993};  // beyond a double's exact range
    doc["seed"] = std::numeric_limits<std::uint64_t>::max();
    doc["score"] = 0.625;
    doc["ok"] = true;
    doc["nothing"] = nullptr;
    doc["list"] = Json::array({1, "two", Json::array()});
    doc["empty"] = Json::object();
    CHECK(json::dump(doc) ==
          R"({"name":"tak \"quoted\"\n\t\\","games":9007199254740993,"seed":18446744073709551615,"score":0.625,)"
          R"("ok":true,"nothing":null,"list":[1,"two",[]],"empty":{}})");
    // The results file's layout: two spaces a level, "key": value, empty containers inline.
    Json small;
    small["a"] = Json::array({1, 2});
    small["b"] = Json::object();
    small["c"]["d"] = "e";
    CHECK(json::dump(small, true) ==
          "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"c\": {\n    \"d\": \"e\"\n  }\n}");
    for (bool pretty : {false, true}) {
        auto back = json::parse(json::dump(doc, pretty));
        REQUIRE(back);
        CHECK(*back == doc);
        CHECK(back->begin().key() == "name");
        CHECK(back->at("games").get<std::int64_t>() == 9'007'199'254'740'993);
        CHECK(back->at("seed").get<std::uint64_t>() == std::numeric_limits<std::uint64_t>::max());
    }
}

TEST_CASE("JSON reads what the old writer wrote: unicode escapes, whole numbers, duplicate keys", "[arbiter][json]") {
    auto value = json::parse(R"({"b": 1, "a": [true, false], "s": "caf\u00e9 \ud83d\ude00 \u0008", "x": 0, "x": 2})");
    REQUIRE(value);
    CHECK(value->begin().key() == "b");
    CHECK(json::text(*value, "s") == "caf\xC3\xA9 \xF0\x9F\x98\x80 \b");
    CHECK(json::integer(*value, "x") == 2);  // the last one wins, in the first one's place
    CHECK(value->size() == 4);
    CHECK(json::number(*value, "b") == 1.0);  // an integer is a number too
}

TEST_CASE("non-finite numbers are written as null, and text that is not UTF-8 does not throw", "[arbiter][json]") {
    Json value;
    value["inf"] = std::numeric_limits<double>::infinity();
    value["nan"] = std::numeric_limits<double>::quiet_NaN();
    CHECK(json::dump(value) == R"({"inf":null,"nan":null})");
    Json bytes;
    bytes["line"] = std::string("info string caf\xE9");  // Latin-1 from an engine
    CHECK(json::dump(bytes) == "{\"line\":\"info string caf\xEF\xBF\xBD\"}");
}

TEST_CASE("bad JSON is refused with what is wrong and where", "[arbiter][json]") {
    for (const char* text : {"", "{", "[1,]", "{\"a\" 1}", "{a:1}", "\"open", "tru", "[1 2]", "1 2", "{\"a\":01}",
                             "\"\\q\"", "[\"\x01\"]", "[\"\xff\"", "\"\\ud800\"", "1e999", "NaN", "[1] // note"}) {
        INFO(text);
        Expected<Json> value = Json();
        CHECK_NOTHROW(value = json::parse(text));
        CHECK_FALSE(value);
        if (!value) {
            CHECK_THAT(value.error(), Catch::StartsWith("bad JSON: "));
            CHECK(value.error().find("json.exception") == std::string::npos);
        }
    }
    CHECK_THAT(json::parse("{\n  \"a\": 1,\n  \"b\" 2\n}").error(), Catch::Contains("at line 3, column"));
    // nlohmann alone would stop at a NUL byte and take what came before.
    CHECK_THAT(json::parse(std::string("[1]\0[2]", 7)).error(), Catch::Contains("NUL byte at offset 3"));
    CHECK_THAT(json::parse("1e999").error(), Catch::Contains("1e999"));
    // The old writer copied bytes that are not UTF-8 (a Latin-1 engine name) as they were: they
    // read as U+FFFD, as the writer now writes them.
    auto latin1 = json::parse("{\"name\": \"caf\xE9\", \"\xFF\": 1}");
    REQUIRE(latin1);
    CHECK(json::text(*latin1, "name") == "caf\xEF\xBF\xBD");
    CHECK(json::integer(*latin1, "\xEF\xBF\xBD") == 1);
    CHECK_THAT(json::parse("[\"\xFF\" 1]").error(), Catch::Contains("bad JSON: "));
}

TEST_CASE("JSON text beyond the size or nesting limit is refused before it is built", "[arbiter][json]") {
    const json::Limits limits{100, 4};
    CHECK(json::parse("[[[[1]]]]", limits));
    CHECK(json::parse(R"({"a":{"b":[{"c":1}]}})", limits));
    CHECK_THAT(json::parse("[[[[[1]]]]]", limits).error(), Catch::Contains("nested deeper than 4 levels"));
    CHECK_THAT(json::parse(R"({"a":{"b":[{"c":[]}]}})", limits).error(), Catch::Contains("nested deeper"));
    const std::string fits = "\"" + std::string(98, 'x') + "\"";
    CHECK(json::parse(fits, limits));
    CHECK_THAT(json::parse(fits + " ", limits).error(), Catch::Contains("101 bytes is longer than the 100 allowed"));
    // The default limits for files: deep nesting stops at once, however deep the text goes.
    CHECK_THAT(json::parse(std::string(100'000, '[')).error(), Catch::Contains("nested deeper than 64 levels"));
    std::string objects;
    for (int i = 0; i < 100'000; ++i) objects += "{\"a\":";
    CHECK_FALSE(json::parse(objects));
}

TEST_CASE("members missing or of another type read as absent, never as an exception", "[arbiter][json]") {
    auto doc = json::parse(R"({"n": 7, "big": 18446744073709551615, "neg": -9223372036854775808, "whole": 3.0,
                               "half": 2.5, "s": "text", "a": [1, 2], "o": {"k": "v"}, "null": null})");
    REQUIRE(doc);
    CHECK(json::find(*doc, "n") == &doc->at("n"));
    CHECK(json::find(*doc, "missing") == nullptr);
    CHECK(json::find(doc->at("a"), "n") == nullptr);  // not an object
    CHECK(json::member(*doc, "missing").is_null());
    CHECK(json::member(json::member(*doc, "missing"), "deeper").is_null());
    CHECK(json::text(*doc, "s") == "text");
    CHECK(json::text(*doc, "n").empty());
    CHECK(json::text(doc->at("a"), "s").empty());
    CHECK(json::integer(*doc, "n") == 7);
    CHECK(json::integer(*doc, "neg") == std::numeric_limits<std::int64_t>::min());
    CHECK(json::integer(*doc, "whole") == 3);
    CHECK_FALSE(json::integer(*doc, "big"));  // beyond int64
    CHECK_FALSE(json::integer(*doc, "half"));
    CHECK_FALSE(json::integer(*doc, "s"));
    CHECK_FALSE(json::integer(*doc, "null"));
    CHECK(json::number(*doc, "half") == 2.5);
    CHECK(json::number(*doc, "n") == 7.0);
    CHECK_FALSE(json::number(*doc, "s"));
    CHECK(json::items(*doc, "a").size() == 2);
    CHECK(json::items(*doc, "o").empty());
    CHECK(json::items(*doc, "missing").is_array());
    CHECK(json::text(json::member(*doc, "o"), "k") == "v");
}
