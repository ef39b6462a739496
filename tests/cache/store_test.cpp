// cache::Store on a real directory: entries round-trip exactly; a damaged,
// truncated, foreign or misplaced entry is a miss, never trusted; least
// recently used entries are evicted first.
#include "cuvet/cache/store.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "cache/cache_test_support.hpp"
#include "cuvet/core/error.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
using cuvet::test::key;
namespace fs = std::filesystem;

namespace {

// Every field of every struct set, so a field the codec forgets shows.
cache::LayerFacts sample_facts(std::size_t padding = 0) {
    cache::LayerFacts facts;
    image::FileEntry lib;
    lib.path = "/usr/lib/libcudnn.so.9.1.0";
    lib.mode = 0750;
    lib.size = 123456789012ull;
    lib.uid = 1000;  // who may read it depends on the owner (CUV001 for the image's USER)
    lib.gid = 4294967294u;
    facts.listing.entries.push_back(lib);
    image::FileEntry link;
    link.path = "/usr/lib/libcudnn.so.9";
    link.type = image::FileType::symlink;
    link.link_target = "libcudnn.so.9.1.0";
    facts.listing.entries.push_back(link);
    image::FileEntry hard = lib;
    hard.path = "/opt/copy.so";
    hard.type = image::FileType::hardlink;
    hard.link_target = "/usr/lib/libcudnn.so.9.1.0";
    facts.listing.entries.push_back(hard);
    facts.listing.whiteouts = {"/etc/old"};
    facts.listing.opaque_dirs = {"/opt/conda"};
    elf::ElfInfo info;
    info.is_64bit = false;
    info.machine = 183;
    info.type = 3;
    info.soname = "libcudnn.so.9";
    info.needed = {"libc.so.6", "libcudart.so.12"};
    info.rpath = {"$ORIGIN"};
    info.runpath = {"/opt/lib"};
    info.has_rpath = info.has_runpath = true;
    info.version_needs = {{"libc.so.6", {"GLIBC_2.34", "GLIBC_2.17"}}};
    info.version_definitions = {"libcudnn.so.9", "CUDNN_9"};
    info.imported_symbols = {"malloc", "cudaMalloc"};
    info.exported_symbols = {"cudnnCreate", std::string(padding, 'x')};
    info.weak_imported_symbols = {"__gmon_start__"};
    info.sass_archs = {80, 90};
    info.ptx_archs = {90};
    info.has_fatbin = true;
    info.fatbin_sources = {{".nv_fatbin", {80, 90}, {90}, 7}};
    info.dlopen_candidates = {"libcudnn_ops.so.9"};
    facts.elfs.emplace(lib.path, info);
    facts.not_elf.insert("/usr/bin/script.so");
    facts.texts.emplace("/var/lib/dpkg/status", std::string("Package: libcudnn9\0binary", 25));
    return facts;
}

bool same(const cache::LayerFacts& a, const cache::LayerFacts& b) {
    auto entry_eq = [](const image::FileEntry& x, const image::FileEntry& y) {
        return x.path == y.path && x.type == y.type && x.mode == y.mode && x.size == y.size &&
               x.link_target == y.link_target && x.uid == y.uid && x.gid == y.gid;
    };
    return std::equal(a.listing.entries.begin(), a.listing.entries.end(), b.listing.entries.begin(),
                      b.listing.entries.end(), entry_eq) &&
           a.listing.whiteouts == b.listing.whiteouts &&
           a.listing.opaque_dirs == b.listing.opaque_dirs && a.elfs == b.elfs &&
           a.not_elf == b.not_elf && a.texts == b.texts;
}

fs::path only_file(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir / "layers")) files.push_back(e.path());
    REQUIRE(files.size() == 1);
    return files[0];
}

std::string slurp(const fs::path& path) { return test::read_file(path); }

std::string hmac(const std::string& key, const std::string& body) {
    std::string tag(32, '\0');
    unsigned length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char*>(body.data()), body.size(),
         reinterpret_cast<unsigned char*>(tag.data()), &length);
    return tag;
}

}  // namespace

TEST_CASE("cache store: an entry comes back exactly as saved", "[cache]") {
    test::TempDir dir;
    cache::Store store(dir.path());
    CHECK_FALSE(store.load(key('a')));
    store.save(key('a'), sample_facts());
    auto loaded = store.load(key('a'));
    REQUIRE(loaded);
    CHECK(same(*loaded, sample_facts()));
    // The other part of the key alone finds nothing.
    CHECK_FALSE(store.load({key('a').diff_id, ""}));
    CHECK(store.stats().hits == 1);
    CHECK(store.stats().written == 1);
    auto listed = store.list();
    REQUIRE(listed.size() == 1);
    CHECK(listed[0].usable);
    CHECK(listed[0].diff_id == key('a').diff_id);
    CHECK(listed[0].blob_digest == key('a').blob_digest);
}

