// ElfStream (facts of a file that streams by, fatbin payloads skipped) must
// give exactly what elf::inspect gives for the whole file: over a gcc-built
// library carrying hand-built fatbins, every fixture, and every CUDA library.
#include "cuvet/elf/elf_stream.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <random>

#include "cuvet/elf/fatbin.hpp"
#include "elf/elf_file.hpp"
#include "elf/inspect_scanned.hpp"
#include "support/elf_fixtures.hpp"
#include "support/fatbin_builder.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
using cuvet::test::fatbin_container;
namespace fs = std::filesystem;

namespace {

// Payload text that would be found if anything read a hole.
std::string sized_entry(std::uint16_t kind, std::uint32_t arch, std::size_t payload) {
    return test::fatbin_entry(kind, arch, 64, payload, "libcudnn.so.7 ");
}

void check_same(const elf::ElfInfo& a, const elf::ElfInfo& b) {
    CHECK(a.is_64bit == b.is_64bit);
    CHECK(a.machine == b.machine);
    CHECK(a.type == b.type);
    CHECK(a.soname == b.soname);
    CHECK(a.needed == b.needed);
    CHECK(a.rpath == b.rpath);
    CHECK(a.runpath == b.runpath);
    CHECK(a.has_rpath == b.has_rpath);
    CHECK(a.has_runpath == b.has_runpath);
    CHECK(a.version_needs == b.version_needs);
    CHECK(a.version_definitions == b.version_definitions);
    CHECK(a.imported_symbols == b.imported_symbols);
    CHECK(a.exported_symbols == b.exported_symbols);
    CHECK(a.weak_imported_symbols == b.weak_imported_symbols);
    CHECK(a.sass_archs == b.sass_archs);
    CHECK(a.ptx_archs == b.ptx_archs);
    CHECK(a.has_fatbin == b.has_fatbin);
    CHECK(a.fatbin_sources == b.fatbin_sources);
    CHECK(a.dlopen_candidates == b.dlopen_candidates);
    CHECK(a == b);  // and whatever field comes next
}

// Streams `bytes` in blocks of random sizes up to `max_block` through a
// buffer that still holds another file's bytes (stale data must not matter).
std::optional<elf::ElfInfo> streamed(std::string_view bytes, std::size_t max_block, unsigned seed,
                                     ScratchBuffer& buffer) {
    buffer.reserve(bytes.size());
    for (std::size_t i = 0; i + 4 <= bytes.size(); i += 8)
        std::memcpy(buffer.data() + i, "\x50\xED\x55\xBA", 4);
    std::mt19937 random(seed);
    std::uniform_int_distribution<std::size_t> size(1, max_block);
    elf::ElfStream stream(bytes.size(), buffer);
    std::size_t at = 0;
    while (at < bytes.size()) {
        const std::size_t n = std::min(size(random), bytes.size() - at);
        stream.write(bytes.substr(at, n), at);
        at += n;
    }
    return stream.finish();
}

// A gcc-built library with a .nv_fatbin of two containers (100 KB and 40 KB
// SASS payloads, a small PTX one) and a .ldata holding one more among data.
struct GpuLibrary {
    test::TempDir dir;
    fs::path path;
    std::string error;
};

const GpuLibrary& gpu_library() {
    static GpuLibrary lib;
    static bool built = false;
    if (!built) {
        built = true;
        GpuLibrary& out = lib;
        test::write_file(out.dir / "lib.c",
                         "const char *names[] = {\"libcudnn.so.9\", \"libcublasLt.so.13\"};\n"
                         "int answer(void) { return 42; }\n");
        test::write_file(
            out.dir / "fatbin.bin",
            fatbin_container({sized_entry(2, 80, 100 * 1024), sized_entry(1, 90, 1024)}) +
                fatbin_container({sized_entry(2, 90, 40 * 1024), sized_entry(8, 75, 64)}));
        test::write_file(out.dir / "ldata.bin",
                         std::string(24, 'x') + fatbin_container({sized_entry(2, 120, 20 * 1024)}) +
                             std::string(24, 'y'));
        out.path = out.dir / "libgpu.so";
        const std::string d = test::shell_quote(out.dir.path().string());
        auto made = test::run_shell(
            "cd " + d +
            " && gcc -shared -fPIC -Wl,-soname,libgpu.so.1 -o plain.so lib.c && "
            "objcopy --add-section .nv_fatbin=fatbin.bin --set-section-alignment .nv_fatbin=8 "
            "--add-section .ldata=ldata.bin --set-section-alignment .ldata=8 plain.so libgpu.so");
        if (made.exit_code != 0) out.error = made.err;
    }
    return lib;
}

}  // namespace

