// The protocol line reader: line endings, the length limit and end of input.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "protocol/line_reader.hpp"

using bge::protocol::LineReader;

namespace {

// Feeds `text` through a pipe and returns the lines read.
std::vector<bge::protocol::InputLine> read_all(const std::string& text, std::size_t limit) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    std::thread writer([&] {
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(fds[1], text.data() + done, text.size() - done);
            if (n <= 0) break;
            done += static_cast<std::size_t>(n);
        }
        ::close(fds[1]);
    });
    LineReader reader(fds[0], limit);
    std::vector<bge::protocol::InputLine> lines;
    while (auto line = reader.next()) lines.push_back(*line);
    writer.join();
    ::close(fds[0]);
    return lines;
}

}  // namespace

TEST_CASE("lines split on LF and CRLF; a last line without newline counts", "[protocol]") {
    const auto lines = read_all("tei\r\nisready\n\nquit", 100);
    REQUIRE(lines.size() == 4);
    CHECK(lines[0].text == "tei");
    CHECK(lines[1].text == "isready");
    CHECK(lines[2].text.empty());
    CHECK(lines[3].text == "quit");
    for (const auto& line : lines) CHECK_FALSE(line.too_long);
}

TEST_CASE("an over-long line is flagged and the next line is intact", "[protocol]") {
    const std::string huge(300'000, 'a');
    const auto lines = read_all("isready\n" + huge + "\nisready\n", 1000);
    REQUIRE(lines.size() == 3);
    CHECK_FALSE(lines[0].too_long);
    CHECK(lines[1].too_long);
    CHECK(lines[1].full_length == 300'000);
    CHECK(lines[1].text.size() == 1000);
    CHECK(lines[2].text == "isready");
    CHECK_FALSE(lines[2].too_long);
}

TEST_CASE("empty input gives no lines", "[protocol]") { CHECK(read_all("", 100).empty()); }

TEST_CASE("interrupt ends a read that waits for input, and the reader reads again after", "[protocol]") {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    {
        LineReader reader(fds[0], 100);
        std::optional<bge::protocol::InputLine> got{bge::protocol::InputLine{"not yet"}};
        std::thread reading([&] { got = reader.next(); });
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the read is waiting now
        REQUIRE(reader.interrupt());
        reading.join();  // a wait that did not end would hang here
        CHECK_FALSE(got.has_value());
        // Interrupted reads end at once, even before they start, until cleared; a line begun
        // before the interrupt is kept whole for the read after it.
        const std::string head = "is";
        REQUIRE(::write(fds[1], head.data(), head.size()) == static_cast<ssize_t>(head.size()));
        CHECK(reader.interrupt());
        CHECK_FALSE(reader.next().has_value());
        reader.clear_interrupt();
        const std::string tail = "ready\nquit\n";
        REQUIRE(::write(fds[1], tail.data(), tail.size()) == static_cast<ssize_t>(tail.size()));
        const auto line = reader.next();
        REQUIRE(line.has_value());
        CHECK(line->text == "isready");
        const auto last = reader.next();
        REQUIRE(last.has_value());
        CHECK(last->text == "quit");
    }
    ::close(fds[0]);
    ::close(fds[1]);
}

TEST_CASE("an abandoned read touches nothing of its reader when it returns", "[protocol]") {
    // What wine's engines met at every quit: a read that cannot be cancelled outlives its reader
    // and the loop that read through it, and returns as the process exits (the pipe closes). Here
    // the reader is destroyed while its thread waits inside the read, then input arrives: the
    // thread must stay inside next() (ASan would see it touch the freed reader).
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    auto reader = std::make_unique<LineReader>(fds[0], 100);
    auto returned = std::make_shared<std::atomic<bool>>(false);  // shared: the thread outlives this test
    std::thread reading([raw = reader.get(), returned] {
        raw->next();
        returned->store(true);
    });
    bool abandoned = false;
    for (int waited = 0; waited < 5000 && !abandoned; ++waited) {
        abandoned = reader->abandon();
        if (!abandoned) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE(abandoned);
    reader.reset();
    const std::string line = "quit\n";
    REQUIRE(::write(fds[1], line.data(), line.size()) == static_cast<ssize_t>(line.size()));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK_FALSE(returned->load());
    reading.detach();  // parked until the process ends
    ::close(fds[1]);   // fds[0] stays open: the parked thread read from it
}