TEST_CASE("cache store: damaged, truncated, foreign and misplaced entries are misses", "[cache]") {
    test::TempDir dir;
    cache::Store store(dir.path());
    store.save(key('a'), sample_facts());
    fs::path file = only_file(dir.path());
    const std::string good = slurp(file);

    SECTION("one flipped byte anywhere") {
        for (std::size_t at : {std::size_t(3), good.size() / 2, good.size() - 1}) {
            std::string bad = good;
            bad[at] = char(bad[at] ^ 0x20);
            test::write_file(file, bad);
            CHECK_FALSE(store.load(key('a')));
        }
    }
    SECTION("truncated") {
        for (std::size_t keep :
             {std::size_t(0), std::size_t(10), good.size() / 2, good.size() - 1}) {
            test::write_file(file, good.substr(0, keep));
            CHECK_FALSE(store.load(key('a')));
        }
    }
    SECTION("another layer's entry under this name") {
        store.save(key('c'), sample_facts());
        fs::path other;
        for (const auto& e : fs::directory_iterator(dir / "layers"))
            if (e.path() != file) other = e.path();
        fs::copy_file(other, file, fs::copy_options::overwrite_existing);
        CHECK_FALSE(store.load(key('a')));
        CHECK(store.load(key('c')));
    }
    SECTION("a format version this cuvet does not write") {
        // Same bytes, version field changed, tag made right again with the
        // cache's own key: only the version is wrong.
        std::string body = good.substr(0, good.size() - 32);
        REQUIRE(static_cast<unsigned char>(body[8]) == cache::format_version);
        body[8] = char(cache::format_version + 1);
        test::write_file(file, body + hmac(slurp(dir / "key"), body));
        CHECK_FALSE(store.load(key('a')));
        CHECK_FALSE(store.list()[0].usable);
    }
    CHECK(store.stats().rejected >= 1);
    // Rebuilt: a save replaces whatever was there, and it is trusted again.
    store.save(key('a'), sample_facts());
    auto loaded = store.load(key('a'));
    REQUIRE(loaded);
    CHECK(same(*loaded, sample_facts()));
}

TEST_CASE("cache store: least recently used entries are evicted beyond the limit", "[cache]") {
    test::TempDir dir;
    const std::size_t padding = 10000;  // each entry ~10 KB
    cache::Store store(dir.path(), 35000);
    auto age = [&](char c, int minutes) {
        for (const auto& e : store.list())
            if (e.diff_id == key(c).diff_id)
                fs::last_write_time(
                    e.file, fs::file_time_type::clock::now() - std::chrono::minutes(minutes));
    };
    store.save(key('a'), sample_facts(padding));
    age('a', 30);
    store.save(key('c'), sample_facts(padding));
    age('c', 20);
    store.save(key('e'), sample_facts(padding));
    age('e', 10);
    REQUIRE(store.list().size() == 3);
    REQUIRE(store.load(key('a')));  // a is now the most recently used
    store.save(key('g'), sample_facts(padding));
    CHECK(store.load(key('a')));
    CHECK_FALSE(store.load(key('c')));  // the oldest use went
    CHECK(store.load(key('e')));
    CHECK(store.load(key('g')));

    // An unusable file under an entry's name goes, whatever the size; a file
    // cuvet never names is not its to delete.
    std::string junk = "not an entry";
    test::write_file(dir / "layers" / (std::string(64, 'f') + ".facts"), junk);
    test::write_file(dir / "layers" / "junk.facts", junk);
    CHECK(store.prune(1u << 30) == junk.size());
    CHECK(store.list().size() == 3);
    CHECK(store.prune(0) > 0);
    CHECK(store.list().empty());
    CHECK(fs::exists(dir / "layers" / "junk.facts"));
}

TEST_CASE("cache store: sizes and the default directory", "[cache]") {
    CHECK(cache::parse_size("500M") == 500ull << 20);
    CHECK(cache::parse_size("4G") == 4ull << 30);
    CHECK(cache::parse_size("1024") == 1024);
    CHECK_THROWS_AS(cache::parse_size("lots"), Error);
    CHECK_THROWS_AS(cache::parse_size("-1G"), Error);
    CHECK_THROWS_AS(cache::parse_size("5T"), Error);
    const char* old = std::getenv("XDG_CACHE_HOME");
    std::string saved = old ? old : "";
    setenv("XDG_CACHE_HOME", "/x/cache", 1);
    CHECK(cache::Store::default_dir() == "/x/cache/cuvet");
    if (old)
        setenv("XDG_CACHE_HOME", saved.c_str(), 1);
    else
        unsetenv("XDG_CACHE_HOME");
}
