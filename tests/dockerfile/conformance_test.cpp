// Runs BuildKit's own parser cases (../shared/conformance/buildkit-parser, or
// $CUVET_CONFORMANCE_DIR) against our parser and dumper. The data is not in
// this repository, so the test skips when it is absent (CI).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "cuvet/core/error.hpp"
#include "cuvet/dockerfile/parser.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace cuvet;

namespace {

fs::path conformance_dir() {
    if (const char* env = std::getenv("CUVET_CONFORMANCE_DIR"); env && *env) return env;
    return fs::path(CUVET_SOURCE_DIR) / ".." / "shared" / "conformance" / "buildkit-parser";
}

// Cases we knowingly do not match byte for byte; each needs a reason.
const std::set<std::string> known_exceptions = {};

}  // namespace

TEST_CASE("BuildKit parser conformance: positive cases", "[dockerfile][conformance]") {
    fs::path dir = conformance_dir() / "testfiles";
    if (!fs::is_directory(dir)) {
        CUVET_SKIP("skipped: no conformance data at " << dir.string());
    }
    int total = 0, passed = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        const std::string source = test::read_file(entry.path() / "Dockerfile");
        const std::string expected = test::read_file(entry.path() / "result");
        ++total;
        std::string actual;
        try {
            actual = dockerfile::dump(dockerfile::parse(source, name));
        } catch (const Error& e) {
            actual = std::string("error: ") + e.what() + "\n";
        }
        if (actual == expected) {
            ++passed;
            continue;
        }
        if (known_exceptions.count(name)) continue;
        INFO("case " << name << "\n--- expected\n" << expected << "--- actual\n" << actual);
        CHECK(actual == expected);
    }
    WARN("BuildKit conformance: " << passed << "/" << total << " positive cases pass");
    CHECK(total > 0);
    CHECK(passed + static_cast<int>(known_exceptions.size()) >= total);
}

TEST_CASE("BuildKit parser conformance: negative cases", "[dockerfile][conformance]") {
    fs::path dir = conformance_dir() / "testfiles-negative";
    if (!fs::is_directory(dir)) {
        CUVET_SKIP("skipped: no conformance data at " << dir.string());
    }
    int total = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        ++total;
        const std::string source = test::read_file(entry.path() / "Dockerfile");
        INFO("case " << entry.path().filename().string());
        CHECK_THROWS_AS(dockerfile::parse(source, "Dockerfile"), Error);
    }
    CHECK(total > 0);
}
