// cache::Store trusts only what this user alone could have written: entries
// carry an HMAC under the cache's secret key (0600, in a 0700 directory), so an
// entry sealed with another key or a plain sha256 is a miss; a directory owned
// by someone else or writable by others is refused whole; no $TMPDIR fallback;
// a directory, FIFO, link or huge sparse file at an entry path is a miss that
// neither hangs nor throws.
#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "cache/cache_test_support.hpp"
#include "cuvet/cache/store.hpp"
#include "cuvet/core/error.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
using cuvet::test::key;
using cuvet::test::seal;
namespace fs = std::filesystem;

namespace {

cache::LayerFacts facts() {
    cache::LayerFacts facts;
    image::FileEntry lib;
    lib.path = "/usr/lib/libcudnn.so.9";
    lib.size = 42;
    facts.listing.entries.push_back(lib);
    elf::ElfInfo info;
    info.soname = "libcudnn.so.9";
    info.needed = {"libcudart.so.12"};
    facts.elfs.emplace(lib.path, info);
    return facts;
}

fs::path only_entry(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir / "layers")) files.push_back(e.path());
    REQUIRE(files.size() == 1);
    return files[0];
}

mode_t mode_of(const fs::path& path) {
    struct stat info {};
    REQUIRE(::lstat(path.c_str(), &info) == 0);
    return info.st_mode & 07777;
}

// Runs `body` with an environment variable set (or unset), then restores it.
template <typename F>
void with_env(const char* name, const char* value, F body) {
    const char* old = std::getenv(name);
    std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
    value ? setenv(name, value, 1) : unsetenv(name);
    body();
    saved ? setenv(name, saved->c_str(), 1) : unsetenv(name);
}

}  // namespace

TEST_CASE("cache trust: the key is created 0600 in a 0700 directory and authenticates entries",
          "[cache]") {
    test::TempDir tmp;
    const fs::path dir = tmp / "home" / "cuvet";
    cache::Store store(dir);
    REQUIRE(store.refused().empty());
    CHECK(mode_of(dir) == 0700);
    CHECK(mode_of(dir / "layers") == 0700);
    CHECK(mode_of(dir / "key") == 0600);
    CHECK(fs::file_size(dir / "key") == 32);
    const std::string secret = test::read_file(dir / "key");

    store.save(key('a'), facts());
    REQUIRE(store.load(key('a')));
    const fs::path entry = only_entry(dir);
    const std::string good = test::read_file(entry);
    const std::string body = good.substr(0, good.size() - 32);
    CHECK(seal(body, secret) == good);  // the tag is HMAC-SHA256(key, everything before it)

    SECTION("an edited entry sealed again with a plain sha256 is a miss") {
        std::string edited = body;
        edited[edited.find("libcudart.so.12")] = 'X';
        test::write_file(entry, seal(edited, ""));
        CHECK_FALSE(store.load(key('a')));
        CHECK_FALSE(store.list()[0].usable);
        // The same edit sealed with the key is believed: it is the key that refused it.
        test::write_file(entry, seal(edited, secret));
        auto forged = store.load(key('a'));
        REQUIRE(forged);
        CHECK(forged->elfs.begin()->second.needed[0] == "Xibcudart.so.12");
    }
    SECTION("another cache's entry (another key) is a miss") {
        cache::Store other(tmp / "other");
        other.save(key('a'), facts());
        fs::copy_file(only_entry(tmp / "other"), entry, fs::copy_options::overwrite_existing);
        CHECK_FALSE(store.load(key('a')));
        CHECK(other.load(key('a')));
    }
    SECTION("the same directory opened again keeps its key and its entries") {
        cache::Store again(dir);
        CHECK(again.load(key('a')));
        CHECK(test::read_file(dir / "key") == secret);
    }
    SECTION("an explicit key (a cache shared on purpose) reads only what that key sealed") {
        const std::string shared = "a CI secret of enough bytes";
        cache::Store ci(dir, cache::default_max_bytes, shared);
        REQUIRE(ci.refused().empty());
        CHECK_FALSE(ci.load(key('a')));  // sealed with the directory's key
        ci.save(key('a'), facts());
        CHECK(ci.load(key('a')));
        CHECK(cache::Store(tmp / "elsewhere", cache::default_max_bytes, shared).refused().empty());
        CHECK_FALSE(store.load(key('a')));  // and the directory's key no longer reads it
        CHECK(test::read_file(dir / "key") == secret);
    }
}

