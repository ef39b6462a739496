// Issue 22: what reading an ELF costs is bounded by the bytes really there
// and by the scan limits, never by what the file declares. Sparse holes are
// skipped (not stored), a streamed file's bytes are held only up to elf-held
// (the rest is scanned and forgotten), and lists a hostile
// file inflates (DT_NEEDED, search paths, symbols) stop at their limits with
// LimitExceeded instead of costing minutes and gigabytes.
#include <catch2/catch.hpp>

#include "cuvet/core/scan_limits.hpp"
#include "cuvet/core/scratch_buffer.hpp"
#include "cuvet/elf/elf_info.hpp"
#include "cuvet/elf/elf_stream.hpp"
#include "support/elf_fixtures.hpp"
#include "support/fatbin_builder.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
namespace fs = std::filesystem;

namespace {

// Restores the default limits when a test ends, whatever it set.
struct LimitsGuard {
    ~LimitsGuard() { set_scan_limits(ScanLimits{}); }
};

std::optional<elf::ElfInfo> stream(std::string_view bytes, std::uint64_t declared,
                                   ScratchBuffer& buffer, std::uint64_t second_at = 0,
                                   std::string_view second = {}) {
    elf::ElfStream elf(declared, buffer);
    elf.write(bytes, 0);
    if (!second.empty()) elf.write(second, second_at);
    return elf.finish();
}

// A copy of a gcc-built library changed by patchelf `arguments`; empty
// when patchelf is missing.
std::string patched(const fs::path& library, const std::string& arguments,
                    const test::TempDir& tmp) {
    if (test::run_shell("command -v patchelf").exit_code != 0) return "";
    const fs::path copy = tmp / "patched.so";
    fs::remove(copy);
    fs::copy_file(library, copy);
    REQUIRE(test::run_shell("patchelf " + arguments + " " + test::shell_quote(copy.string()))
                .exit_code == 0);
    return test::read_file(copy);
}

std::string add_needed(int count) {
    std::string arguments;
    for (int i = 0; i < count; ++i) arguments += " --add-needed libdep" + std::to_string(i) + ".so";
    return arguments;
}

}  // namespace

