// Differential test: elf::inspect (our zero-copy reader) against LIEF (the
// reference) on every field both expose, over our compiled fixtures and every
// ELF under /usr/local/cuda/lib64 when it exists.
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <set>

#include "cuvet/elf/deep.hpp"
#include "cuvet/elf/elf_info.hpp"
#include "support/elf_fixtures.hpp"
#include "support/skip.hpp"

using namespace cuvet;
namespace fs = std::filesystem;

namespace {

// LIEF 0.9 needs seconds per 100 MB (8 s for the 541 MB libcublasLt); the
// whole CUDA 13 + cuDNN 9 sweep (31 files, 2.4 GB) takes about 45 s and 1.7 GB
// RSS here, so no file is skipped. The cap only guards against a future
// toolkit with multi-GB libraries.
constexpr std::uintmax_t max_cuda_file = 2048u << 20;
constexpr long cuda_time_budget_s = 300;

bool starts_like_elf(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    char head[4] = {};
    in.read(head, sizeof head);
    return in && elf::looks_like_elf(std::string_view(head, sizeof head));
}

void compare(const fs::path& path) {
    const std::string bytes = test::read_file(path);
    std::string why;
    const auto ours = elf::inspect(bytes, &why);
    const auto deep = elf::deep_inspect(path, &why);
    INFO(path.string() << " " << why);
    REQUIRE(ours);
    REQUIRE(deep);
    const elf::ElfInfo& lief = deep->facts;
    CHECK(ours->is_64bit == lief.is_64bit);
    CHECK(ours->machine == lief.machine);
    CHECK(ours->type == lief.type);
    CHECK(ours->soname == lief.soname);
    CHECK(ours->needed == lief.needed);
    CHECK(ours->has_rpath == lief.has_rpath);
    CHECK(ours->rpath == lief.rpath);
    CHECK(ours->has_runpath == lief.has_runpath);
    CHECK(ours->runpath == lief.runpath);
    REQUIRE(ours->version_needs.size() == lief.version_needs.size());
    for (std::size_t i = 0; i < lief.version_needs.size(); ++i) {
        CHECK(ours->version_needs[i].file == lief.version_needs[i].file);
        CHECK(ours->version_needs[i].versions == lief.version_needs[i].versions);
    }
    CHECK(ours->version_definitions == lief.version_definitions);
    CHECK(ours->imported_symbols == lief.imported_symbols);
    CHECK(ours->exported_symbols == lief.exported_symbols);
}

}  // namespace

TEST_CASE("inspect agrees with LIEF on the compiled fixtures", "[elf][lief]") {
    const auto& fx = test::elf_fixtures();
    REQUIRE(fx.error.empty());
    for (const auto& path :
         {fx.base, fx.user, fx.runpath, fx.exe, fx.lib32, fx.lib32_base, fx.cuda}) {
        if (!path.empty()) compare(path);
    }
}

TEST_CASE("inspect agrees with LIEF on every library under /usr/local/cuda",
          "[elf][lief][cuda][slow]") {
    const fs::path dir = "/usr/local/cuda/lib64";
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        CUVET_SKIP("skipped: no /usr/local/cuda/lib64");
    }
    // Smallest first; symlinks resolved, each file once.
    std::set<std::pair<std::uintmax_t, fs::path>> files;
    std::size_t skipped = 0;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.find(".so") == std::string::npos) continue;
        const fs::path real = fs::canonical(entry.path(), ec);
        if (ec || !fs::is_regular_file(real, ec)) continue;
        if (fs::file_size(real, ec) > max_cuda_file) {
            ++skipped;
            continue;
        }
        if (!starts_like_elf(real)) continue;
        files.insert({fs::file_size(real, ec), real});
    }
    // Under ASan on a loaded 2-core machine the whole 2.7 GB takes over ctest's
    // 600 s: compare smallest first and stop at a time budget, saying how far.
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        auto spent = std::chrono::steady_clock::now() - start;
        return std::chrono::duration_cast<std::chrono::seconds>(spent).count();
    };
    std::size_t compared = 0;
    for (const auto& [size, path] : files) {
        if (compared >= 5 && elapsed() > cuda_time_budget_s) break;
        compare(path);
        ++compared;
    }
    WARN("compared " << compared << " of " << files.size() << " CUDA libraries in " << elapsed()
                     << " s; skipped " << skipped << " above " << (max_cuda_file >> 20) << " MiB");
    CHECK(compared > 0);
}
