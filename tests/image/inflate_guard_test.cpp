// A layer that inflates far more than its compressed size is refused once it
// is past the floor: a real zstd stream of zeros, from the real tools.
#include "image/layers/inflate_guard.hpp"

#include <fcntl.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "cuvet/core/scan_limits.hpp"
#include "image/layers/decompress.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
using cuvet::image::counting_source;
using cuvet::image::FileRangeSource;
using cuvet::image::inflate_guard;
using cuvet::image::open_decompressed;
using namespace cuvet::test;

namespace {

// Reads `path` (compressed) to its end through the guard with a floor of 1 MiB.
std::uint64_t inflate_all(const std::filesystem::path& path) {
    auto fd = std::make_shared<const int>(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    REQUIRE(*fd >= 0);
    auto compressed = std::make_shared<std::uint64_t>(0);
    auto raw = counting_source(
        std::make_unique<FileRangeSource>(fd, 0, std::filesystem::file_size(path), path.string()),
        compressed);
    auto stream = open_decompressed(std::move(raw), "layer.tar.zst");
    auto guarded = inflate_guard(std::move(stream.source), compressed, "layer.tar.zst", 1u << 20);
    std::vector<char> buffer(1 << 16);
    std::uint64_t total = 0;
    while (std::size_t got = guarded->read(buffer.data(), buffer.size())) total += got;
    ::close(*fd);
    return total;
}

}  // namespace

TEST_CASE("inflate-ratio refuses a layer that inflates past the floor at a bomb's ratio",
          "[image][limits]") {
    if (!have_program("zstd")) CUVET_SKIP("no zstd");
    TempDir dir;
    const std::string zeros = shell_quote((dir / "zeros").string());
    REQUIRE(run_shell("head -c 16777216 /dev/zero > " + zeros + " && zstd -q -19 -k " + zeros)
                .exit_code == 0);
    // 16 MiB of zeros: a few hundred bytes of zstd (1:30000 and more).
    {
        const auto path = dir / "zeros.zst";
        CHECK_THROWS_WITH(inflate_all(path),
                          Catch::Contains("layer.tar.zst: inflates to more than 1000 times its "
                                          "compressed size") &&
                              Catch::Contains("--limit inflate-ratio="));
        ScanLimits limits;
        limits.inflate_ratio = 100000;
        set_scan_limits(limits);
        CHECK(inflate_all(path) == 16u << 20);
        set_scan_limits(ScanLimits{});
    }
    // Below the floor nothing is judged: 1 MiB of zeros passes at any ratio.
    REQUIRE(run_shell("head -c 1048576 /dev/zero > " + zeros + " && zstd -q -f -19 " + zeros)
                .exit_code == 0);
    CHECK(inflate_all(dir / "zeros.zst") == 1u << 20);
}
