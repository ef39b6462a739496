// Issue 22: what reading an ELF costs is bounded by the bytes really there
// and by the scan limits, never by what the file declares. Sparse holes are
// skipped (not stored), kept bytes stop at file-bytes, and lists a hostile
// file inflates (DT_NEEDED, search paths, symbols) stop at their limits with
// LimitExceeded instead of costing minutes and gigabytes.
#include <catch2/catch.hpp>

#include "cuvet/core/scan_limits.hpp"
#include "cuvet/core/scratch_buffer.hpp"
#include "cuvet/elf/elf_info.hpp"
#include "cuvet/elf/elf_stream.hpp"
#include "support/elf_fixtures.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/skip.hpp"

using namespace cuvet;
namespace fs = std::filesystem;

namespace {

// Restores the default limits when a test ends, whatever it set.
struct LimitsGuard {
    ~LimitsGuard() { set_scan_limits(ScanLimits{}); }
};

std::optional<elf::ElfInfo> stream(std::string_view bytes, std::uint64_t declared, ScratchBuffer& buffer,
                                   std::uint64_t second_at = 0, std::string_view second = {}) {
    elf::ElfStream elf(declared, buffer);
    elf.write(bytes, 0);
    if (!second.empty()) elf.write(second, second_at);
    return elf.finish();
}

// A copy of a gcc-built library changed by patchelf `arguments`; empty
// when patchelf is missing.
std::string patched(const fs::path& library, const std::string& arguments, const test::TempDir& tmp) {
    if (test::run_shell("command -v patchelf").exit_code != 0) return "";
    const fs::path copy = tmp / "patched.so";
    fs::remove(copy);
    fs::copy_file(library, copy);
    REQUIRE(test::run_shell("patchelf " + arguments + " " + test::shell_quote(copy.string())).exit_code == 0);
    return test::read_file(copy);
}

std::string add_needed(int count) {
    std::string arguments;
    for (int i = 0; i < count; ++i) arguments += " --add-needed libdep" + std::to_string(i) + ".so";
    return arguments;
}

}  // namespace

TEST_CASE("limits: a sparse hole of 64 GiB after a library is skipped, not stored", "[elf][limits]") {
    const auto& fixtures = test::elf_fixtures();
    REQUIRE(fixtures.error.empty());
    const std::string bytes = test::read_file(fixtures.user);
    const auto whole = elf::inspect(bytes);
    REQUIRE(whole);
    ScratchBuffer buffer;
    const std::uint64_t declared = 64ull << 30;
    // The library's bytes, then a data block at the end of a 64 GiB file.
    const auto sparse = stream(bytes, declared, buffer, declared - 4096, std::string(4096, 'x'));
    REQUIRE(sparse);
    CHECK(sparse->soname == whole->soname);
    CHECK(sparse->needed == whole->needed);
    CHECK(sparse->rpath == whole->rpath);
    CHECK(sparse->exported_symbols == whole->exported_symbols);
    CHECK(sparse->dlopen_candidates == whole->dlopen_candidates);
    // 16 MB is the buffer's smallest step: nothing of the hole was stored.
    CHECK(buffer.capacity() <= (16u << 20));
}

TEST_CASE("limits: a small sparse gap reads as the zeros it is", "[elf][limits]") {
    const auto& fixtures = test::elf_fixtures();
    REQUIRE(fixtures.error.empty());
    const std::string bytes = test::read_file(fixtures.user);
    // The same file with a run of its own zero padding left out as a gap.
    const std::size_t from = bytes.find(std::string(512, '\0'), 64);
    REQUIRE(from != std::string::npos);
    std::size_t to = from;
    while (to < bytes.size() && bytes[to] == '\0') ++to;
    REQUIRE(to < bytes.size());
    ScratchBuffer buffer;
    elf::ElfStream elf(bytes.size(), buffer);
    elf.write(std::string_view(bytes).substr(0, from), 0);
    elf.write(std::string_view(bytes).substr(to), to);
    const auto streamed = elf.finish();
    REQUIRE(streamed);
    CHECK(*streamed == *elf::inspect(bytes));
}

