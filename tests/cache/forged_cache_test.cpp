// The cache can never change a verdict, end to end: an image missing a
// library (CUV001, exit 1) stays at exit 1 whatever is done to its cache
// entry short of knowing the key. Each forgery here is first shown to flip
// the verdict when sealed with the right key under a trusted directory, so
// the test fails if the key, the owner check or the mode check stop working.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "cache/cache_test_support.hpp"
#include "cache/facts_codec.hpp"
#include "scenarios/scenario_support.hpp"
#include "support/cuda_image.hpp"
#include "support/skip.hpp"

using namespace cuvet;
using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

const std::string cudart12 = "/usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12";

// The scenario "libcudnn.so.8 missing": torch needs a library the image lacks.
fs::path missing_library_image(CudaImage& img) {
    img.glibc();
    img.cuda_toolkit("12.1.105");
    img.fs().lib("/opt/stage/libcudnn.so.8", "libcudnn.so.8");
    img.torch("2.1.0+cu121", "12.1", {"/opt/stage/libcudnn.so.8", cudart12});
    fs::remove_all(img.fs().host("/opt/stage"));
    REQUIRE(img.fs().error().empty());
    return img.write();
}

// Rewrites every entry of the cache in `dir` as an attacker would: the
// DT_NEEDED naming `soname` dropped from every ELF, then sealed with `key`
// (empty: the plain sha256 entries carried before they were authenticated).
void forge(const fs::path& dir, const std::string& soname, const std::string& key) {
    int dropped = 0;
    for (const auto& e : fs::directory_iterator(dir / "layers")) {
        const std::string bytes = read_file(e.path());
        REQUIRE(bytes.size() > 8 + 32);
        cache::detail::Reader in(std::string_view(bytes).substr(8, bytes.size() - 8 - 32));
        cache::detail::Writer out;
        out.raw(std::string_view(bytes).substr(0, 8));
        out.u64(in.u64());
        for (int i = 0; i < 3; ++i) out.str(in.str());  // analyzer, diff_id, blob digest
        cache::LayerFacts facts = cache::detail::decode_facts(in);
        for (auto& [path, elf] : facts.elfs)
            dropped += static_cast<int>(std::erase(elf.needed, soname));
        cache::detail::encode_facts(out, facts);
        write_file(e.path(), seal(out.bytes(), key));
    }
    REQUIRE(dropped >= 1);
}

// `cuvet validate --format json IMAGE` with environment assignments.
CliReport validate_with(const fs::path& image, const std::vector<std::string>& environment) {
    std::string command = "env";
    for (const auto& assignment : environment) command += " " + shell_quote(assignment);
    command += " " + shell_quote(CUVET_BINARY_PATH) + " validate --format json " +
               shell_quote(image.string());
    auto result = run_shell(command);
    CliReport report;
    report.exit_code = result.exit_code;
    report.err = result.err;
    report.json = nlohmann::json::parse(result.out, nullptr, false);
    if (report.json.is_object())
        for (const auto& f : report.json["findings"]) report.ids.insert(f["id"].get<std::string>());
    return report;
}

bool has_cuv001(const CliReport& r) { return r.ids.count("CUV001") >= 1; }

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("forged cache: an entry edited and sealed with a plain sha256 changes no verdict",
          "[cache][cli]") {
    CudaImage img;
    const fs::path image = missing_library_image(img);
    TempDir home;
    const std::string cache_home = "XDG_CACHE_HOME=" + home.path().string();
    const fs::path dir = home / "cuvet";

    auto cold = validate_with(image, {cache_home});
    INFO(dump(cold));
    REQUIRE(cold.exit_code == 1);
    REQUIRE(has_cuv001(cold));

    forge(dir, "libcudnn.so.8", "");
    auto edited = validate_with(image, {cache_home});
    INFO(dump(edited));
    CHECK(edited.exit_code == 1);
    CHECK(has_cuv001(edited));
    CHECK(edited.json["findings"] == cold.json["findings"]);

    // The same edit sealed with the cache's key is believed: what stopped the
    // first forgery is the key, and only whoever reads it can forge.
    forge(dir, "libcudnn.so.8", read_file(dir / "key"));
    auto keyed = validate_with(image, {cache_home});
    INFO(dump(keyed));
    CHECK(keyed.exit_code == 0);
    CHECK_FALSE(has_cuv001(keyed));

    // A CI cache shared on purpose: entries sealed with CUVET_CACHE_KEY are
    // read with it only; the directory's own key no longer vouches for them.
    const std::string shared = "CUVET_CACHE_KEY=a secret the CI holds, 32 bytes.";
    auto ci_cold = validate_with(image, {cache_home, shared});
    CHECK(ci_cold.exit_code == 1);
    forge(dir, "libcudnn.so.8", read_file(dir / "key"));
    auto ci = validate_with(image, {cache_home, shared});
    INFO(dump(ci));
    CHECK(ci.exit_code == 1);
    CHECK(has_cuv001(ci));
    forge(dir, "libcudnn.so.8", shared.substr(shared.find('=') + 1));
    CHECK(validate_with(image, {cache_home, shared}).exit_code == 0);
    auto too_short = validate_with(image, {cache_home, "CUVET_CACHE_KEY=short"});
    CHECK(too_short.exit_code == 2);
    CHECK_THAT(too_short.err, Catch::Contains("CUVET_CACHE_KEY"));
}

