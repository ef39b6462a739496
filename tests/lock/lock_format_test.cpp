// The lock file forms (docs/freeze.md): round trips, canonical order, and bad
// files as one error line naming the file and line.
#include <catch2/catch.hpp>
#include <set>

#include "cuvet/core/error.hpp"
#include "cuvet/lock/lock.hpp"

using namespace cuvet;

namespace {

const char* const sample_lock =
    "# a comment\n"
    "lock-schema 1\n"
    "library family=cudnn path=/usr/lib/libcudnn.so.8.6.0 version=8.6.0 owner=\"dpkg libcudnn8 "
    "8.6.0.163-1+cuda11.8\"\n"
    "framework name=pytorch version=2.1.0 variant=cu121 cudnn=8.9.2.26 "
    "cudnn-rule=same_major_minor_at_least\n"
    "runtime-start mode=nvidia ld-library-path=\"/a b:/c\"\n";

std::string error_of(const std::string& text) {
    try {
        lock::parse(text, "x.lock");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::input);
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("lock text: records come back sorted by kind and quoted where needed", "[lock]") {
    const auto lock = lock::parse(sample_lock, "x.lock");
    REQUIRE(lock.records.size() == 3);
    CHECK(lock.records[0].kind == "runtime-start");
    CHECK(lock.records[1].kind == "framework");
    CHECK(lock.records[2].get("owner") == "dpkg libcudnn8 8.6.0.163-1+cuda11.8");
    const std::string text = lock::to_text(lock);
    CHECK(text.find("ld-library-path=\"/a b:/c\"") != std::string::npos);
    CHECK(text.find("path=/usr/lib/libcudnn.so.8.6.0 ") != std::string::npos);
    // Parsing the canonical text again gives the same bytes; the JSON form gives the same records.
    CHECK(lock::to_text(lock::parse(text, "y.lock")) == text);
    CHECK(lock::to_text(lock::parse(lock::to_json(lock).dump(2), "y.json")) == text);
}

TEST_CASE("lock text: bad files are one line naming the file and line", "[lock]") {
    CHECK(error_of("hello\n") == "x.lock:1: not a cuvet lock file (expected 'lock-schema 1')");
    CHECK(error_of("lock-schema 2\n") == "x.lock:1: lock schema 2 is not one this cuvet reads (1)");
    CHECK(error_of("# only\n") == "x.lock: not a cuvet lock file (no 'lock-schema' line)");
    CHECK(error_of("lock-schema 1\nwidget a=b\n") ==
          "x.lock:2: unknown record kind 'widget' (docs/freeze.md lists them)");
    CHECK(error_of("lock-schema 1\nframework name=torch\n") ==
          "x.lock:2: framework record without its 'version' field");
    CHECK(error_of("lock-schema 1\nframework name=t version=1 colour=red\n") ==
          "x.lock:2: framework record has no field 'colour'");
    CHECK(error_of("lock-schema 1\nenv name=A name=B\n") == "x.lock:2: field 'name' given twice");
    CHECK(error_of("lock-schema 1\nenv name=\"A\n") ==
          "x.lock:2: unterminated quoted value of 'name'");
    CHECK(error_of("lock-schema 1\nenv name\n") == "x.lock:2: expected key=value, found 'name'");
    CHECK(error_of("{\"lock_schema\": 1, \"records\": [{\"kind\": \"env\", \"name\": 3}]}") ==
          "x.lock: records[0]: field 'name' is not a string");
    CHECK(error_of("{\"lock_schema\": 1") == "x.lock: not valid JSON");
}

TEST_CASE("lock diff: a cuDNN the framework refuses breaks it, by name", "[lock]") {
    const auto before = lock::parse(
        "lock-schema 1\n"
        "framework name=pytorch version=2.1.0 cudnn=8.9.2.26 cudnn-rule=same_major_minor_at_least\n"
        "library family=cudnn path=/w/libcudnn.so.8 version=8.9.2.26 loaded-by=x\n"
        "driver-floor version=525.60.13\n"
        "framework-arch framework=pytorch file=lib/libtorch_cuda.so sass=sm_70,sm_80 "
        "ptx=compute_80\n",
        "a");
    const auto after = lock::parse(
        "lock-schema 1\n"
        "framework name=pytorch version=2.1.0 cudnn=8.9.2.26 cudnn-rule=same_major_minor_at_least\n"
        "library family=cudnn path=/usr/lib/libcudnn.so.8.6.0 version=8.6.0 loaded-by=x\n"
        "driver-floor version=535.54.03\n"
        "framework-arch framework=pytorch file=lib/libtorch_cuda.so sass=sm_80 ptx=compute_80\n",
        "b");
    const auto changes = lock::diff(before, after);
    std::multiset<std::string> kinds;
    for (const auto& c : changes)
        kinds.insert(std::string(lock::impact_name(c.impact)) + " " + c.kind);
    CHECK(kinds == std::multiset<std::string>{"breaks cudnn-refused", "breaks driver-floor-up",
                                              "breaks arch-dropped", "may-break library-moved"});
    REQUIRE(!changes.empty());
    CHECK(changes.front().impact == lock::Impact::breaks);
    for (const auto& c : changes)
        if (c.kind == "cudnn-refused") CHECK(c.subject == "pytorch 2.1.0");
    CHECK(lock::diff(before, before).empty());
    // Still accepted (8.9.2 → 8.9.1 under a pin of 8.9): may break, does not break.
    const auto patch_down = lock::parse(
        "lock-schema 1\nframework name=pytorch version=2.1.0 cudnn=8.9.2.26 "
        "cudnn-rule=same_major_minor_at_least\n"
        "library family=cudnn path=/w/libcudnn.so.8 version=8.9.1.23 loaded-by=x\n"
        "driver-floor version=525.60.13\n"
        "framework-arch framework=pytorch file=lib/libtorch_cuda.so sass=sm_70,sm_80 "
        "ptx=compute_80\n",
        "c");
    const auto soft = lock::diff(before, patch_down);
    REQUIRE(soft.size() == 1);
    CHECK(soft[0].impact == lock::Impact::may_break);
    CHECK(soft[0].kind == "cudnn-downgrade");
}