TEST_CASE("limits: a sparse hole of 64 GiB after a library is skipped, not stored",
          "[elf][limits]") {
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

TEST_CASE("limits: a streamed ELF is held in bounded memory whatever its size", "[elf][limits]") {
    const auto& fixtures = test::elf_fixtures();
    REQUIRE(fixtures.error.empty());
    const std::string bytes = test::read_file(fixtures.user);
    const auto whole = elf::inspect(bytes);
    REQUIRE(whole);
    // The library, then 96 MiB of zeros that arrive as data (a compressed
    // layer's zeros, not a sparse hole): only the first 16 MiB
    // (elf-held=64M / 4) and the tables the headers locate are held.
    const std::uint64_t declared = bytes.size() + (96u << 20);
    const std::string zeros(1u << 20, '\0');
    ScratchBuffer buffer;
    elf::ElfStream stream(declared, buffer);
    stream.write(bytes, 0);
    for (std::uint64_t at = bytes.size(); at < declared; at += zeros.size())
        stream.write(zeros, at);
    const auto streamed = stream.finish();
    REQUIRE(streamed);
    CHECK(*streamed == *whole);
    // 16 MiB is the buffer's smallest step; before, it held all 96 MiB.
    CHECK(buffer.capacity() <= (16u << 20));
}

TEST_CASE("limits: tables a stream did not keep fail closed with elf-held", "[elf][limits]") {
    LimitsGuard guard;
    test::TempDir tmp;
    // A library whose dynamic string table runs past its first 4 KiB: 200
    // exported functions with long names.
    std::string source;
    for (int i = 0; i < 200; ++i)
        source += "int exported_function_with_a_rather_long_name_" + std::to_string(i) +
                  "(void) { return " + std::to_string(i) + "; }\n";
    test::write_file(tmp / "big.c", source);
    const auto built =
        test::run_shell("cd " + test::shell_quote(tmp.path().string()) +
                        " && gcc -shared -fPIC -Wl,-soname,libbig.so.1 -o libbig.so big.c");
    REQUIRE(built.exit_code == 0);
    std::string bytes = test::read_file(tmp / "libbig.so");
    const auto whole = elf::inspect(bytes);
    REQUIRE(whole);
    REQUIRE(whole->exported_symbols.size() >= 200);
    bytes.resize(bytes.size() + (1u << 20), '\0');  // bigger than what is held: not kept whole
    ScratchBuffer buffer;
    {
        const auto streamed = stream(bytes, bytes.size(), buffer);
        REQUIRE(streamed);
        CHECK(*streamed == *whole);
    }
    // Held: the first 4 KiB only. The string table starts in it and runs on,
    // and .dynamic (which locates it) comes after it: its names are gone
    // when they are known to be needed. Not a library with fewer symbols.
    ScanLimits limits;
    limits.elf_held = 16u << 10;
    set_scan_limits(limits);
    try {
        stream(bytes, bytes.size(), buffer);
        FAIL("no LimitExceeded");
    } catch (const LimitExceeded& error) {
        const std::string message = error.with_file("/usr/lib/libbig.so").what();
        CHECK(message.find(
                  "/usr/lib/libbig.so: ELF tables lie in bytes a streamed read does not keep") ==
              0);
        CHECK(message.find("elf-held=16K") != std::string::npos);
        CHECK(message.find('\n') == std::string::npos);
    }
}

// A C array initialiser holding `bytes`.
std::string c_bytes(const std::string& bytes) {
    std::string out;
    for (unsigned char c : bytes) out += std::to_string(c) + ",";
    return out;
}

TEST_CASE(
    "limits: section names a streamed read did not keep still name their sections (lld layout)",
    "[elf][limits]") {
    LimitsGuard guard;
    if (test::run_shell("command -v clang-14 && command -v ld.lld").exit_code != 0) {
        CUVET_SKIP("clang-14 or ld.lld is not installed");
    }
    test::TempDir tmp;
    // As JAX's and Triton's libraries are linked: lld writes .shstrtab before
    // .strtab, so a big symbol table (here 5000 long local names, 1.5 MB)
    // separates the section names from the section headers at the end.
    std::string source =
        "__attribute__((section(\".nv_fatbin\"), used)) static const unsigned char fatbin[] = {" +
        c_bytes(test::fatbin_container({test::fatbin_entry(2, 80), test::fatbin_entry(1, 90)})) +
        "};\n"
        "const char* which(int i) { return i ? \"libcublasLt.so.13\" : \"libcudnn_ops.so.9\"; }\n"
        "const char* release(void) { return \"cudnn_version_9_19_0_56_\"; }\n";
    for (int i = 0; i < 5000; ++i)
        source +=
            "__attribute__((used)) static int "
            "local_function_whose_name_is_long_enough_to_fill_a_table_" +
            std::string(240, 'x') + std::to_string(i) + "(void) { return " + std::to_string(i) +
            "; }\n";
    test::write_file(tmp / "graph.c", source);
    const auto built =
        test::run_shell("cd " + test::shell_quote(tmp.path().string()) +
                        " && clang-14 -shared -fPIC -fuse-ld=lld -Wl,-soname,libcudnn_graph.so.9"
                        " -o libcudnn_graph.so.9 graph.c 2>&1");
    INFO(built.out);
    REQUIRE(built.exit_code == 0);
    const std::string bytes = test::read_file(tmp / "libcudnn_graph.so.9");
    const auto whole = elf::inspect(bytes);
    REQUIRE(whole);
    REQUIRE(whole->cudnn_release == "9.19.0");
    REQUIRE(whole->sass_archs == std::vector<int>{80});
    REQUIRE(whole->dlopen_candidates.size() == 2);
    // Held: 16 KiB from the start (elf-held=64K / 4) and the tables the
    // headers locate; .rodata, .nv_fatbin and .shstrtab all go by unkept.
    ScanLimits limits;
    limits.elf_held = 64u << 10;
    set_scan_limits(limits);
    ScratchBuffer buffer;
    const auto streamed = stream(bytes, bytes.size(), buffer);
    REQUIRE(streamed);
    CHECK(*streamed == *whole);
    CHECK(buffer.capacity() <= (16u << 20));
}

TEST_CASE("limits: tables patchelf moved past the section headers are kept (auditwheel layout)",
          "[elf][limits]") {
    LimitsGuard guard;
    const auto& fixtures = test::elf_fixtures();
    REQUIRE(fixtures.error.empty());
    test::TempDir tmp;
    // A longer run path does not fit the old .dynstr: patchelf writes a new
    // one in a segment after the section headers, as auditwheel leaves torch's.
    std::string bytes =
        patched(fixtures.user, "--set-rpath /opt/" + std::string(3000, 'r') + "/lib", tmp);
    if (bytes.empty()) {
        CUVET_SKIP("patchelf is not installed");
    }
    const auto whole = elf::inspect(bytes);
    REQUIRE(whole);
    const auto& paths = whole->has_runpath ? whole->runpath : whole->rpath;
    REQUIRE(paths.size() == 1);
    REQUIRE(paths[0].size() > 3000);
    ScanLimits limits;
    limits.elf_held = 16u << 10;
    set_scan_limits(limits);
    ScratchBuffer buffer;
    const auto streamed = stream(bytes, bytes.size(), buffer);
    REQUIRE(streamed);
    CHECK(*streamed == *whole);
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
    CHECK_THROWS_WITH(
        stream(bytes, bytes.size(), buffer),
        Catch::Contains("more than 1024 DT_NEEDED entries") && Catch::Contains("needed=1024"));
    // Raised, the same file reads in full.
    set_scan_limit("needed=2000");
    const auto info = elf::inspect(bytes);
    REQUIRE(info);
    CHECK(info->needed.size() ==
          1100 + elf::inspect(test::read_file(fixtures.base))->needed.size());
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
    CHECK_THROWS_WITH(elf::inspect(bytes),
                      Catch::Contains("dynamic symbols") && Catch::Contains("symbols=2"));
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
