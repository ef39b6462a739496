// Dockerfiles and .cuvet.yaml are read whole: only regular files, only up to
// input-bytes. Real files, a real FIFO and /dev/zero.
#include "cuvet/core/text_input.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>

#include "cuvet/core/scan_limits.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
using namespace cuvet::test;

namespace {

// Restores the default limits when a test ends, whatever it lowered.
struct DefaultLimits {
    ~DefaultLimits() { set_scan_limits(ScanLimits{}); }
};

}  // namespace

TEST_CASE("read_text_input reads regular files whole, through links", "[core][limits]") {
    TempDir dir;
    write_file(dir / "Dockerfile", "FROM scratch\n");
    std::filesystem::create_symlink(dir / "Dockerfile", dir / "link");
    CHECK(read_text_input((dir / "Dockerfile").string()) == "FROM scratch\n");
    CHECK(read_text_input((dir / "link").string()) == "FROM scratch\n");
}

TEST_CASE("read_text_input refuses a FIFO at once and a device", "[core][limits]") {
    TempDir dir;
    const auto fifo = dir / "Dockerfile";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const auto start = std::chrono::steady_clock::now();
    // No writer ever opens the FIFO: a blocking open would wait forever.
    CHECK_THROWS_WITH(read_text_input(fifo.string()), Catch::Contains("not a regular file"));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
    std::filesystem::create_symlink("/dev/zero", dir / ".cuvet.yaml");
    try {
        read_text_input((dir / ".cuvet.yaml").string());
        FAIL("a device was read");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::input);
        CHECK_THAT(e.what(), Catch::Contains("not a regular file"));
    }
}

TEST_CASE("read_text_input stops past input-bytes", "[core][limits]") {
    DefaultLimits restore;
    TempDir dir;
    write_file(dir / "Dockerfile", std::string(5000, '#'));
    ScanLimits limits;
    limits.input_bytes = 4096;
    set_scan_limits(limits);
    CHECK_THROWS_AS(read_text_input((dir / "Dockerfile").string()), LimitExceeded);
    CHECK_THROWS_WITH(read_text_input((dir / "Dockerfile").string()),
                      Catch::Contains("Dockerfile: more than 4096 bytes") &&
                          Catch::Contains("--limit input-bytes="));
    limits.input_bytes = 5000;
    set_scan_limits(limits);
    CHECK(read_text_input((dir / "Dockerfile").string()).size() == 5000);
}