TEST_CASE("cache trust: explicit keys from CUVET_CACHE_KEY or a key file", "[cache]") {
    test::TempDir tmp;
    with_env("CUVET_CACHE_KEY", nullptr, [&] { CHECK_FALSE(cache::explicit_key("")); });
    with_env("CUVET_CACHE_KEY", "0123456789abcdef0123", [&] {
        CHECK(cache::explicit_key("") == "0123456789abcdef0123");
        test::write_file(tmp / "key.txt", "from the file, long enough\n");
        CHECK(cache::explicit_key((tmp / "key.txt").string()) == "from the file, long enough");
    });
    with_env("CUVET_CACHE_KEY", "short", [&] { CHECK_THROWS_AS(cache::explicit_key(""), Error); });
    CHECK_THROWS_AS(cache::explicit_key((tmp / "absent").string()), Error);
    ::mkfifo((tmp / "fifo").c_str(), 0600);
    CHECK_THROWS_AS(cache::explicit_key((tmp / "fifo").string()), Error);  // refused, not a hang
}

TEST_CASE("cache trust: directories and key files others could write are refused", "[cache]") {
    test::TempDir tmp;
    const fs::path dir = tmp / "cuvet";
    {
        cache::Store store(dir);
        store.save(key('a'), facts());
    }
    auto refused = [&] {
        cache::Store store(dir);
        if (!store.refused().empty()) {
            CHECK_FALSE(store.load(key('a')));
            CHECK(store.list().empty());
            CHECK(store.prune(0) == 0);
            store.save(key('c'), facts());
        }
        return store.refused();
    };
    REQUIRE(refused().empty());

    SECTION("a group- or world-writable cache dir") {
        for (mode_t mode : {0770, 0707, 0777}) {
            fs::permissions(dir, static_cast<fs::perms>(mode));
            CHECK_THAT(refused(),
                       Catch::Contains(dir.string()) && Catch::Contains("lets others write"));
        }
    }
    SECTION("a world-writable layers dir") {
        fs::permissions(dir / "layers", static_cast<fs::perms>(0777));
        CHECK_THAT(refused(), Catch::Contains("layers") && Catch::Contains("lets others write"));
    }
    SECTION("a key file others can read") {
        fs::permissions(dir / "key", static_cast<fs::perms>(0644));
        CHECK_THAT(refused(), Catch::Contains("key") && Catch::Contains("lets others read"));
    }
    SECTION("a key file that is a link, a FIFO or the wrong size") {
        fs::remove(dir / "key");
        SECTION("link") {
            test::write_file(tmp / "elsewhere", std::string(32, 'k'));
            fs::permissions(tmp / "elsewhere", static_cast<fs::perms>(0600));
            fs::create_symlink(tmp / "elsewhere", dir / "key");
        }
        SECTION("fifo") { REQUIRE(::mkfifo((dir / "key").c_str(), 0600) == 0); }
        SECTION("wrong size") {
            test::write_file(dir / "key", "short");
            fs::permissions(dir / "key", static_cast<fs::perms>(0600));
        }
        CHECK_THAT(refused(), Catch::Contains((dir / "key").string()));
    }
    SECTION("a cache dir and key owned by another user") {
        if (::geteuid() != 0) {
            CUVET_SKIP("chown to another user needs root");
        }
        for (const auto& path : {dir, dir / "layers", dir / "key"})
            REQUIRE(::lchown(path.c_str(), 65534, 65534) == 0);
        CHECK_THAT(refused(), Catch::Contains("owned by uid 65534"));
        REQUIRE(::lchown(dir.c_str(), 0, 0) == 0);
        CHECK_THAT(refused(), Catch::Contains("layers: owned by uid 65534"));
        REQUIRE(::lchown((dir / "layers").c_str(), 0, 0) == 0);
        CHECK_THAT(refused(), Catch::Contains("key: owned by uid 65534"));
    }
    // Nothing was written into a refused cache.
    CHECK(std::distance(fs::directory_iterator(dir / "layers"), fs::directory_iterator()) == 1);
}