TEST_CASE("a library's fatbin payloads become holes that no fact depends on", "[elf][stream]") {
    const auto& lib = gpu_library();
    REQUIRE(lib.error.empty());
    const std::string bytes = test::read_file(lib.path);
    const auto scan = elf::detail::scan_whole_file(bytes);
    CHECK(scan.containers.size() == 3);
    // 100 KB, 40 KB and 20 KB payloads are skipped; the 1 KB and 64-byte ones are kept.
    REQUIRE(scan.holes.size() == 3);
    std::vector<std::uint64_t> sizes;
    for (const auto& hole : scan.holes) sizes.push_back(hole.size);
    std::sort(sizes.begin(), sizes.end());
    CHECK(sizes == std::vector<std::uint64_t>{20 * 1024, 40 * 1024, 100 * 1024});

    const auto whole = elf::inspect(bytes);
    REQUIRE(whole);
    CHECK(whole->soname == "libgpu.so.1");
    CHECK(whole->sass_archs == std::vector<int>{80, 90, 120});
    CHECK(whole->ptx_archs == std::vector<int>{90});
    REQUIRE(whole->fatbin_sources.size() == 2);
    CHECK(whole->fatbin_sources[0].section == ".nv_fatbin");
    CHECK(whole->fatbin_sources[0].containers == 2);
    CHECK(whole->fatbin_sources[1].section == ".ldata");
    CHECK(whole->dlopen_candidates ==
          std::vector<std::string>{"libcudnn.so.9", "libcublasLt.so.13"});

    ScratchBuffer buffer;
    for (std::size_t max_block : {std::size_t{1} << 20, std::size_t{4096}, std::size_t{7}}) {
        INFO("blocks up to " << max_block);
        auto streamed_info = streamed(bytes, max_block, 7, buffer);
        REQUIRE(streamed_info);
        check_same(*streamed_info, *whole);
    }
}

TEST_CASE("a block may end anywhere around a hole", "[elf][stream]") {
    // Regression: a container found in the middle of a copy step whose
    // payload ended exactly at the step's end left the scanner reading the
    // wrong bytes (found on libcufft's .ldata by bench/elf_facts).
    const auto& lib = gpu_library();
    REQUIRE(lib.error.empty());
    const std::string bytes = test::read_file(lib.path);
    const auto whole = elf::inspect(bytes);
    REQUIRE(whole);
    std::vector<std::uint64_t> splits;
    for (const auto& hole : elf::detail::scan_whole_file(bytes).holes) {
        for (std::uint64_t at : {hole.offset, hole.offset + hole.size}) {
            for (std::uint64_t delta = 0; delta <= 2; ++delta) {
                splits.push_back(at - delta);
                splits.push_back(at + delta);
            }
        }
    }
    ScratchBuffer buffer;
    for (std::uint64_t split : splits) {
        INFO("split at " << split);
        elf::ElfStream stream(bytes.size(), buffer);
        stream.write(std::string_view(bytes).substr(0, split), 0);
        stream.write(std::string_view(bytes).substr(split), split);
        auto streamed_info = stream.finish();
        REQUIRE(streamed_info);
        check_same(*streamed_info, *whole);
    }
}

