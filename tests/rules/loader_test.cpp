#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cuvet/core/error.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/rules/embedded.hpp"
#include "rules/rules_fixtures.hpp"
#include "support/temp_dir.hpp"

using cuvet::rules::Database;
using cuvet::test::TempDir;

namespace {

// The error message loading `dir` produces (empty when it loads).
std::string load_error(const TempDir& dir) {
    try {
        Database::load(dir.path());
    } catch (const cuvet::Error& e) {
        CHECK(e.kind() == cuvet::ErrorKind::input);
        return e.what();
    }
    return {};
}

}  // namespace

TEST_CASE("rules-dir overrides one table and keeps the others built in", "[rules][loader]") {
    TempDir dir;
    auto gpus = cuvet::test::builtin_table("gpus.json");
    gpus["data_version"] = "test-override";
    cuvet::test::write_file(dir / "gpus.json", gpus.dump());
    auto db = Database::load(dir.path());
    for (const auto& table : db.tables()) {
        if (table.name == "gpus") {
            CHECK(table.data_version == "test-override");
            CHECK(table.origin == (dir / "gpus.json").string());
        } else {
            CHECK(table.origin.find("built-in") != std::string::npos);
        }
    }
}

TEST_CASE("a bad rules file names its path and the JSON pointer", "[rules][loader]") {
    TempDir dir;
    std::string path = (dir / "cuda_drivers.json").string();
    auto drivers = cuvet::test::builtin_table("cuda_drivers.json");

    SECTION("wrong type") {
        drivers["entries"][3]["min_driver"] = 5;
        cuvet::test::write_file(path, drivers.dump());
        CHECK(load_error(dir) == path +
                                     ": /entries/3/min_driver: expected a version string "
                                     "(numbers separated by dots, e.g. \"12.4.1\")");
    }
    SECTION("not a version") {
        drivers["entries"][0]["cuda"] = "thirteen";
        cuvet::test::write_file(path, drivers.dump());
        CHECK(load_error(dir).find(path + ": /entries/0/cuda: expected a version string") == 0);
    }
    SECTION("missing key") {
        drivers["entries"][1].erase("release");
        cuvet::test::write_file(path, drivers.dump());
        CHECK(load_error(dir) == path + ": /entries/1: missing required key 'release'");
    }
    SECTION("typo in a key") {
        drivers["entries"][2]["min_drvier"] = "1.0";
        cuvet::test::write_file(path, drivers.dump());
        CHECK(load_error(dir) == path + ": /entries/2/min_drvier: unexpected key 'min_drvier'");
    }
    SECTION("source that names nothing") {
        drivers["entries"][4]["source"] = "nowhere";
        cuvet::test::write_file(path, drivers.dump());
        CHECK(load_error(dir) ==
              path + ": /entries/4/source: unknown source 'nowhere' (not in /sources)");
    }
    SECTION("bad confidence") {
        drivers["entries"][4]["confidence"] = "high";
        cuvet::test::write_file(path, drivers.dump());
        CHECK(load_error(dir).find(path + ": /entries/4/confidence: expected one of") == 0);
    }
    SECTION("table name does not match the file") {
        drivers["table"] = "gpus";
        cuvet::test::write_file(path, drivers.dump());
        CHECK(load_error(dir) == path + ": /table: expected \"cuda_drivers\" (the file name)");
    }
    SECTION("invalid JSON names the line") {
        cuvet::test::write_file(path, "{\n  \"table\": \"cuda_drivers\",\n  oops\n}\n");
        CHECK(load_error(dir).find(path + ": line 3: invalid JSON") == 0);
    }
    SECTION("root is not an object") {
        cuvet::test::write_file(path, "[1, 2]");
        CHECK(load_error(dir) == path + ": /: expected an object");
    }
}

TEST_CASE("deeper pointers in nested tables", "[rules][loader]") {
    TempDir dir;
    std::string path = (dir / "cudnn.json").string();
    auto cudnn = cuvet::test::builtin_table("cudnn.json");
    cudnn["releases"][1]["builds"][0]["cuda"][1] = "12.4";  // 9.17.0's CUDA 13 build
    cuvet::test::write_file(path, cudnn.dump());
    CHECK(load_error(dir) == path + ": /releases/1/builds/0/cuda/1: CUDA 12.4 is not of major 13");
}

TEST_CASE("an unknown file in --rules-dir is refused", "[rules][loader]") {
    TempDir dir;
    cuvet::test::write_file(dir / "cudnn_typo.json", "{}");
    CHECK(load_error(dir).find("unknown rules table 'cudnn_typo'") != std::string::npos);
}

TEST_CASE("a missing --rules-dir is an io error", "[rules][loader]") {
    try {
        Database::load(std::filesystem::path("/nonexistent/rules"));
        FAIL("no error");
    } catch (const cuvet::Error& e) {
        CHECK(e.kind() == cuvet::ErrorKind::io);
    }
}

TEST_CASE("error_texts: version_format and ld_library_path_hint are checked", "[rules][loader]") {
    TempDir dir;
    std::string path = (dir / "frameworks.json").string();
    auto frameworks = cuvet::test::builtin_table("frameworks.json");
    SECTION("an unknown number format") {
        frameworks["error_texts"][0]["version_format"] = "roman";
        cuvet::test::write_file(path, frameworks.dump());
        CHECK(load_error(dir) ==
              path +
                  ": /error_texts/0/version_format: expected \"dotted\", \"tuple\" or \"encoded\"");
    }
    SECTION("a hint that is not a boolean") {
        frameworks["error_texts"][0]["ld_library_path_hint"] = "yes";
        cuvet::test::write_file(path, frameworks.dump());
        CHECK(load_error(dir).find(path + ": /error_texts/0/ld_library_path_hint: expected") == 0);
    }
    SECTION("the cuDNN load rules no longer carry words (error_texts do)") {
        frameworks["cudnn_load_rules"][0]["message"] = "text";
        cuvet::test::write_file(path, frameworks.dump());
        CHECK(load_error(dir) == path + ": /cudnn_load_rules/0/message: unexpected key 'message'");
    }
}

// consumer_needs names frameworks of the catalog and sonames of its cuDNN major: a typo would
// silently never match an install, and judge it by cuDNN's split instead.
TEST_CASE("cudnn consumer_needs: an unknown framework or soname is refused",
          "[rules][loader][sublib-need]") {
    TempDir dir;
    std::string path = (dir / "cudnn.json").string();
    auto cudnn = cuvet::test::builtin_table("cudnn.json");
    std::size_t nine = 0;
    while (cudnn["sonames"][nine]["major"] != 9) ++nine;
    auto& need = cudnn["sonames"][nine]["consumer_needs"][0];
    const std::string at = path + ": /sonames/" + std::to_string(nine) + "/consumer_needs/0/";
    SECTION("the built-in table loads") { CHECK(load_error(dir).empty()); }
    SECTION("a framework outside the catalog") {
        need["framework"] = "pytorch-nightly";
        cuvet::test::write_file(path, cudnn.dump());
        CHECK(load_error(dir).find(at + "framework: 'pytorch-nightly' is not a framework") == 0);
    }
    SECTION("a soname of no cuDNN 9 library") {
        need["convolution_opens"][0] = "libcudnn_graph.so.8";
        cuvet::test::write_file(path, cudnn.dump());
        CHECK(load_error(dir).find(at + "convolution_opens: 'libcudnn_graph.so.8'") == 0);
    }
}