TEST_CASE("limits: ELF bytes past file-bytes stop with the limit, not with memory", "[elf][limits]") {
    LimitsGuard guard;
    const auto& fixtures = test::elf_fixtures();
    REQUIRE(fixtures.error.empty());
    std::string bytes = test::read_file(fixtures.user);
    ScanLimits limits;
    limits.file_bytes = 1 << 20;
    set_scan_limits(limits);
    ScratchBuffer buffer;
    CHECK(stream(bytes, bytes.size(), buffer));  // under the limit: facts as ever
    bytes.resize(2 << 20, '\0');                 // an ELF followed by 2 MB of zeros
    try {
        stream(bytes, bytes.size(), buffer);
        FAIL("no LimitExceeded");
    } catch (const LimitExceeded& error) {
        const std::string message = error.with_file("/usr/lib/libhuge.so").what();
        CHECK(message.find("/usr/lib/libhuge.so: ") == 0);
        CHECK(message.find("file-bytes=1M") != std::string::npos);
        CHECK(message.find('\n') == std::string::npos);
    }
}

TEST_CASE("limits: more DT_NEEDED entries than needed= allows", "[elf][limits]") {
    LimitsGuard guard;
    const auto& fixtures = test::elf_fixtures();
    REQUIRE(fixtures.error.empty());
    test::TempDir tmp;
    const std::string bytes = patched(fixtures.base, add_needed(1100), tmp);
    if (bytes.empty()) {
        CUVET_SKIP("patchelf is not installed");
    }
    CHECK_THROWS_AS(elf::inspect(bytes), LimitExceeded);
    ScratchBuffer buffer;
    CHECK_THROWS_WITH(stream(bytes, bytes.size(), buffer),
                      Catch::Contains("more than 1024 DT_NEEDED entries") && Catch::Contains("needed=1024"));
    // Raised, the same file reads in full.
    set_scan_limit("needed=2000");
    const auto info = elf::inspect(bytes);
    REQUIRE(info);
    CHECK(info->needed.size() == 1100 + elf::inspect(test::read_file(fixtures.base))->needed.size());
    // The names' bytes are a limit of their own (a million entries may name one long string).
    set_scan_limit("dynamic-bytes=4K");
    CHECK_THROWS_WITH(elf::inspect(bytes), Catch::Contains("dynamic-bytes=4K"));
}

TEST_CASE("limits: symbols and search paths stop at their limits", "[elf][limits]") {
    LimitsGuard guard;
    const auto& fixtures = test::elf_fixtures();
    REQUIRE(fixtures.error.empty());
    const std::string bytes = test::read_file(fixtures.base);
    const auto info = elf::inspect(bytes);
    REQUIRE(info);
    REQUIRE(info->exported_symbols.size() > 2);
    set_scan_limit("symbols=2");
    CHECK_THROWS_WITH(elf::inspect(bytes), Catch::Contains("dynamic symbols") && Catch::Contains("symbols=2"));
    set_scan_limits(ScanLimits{});
    set_scan_limit("symbol-bytes=8");
    CHECK_THROWS_WITH(elf::inspect(bytes), Catch::Contains("symbol-bytes=8"));

    set_scan_limits(ScanLimits{});
    test::TempDir tmp;
    const std::string three = patched(fixtures.base, "--set-rpath /a:/b:/c", tmp);
    if (three.empty()) {
        CUVET_SKIP("patchelf is not installed");
    }
    set_scan_limit("search-paths=3");
    CHECK(elf::inspect(three)->rpath.size() + elf::inspect(three)->runpath.size() == 3);
    set_scan_limit("search-paths=2");
    CHECK_THROWS_WITH(elf::inspect(three), Catch::Contains("DT_RPATH/DT_RUNPATH entries") &&
                                               Catch::Contains("search-paths=2"));
}

TEST_CASE("limits: --limit values are checked", "[elf][limits]") {
    LimitsGuard guard;
    set_scan_limit("file-bytes=2G");
    CHECK(scan_limits().file_bytes == (2ull << 30));
    set_scan_limit("needed=7");
    CHECK(scan_limits().needed == 7);
    CHECK(describe_scan_limits().find("needed=7") != std::string::npos);
    CHECK_THROWS_AS(set_scan_limit("needed"), Error);
    CHECK_THROWS_AS(set_scan_limit("nonsense=3"), Error);
    CHECK_THROWS_AS(set_scan_limit("needed=0"), Error);
    CHECK_THROWS_AS(set_scan_limit("needed=7K"), Error);  // counts take no suffix
    CHECK_THROWS_AS(set_scan_limit("file-bytes=-1"), Error);
    CHECK_THROWS_AS(set_scan_limit("file-bytes=99999999999T"), Error);
}