TEST_CASE("cache trust: no HOME and no XDG_CACHE_HOME means no cache, not $TMPDIR", "[cache]") {
    test::TempDir tmp;
    with_env("XDG_CACHE_HOME", nullptr, [&] {
        with_env("HOME", nullptr, [&] {
            with_env("TMPDIR", tmp.path().c_str(), [&] {
                CHECK(cache::Store::default_dir().empty());
                cache::Store store(cache::Store::default_dir());
                CHECK_THAT(store.refused(), Catch::Contains("neither XDG_CACHE_HOME nor HOME"));
                store.save(key('a'), facts());
                CHECK_FALSE(store.load(key('a')));
            });
        });
        with_env("HOME", "relative/home", [&] { CHECK(cache::Store::default_dir().empty()); });
        with_env("HOME", "/home/u",
                 [&] { CHECK(cache::Store::default_dir() == "/home/u/.cache/cuvet"); });
    });
    CHECK(fs::is_empty(tmp.path()));
}

TEST_CASE("cache trust: a directory, FIFO, link or huge sparse file at an entry path is a miss",
          "[cache]") {
    test::TempDir tmp;
    cache::Store store(tmp / "cuvet");
    store.save(key('a'), facts());
    const fs::path entry = only_entry(tmp / "cuvet");
    const std::string good = test::read_file(entry);
    fs::remove(entry);

    SECTION("directory") { fs::create_directories(entry / "inside"); }
    SECTION("FIFO") { REQUIRE(::mkfifo(entry.c_str(), 0600) == 0); }
    SECTION("link to a good entry") {
        test::write_file(tmp / "good", good);
        fs::create_symlink(tmp / "good", entry);
    }
    SECTION("link to a FIFO") {
        REQUIRE(::mkfifo((tmp / "fifo").c_str(), 0600) == 0);
        fs::create_symlink(tmp / "fifo", entry);
    }
    SECTION("64 GiB sparse file") {
        int fd = ::open(entry.c_str(), O_WRONLY | O_CREAT, 0600);
        REQUIRE(fd >= 0);
        REQUIRE(::ftruncate(fd, off_t(64) << 30) == 0);
        ::close(fd);
    }
    SECTION("a file just over the size cap, however good its start") {
        test::write_file(entry, good);
        fs::resize_file(entry, cache::max_entry_bytes + 1);
    }
    CHECK_FALSE(store.load(key('a')));
    CHECK(store.stats().hits == 0);
    for (const auto& listed : store.list()) CHECK_FALSE(listed.usable);
    store.prune(1u << 30);
    // A save replaces whatever is there, except a directory (then it stays a miss).
    store.save(key('a'), facts());
    CHECK(bool(store.load(key('a'))) == !fs::is_directory(entry));
}

TEST_CASE(
    "cache trust: a parent others may write or another user's link is refused, and prune "
    "removes only what cuvet named",
    "[cache]") {
    test::TempDir tmp;
    // A directory of this user's with a layers/ dir of its own files.
    const fs::path victim = tmp / "victim";
    fs::create_directories(victim / "layers");
    fs::permissions(victim, static_cast<fs::perms>(0700));
    test::write_file(victim / "layers" / "notes.txt", "mine\n");
    // Another user's doing: a parent anyone may write, and a link in it.
    const fs::path shared = tmp / "shared";
    fs::create_directory(shared);
    fs::permissions(shared, static_cast<fs::perms>(0777));
    fs::create_symlink(victim, shared / "cuvet");
    {
        cache::Store store(shared / "cuvet");
        CHECK_THAT(store.refused(),
                   Catch::Contains(shared.string() + ": mode 0777 lets others write it"));
        CHECK(store.prune(0) == 0);
    }
    CHECK_FALSE(fs::exists(victim / "key"));
    CHECK(fs::exists(victim / "layers" / "notes.txt"));
    // Sticky, as /tmp: others may add names there but not replace ours.
    fs::permissions(shared, static_cast<fs::perms>(01777));
    if (::geteuid() == 0) {
        REQUIRE(::lchown((shared / "cuvet").c_str(), 4321, 4321) == 0);
        cache::Store store(shared / "cuvet");
        CHECK_THAT(store.refused(), Catch::Contains((shared / "cuvet").string() +
                                                    ": owned by uid 4321 in a directory anyone "
                                                    "may write"));
        CHECK_FALSE(fs::exists(victim / "key"));
    }
    // A cache dir of this user's: prune evicts its entries, not the files it did not write.
    cache::Store store(victim);
    REQUIRE(store.refused().empty());
    store.save(key('a'), facts());
    CHECK(store.prune(0) > 0);
    CHECK(fs::exists(victim / "layers" / "notes.txt"));
    CHECK(std::distance(fs::directory_iterator(victim / "layers"), fs::directory_iterator()) == 1);
}
