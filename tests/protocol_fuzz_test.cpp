// The protocol fuzz run (tools/fuzz/protocol_fuzz.cpp) fails when the engine fails: each fault it
// promises to catch is put into the real tak engine by tests/fixtures/faulty_engine.sh, and the
// run must exit with status 1 and say what went wrong; the same wrapper without a fault passes.
// Without this, a fuzz run whose checks found nothing would look the same as one that cannot.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "arbiter_run.hpp"

namespace {

using namespace bge::testing;

const std::string fuzz_binary = BGE_PROTOCOL_FUZZ_BINARY;
const std::string faulty_engine = std::string(BGE_TEST_FIXTURES_DIR) + "/faulty_engine.sh";

// `timeout_s` bounds each wait for an answer in the final checks; keep the default (60 s) where
// the engine should answer, since a sanitizer build answers slowly.
ArbiterRun fuzz_faulty_tak(const std::string& mode, const std::string& timeout_s = "60") {
    // The fixture reads both from its environment, which it inherits through protocol_fuzz.
    ::setenv("FAULTY_ENGINE", BGE_TAK_BINARY, 1);
    ::setenv("FAULTY_MODE", mode.c_str(), 1);
    const ArbiterRun run = run_program(fuzz_binary, {"--game", "tak", "--engine", faulty_engine, "--lines", "300",
                                                     "--seed", "3", "--timeout", timeout_s});
    ::unsetenv("FAULTY_ENGINE");
    ::unsetenv("FAULTY_MODE");
    return run;
}

}  // namespace

TEST_CASE("protocol fuzz: every fault it checks for fails the run", "[fuzz]") {
    SECTION("no fault: the run passes") {
        const ArbiterRun run = fuzz_faulty_tak("none");
        INFO(transcript(run));
        CHECK(run.status == 0);
        CHECK(run.count_prefix("protocol_fuzz: tak: 300 lines") == 1);
    }
    SECTION("an engine that dies on a garbage line") {
        const ArbiterRun run = fuzz_faulty_tak("dies-on-garbage");
        INFO(transcript(run));
        CHECK(run.status == 1);
        // Whichever the fuzz sees first: the engine's output closing, or its input refusing a line.
        const bool seen = run.errors.find("the engine exited or closed its output") != std::string::npos ||
                          run.errors.find("the engine stopped reading its input") != std::string::npos;
        CHECK(seen);
        CHECK_THAT(run.errors, Catch::Contains("FAILED") && Catch::Contains("(seed 3, 300 lines"));
    }
    SECTION("an engine that stops answering") {
        const ArbiterRun run = fuzz_faulty_tak("deaf-after-garbage", "3");
        INFO(transcript(run));
        CHECK(run.status == 1);
        CHECK_THAT(run.errors, Catch::Contains("FAILED: isready after the fuzz: no answer within 3 s"));
    }
    SECTION("an illegal bestmove on the clean position") {
        const ArbiterRun run = fuzz_faulty_tak("illegal-bestmove");
        INFO(transcript(run));
        CHECK(run.status == 1);
        CHECK_THAT(run.errors, Catch::Contains("FAILED: bestmove z9 is illegal after 'position startpos moves "));
    }
    SECTION("a go that never gets its bestmove") {
        const ArbiterRun run = fuzz_faulty_tak("drops-a-bestmove");
        INFO(transcript(run));
        CHECK(run.status == 1);
        CHECK_THAT(run.errors, Catch::Contains("go commands got") && Catch::Contains("each must get one"));
    }
    SECTION("a non-zero exit status at quit (a sanitizer's report at exit)") {
        const ArbiterRun run = fuzz_faulty_tak("fails-at-exit");
        INFO(transcript(run));
        CHECK(run.status == 1);
        CHECK_THAT(run.errors, Catch::Contains("FAILED: exit status 23 after quit"));
    }
}