TEST_CASE("streamed facts equal whole-file facts for every fixture", "[elf][stream]") {
    const auto& fixtures = test::elf_fixtures();
    REQUIRE(fixtures.error.empty());
    ScratchBuffer buffer;
    for (const fs::path& path : {fixtures.base, fixtures.user, fixtures.runpath, fixtures.exe,
                                 fixtures.lib32, fixtures.cuda}) {
        if (path.empty()) continue;
        INFO(path.string());
        const std::string bytes = test::read_file(path);
        const auto whole = elf::inspect(bytes);
        REQUIRE(whole);
        for (unsigned seed = 1; seed <= 3; ++seed) {
            auto streamed_info = streamed(bytes, 3000, seed, buffer);
            REQUIRE(streamed_info);
            check_same(*streamed_info, *whole);
        }
    }
}

TEST_CASE("streamed facts and fatbin facts of every CUDA library", "[elf][stream][cuda][slow]") {
    const fs::path lib64 = "/usr/local/cuda/lib64";
    if (!fs::is_directory(lib64)) {
        CUVET_SKIP("no CUDA toolkit at /usr/local/cuda: skipped");
    }
    ScratchBuffer buffer;
    std::size_t libraries = 0, holes = 0;
    for (const auto& item : fs::directory_iterator(lib64)) {
        if (!item.is_regular_file() || item.is_symlink() ||
            item.path().string().find(".so") == std::string::npos)
            continue;
        const std::string bytes = test::read_file(item.path());
        if (!elf::looks_like_elf(bytes)) continue;
        INFO(item.path().string());
        const auto whole = elf::inspect(bytes);
        REQUIRE(whole);
        auto streamed_info = streamed(bytes, 1 << 20, 11, buffer);
        REQUIRE(streamed_info);
        check_same(*streamed_info, *whole);

        // The scanner's containers are those the section parsers find.
        auto file = elf::detail::ElfFile::open(bytes, nullptr);
        REQUIRE(file);
        for (const auto& source : whole->fatbin_sources) {
            const auto* section = file->section_named(source.section);
            REQUIRE(section);
            const auto range = file->section_range(*section);
            REQUIRE(range);
            const auto view = std::string_view(bytes).substr(range->offset, range->size);
            const auto summary = source.section == ".nv_fatbin"
                                     ? elf::parse_fatbin(view)
                                     : elf::find_embedded_fatbins(view, range->offset);
            CHECK(source.containers == summary.containers);
            CHECK(source.sass_archs == summary.sass_archs);
            CHECK(source.ptx_archs == summary.ptx_archs);
        }
        ++libraries;
        holes += elf::detail::scan_whole_file(bytes).holes.size();
    }
    CHECK(libraries > 10);
    CHECK(holes > 1000);
}

// cuDNN 9 names its files by major only; libcudnn_graph states its release in a .rodata
// string, and libcudnn_ops and libcudnn_adv in the constant they export for their peers'
// version checks (cudnn_ops_infer_version, cudnn_adv_infer_version). Whole and streamed alike.
TEST_CASE("cuDNN 9's ops and adv libraries state the graph library's release",
          "[elf][stream][sublibs]") {
    const fs::path lib64 = "/usr/local/cuda/lib64";
    if (!fs::exists(lib64 / "libcudnn_graph.so.9")) {
        CUVET_SKIP("no cuDNN 9 at /usr/local/cuda/lib64: skipped");
    }
    ScratchBuffer buffer;
    const auto graph = elf::inspect(test::read_file(lib64 / "libcudnn_graph.so.9"));
    REQUIRE(graph);
    REQUIRE(graph->cudnn_release.rfind("9.", 0) == 0);
    for (const char* name : {"libcudnn_ops.so.9", "libcudnn_adv.so.9", "libcudnn_cnn.so.9"}) {
        INFO(name);
        const std::string bytes = test::read_file(lib64 / name);
        const auto whole = elf::inspect(bytes);
        REQUIRE(whole);
        // libcudnn_cnn exports no constant: it checks libcudnn_ops' instead.
        CHECK(whole->cudnn_release ==
              (std::string_view(name) == "libcudnn_cnn.so.9" ? "" : graph->cudnn_release));
        const auto streamed_info = streamed(bytes, 1 << 20, 7, buffer);
        REQUIRE(streamed_info);
        CHECK(streamed_info->cudnn_release == whole->cudnn_release);
    }
}
