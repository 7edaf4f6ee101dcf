// The arbiter's JSON: round trips, exact integers, escapes and clear errors.

#include <catch2/catch.hpp>

#include "tools/arbiter/json.hpp"

using namespace bge::arbiter;

TEST_CASE("JSON round-trips values of every kind", "[arbiter][json]") {
    json::Value doc;
    doc["name"] = "tak \"quoted\"\n\t\\";
    doc["games"] = std::int64_t{9'007'199'254'740'993};  // beyond a double's exact range
    doc["score"] = 0.625;
    doc["ok"] = true;
    doc["nothing"] = nullptr;
    json::Array list;
    list.push_back(1);
    list.push_back("two");
    list.push_back(json::Array{});
    doc["list"] = list;
    doc["empty"] = json::Object{};
    for (bool pretty : {false, true}) {
        const std::string text = json::write(doc, pretty);
        auto back = json::parse(text);
        REQUIRE(back);
        CHECK(*back == doc);
        CHECK(json::write(*back, pretty) == text);
    }
    CHECK(json::write(doc) ==
          R"({"name":"tak \"quoted\"\n\t\\","games":9007199254740993,"score":0.625,"ok":true,"nothing":null,)"
          R"("list":[1,"two",[]],"empty":{}})");
}

TEST_CASE("JSON keeps member order and reads unicode escapes", "[arbiter][json]") {
    auto value = json::parse(R"({"b": 1, "a": [true, false], "s": "caf\u00e9 \ud83d\ude00"})");
    REQUIRE(value);
    CHECK(value->as_object().members()[0].first == "b");
    CHECK((*value)["a"].as_array().size() == 2);
    CHECK((*value)["s"].as_string() == "caf\xC3\xA9 \xF0\x9F\x98\x80");
    CHECK((*value)["missing"].is_null());
    CHECK((*value)["b"].as_integer() == 1);
    CHECK((*value)["b"].as_number() == 1.0);
}

TEST_CASE("bad JSON is refused with the place it broke", "[arbiter][json]") {
    for (const char* text : {"", "{", "[1,]", "{\"a\" 1}", "{a:1}", "\"open", "tru", "[1 2]", "1 2", "{\"a\":01x}",
                             "\"\\q\"", "[\"\x01\"]"}) {
        auto value = json::parse(text);
        INFO(text);
        CHECK_FALSE(value);
        if (!value) CHECK_THAT(value.error(), Catch::Contains("JSON line"));
    }
    auto deep = json::parse(std::string(1000, '['));
    CHECK_FALSE(deep);
}

TEST_CASE("non-finite numbers are written as null", "[arbiter][json]") {
    json::Value v;
    v["inf"] = std::numeric_limits<double>::infinity();
    CHECK(json::write(v) == R"({"inf":null})");
}