TEST_CASE("forged cache: a cache dir pre-seeded by another user is refused, not believed",
          "[cache][cli]") {
    if (::geteuid() != 0) {
        CUVET_SKIP("seeding a cache as another user needs root (chown)");
    }
    CudaImage img;
    const fs::path image = missing_library_image(img);
    TempDir home;
    const std::string cache_home = "XDG_CACHE_HOME=" + home.path().string();
    const fs::path dir = home / "cuvet";

    // The attacker's cache, complete with its own key and entries sealed with it.
    REQUIRE(validate_with(image, {cache_home}).exit_code == 1);
    forge(dir, "libcudnn.so.8", read_file(dir / "key"));
    REQUIRE(validate_with(image, {cache_home}).exit_code == 0);  // it would work

    SECTION("owned by another user") {
        for (const auto& e : fs::recursive_directory_iterator(dir))
            REQUIRE(::lchown(e.path().c_str(), 65534, 65534) == 0);
        REQUIRE(::lchown(dir.c_str(), 65534, 65534) == 0);
        auto r = validate_with(image, {cache_home});
        INFO(dump(r));
        CHECK(r.exit_code == 1);
        CHECK(has_cuv001(r));
        CHECK(count(r.err, "layer cache not used") == 1);
        CHECK_THAT(r.err, Catch::Contains(dir.string() + ": owned by uid 65534"));
    }
    SECTION("ours, but writable by everyone") {
        fs::permissions(dir, static_cast<fs::perms>(0777));
        auto r = validate_with(image, {cache_home});
        INFO(dump(r));
        CHECK(r.exit_code == 1);
        CHECK(has_cuv001(r));
        CHECK(count(r.err, "layer cache not used") == 1);
        CHECK_THAT(r.err, Catch::Contains("lets others write it"));
    }
}

TEST_CASE("forged cache: FIFO, directory and sparse entries cost a miss, not a hang or rc 4",
          "[cache][cli]") {
    CudaImage img;
    const fs::path image = missing_library_image(img);
    TempDir home;
    const std::string cache_home = "XDG_CACHE_HOME=" + home.path().string();
    auto cold = validate_with(image, {cache_home});
    REQUIRE(cold.exit_code == 1);
    std::vector<fs::path> entries;
    for (const auto& e : fs::directory_iterator(home / "cuvet" / "layers"))
        entries.push_back(e.path());
    REQUIRE_FALSE(entries.empty());
    for (const char* shape : {"fifo", "dir", "sparse"}) {
        INFO(shape);
        for (const auto& entry : entries) {
            fs::remove_all(entry);
            if (shape == std::string("fifo")) REQUIRE(::mkfifo(entry.c_str(), 0600) == 0);
            if (shape == std::string("dir")) fs::create_directories(entry / "x");
            if (shape == std::string("sparse")) {
                write_file(entry, "CUVETLF\n");
                fs::resize_file(entry, std::uintmax_t(64) << 30);
            }
        }
        auto r = validate_with(image, {cache_home});
        INFO(dump(r));
        CHECK(r.exit_code == 1);
        CHECK(r.json["findings"] == cold.json["findings"]);
        auto listed = run_shell("env " + shell_quote(cache_home) + " " +
                                shell_quote(CUVET_BINARY_PATH) + " cache ls");
        CHECK(listed.exit_code == 0);
    }
}
