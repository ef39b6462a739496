#include "cache_dir.hpp"

#include <fcntl.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iterator>

#include "cuvet/core/errno_text.hpp"
#include "cuvet/core/unique_fd.hpp"

namespace cuvet::cache::detail {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t key_bytes = 32;
constexpr const char* key_name = "key";
constexpr const char* layers_name = "layers";

OpenedDir refuse(std::string why) { return {"", std::move(why)}; }

// Why a directory or key file this cache relies on cannot be trusted, or
// empty: anyone else who can write it could put entries (or a key) there.
std::string distrust(const struct stat& info, const std::string& path, mode_t forbidden) {
    if (info.st_uid != ::geteuid())
        return path + ": owned by uid " + std::to_string(info.st_uid) + ", not by this user (uid " +
               std::to_string(::geteuid()) + ")";
    if (info.st_mode & forbidden) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
        return path + ": mode " + mode + " lets others " +
               ((forbidden & S_IRGRP) ? "read or write it" : "write it");
    }
    return {};
}

// Why a directory on the way to the cache cannot be trusted (as ssh's
// StrictModes): another user who owns it or may write it can replace what
// comes next with a link to a directory of ours, where the cache would write
// its key and evict "its" files. A sticky directory (/tmp) lets others create
// names but not replace ours, so what comes next is checked instead.
std::string distrust_ancestor(const struct stat& info, const std::string& path, bool* sticky) {
    *sticky = false;
    if (info.st_uid != 0 && info.st_uid != ::geteuid())
        return path + ": owned by uid " + std::to_string(info.st_uid) +
               ", neither by this user nor by root";
    if ((info.st_mode & (S_IWGRP | S_IWOTH)) == 0) return {};
    if (info.st_mode & S_ISVTX) {
        *sticky = true;
        return {};
    }
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
    return path + ": mode " + mode + " lets others write it";
}

// Checks every directory above `dir` and every link on the way to it (the
// link's owner, then the directories above what it leads to): empty when
// none of them lets another user redirect the cache.
std::string distrust_path(const fs::path& dir, int depth = 0) {
    if (depth > 8) return dir.string() + ": too many levels of symbolic links";
    const fs::path absolute = fs::absolute(dir).lexically_normal();
    fs::path prefix = "/";
    bool after_sticky = false;
    for (auto it = std::next(absolute.begin()); it != absolute.end(); ++it) {
        if (it->empty()) continue;
        struct stat parent {};
        if (::stat(prefix.c_str(), &parent) != 0) return prefix.string() + ": " + errno_text();
        if (auto why = distrust_ancestor(parent, prefix.string(), &after_sticky); !why.empty())
            return why;
        prefix /= *it;
        struct stat info {};
        if (::lstat(prefix.c_str(), &info) != 0) {
            if (errno == ENOENT) return {};  // created below by this user
            return prefix.string() + ": " + errno_text();
        }
        const bool ours = info.st_uid == ::geteuid() || info.st_uid == 0;
        if (after_sticky && !ours)
            return prefix.string() + ": owned by uid " + std::to_string(info.st_uid) +
                   " in a directory anyone may write";
        if (S_ISLNK(info.st_mode)) {
            if (!ours)
                return prefix.string() + ": a symbolic link owned by uid " +
                       std::to_string(info.st_uid) + ", neither by this user nor by root";
            std::error_code error;
            const fs::path target = fs::read_symlink(prefix, error);
            if (error) return prefix.string() + ": " + error.message();
            fs::path rest;
            for (auto r = std::next(it); r != absolute.end(); ++r) rest /= *r;
            const fs::path next = target.is_absolute() ? target : prefix.parent_path() / target;
            return distrust_path(rest.empty() ? next : next / rest, depth + 1);
        }
    }
    return {};
}

// `count` bytes from the start of `fd`, or nullopt when fewer come.
std::optional<std::string> read_exactly(int fd, std::size_t count) {
    std::string bytes(count, '\0');
    std::size_t done = 0;
    while (done < count) {
        ssize_t got = ::read(fd, bytes.data() + done, count - done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return std::nullopt;
        done += static_cast<std::size_t>(got);
    }
    return bytes;
}

// Opens directory `name` under `at`, creating it 0700 when absent, and checks it.
std::string open_checked_dir(int at, const std::string& name, const std::string& path, int flags,
                             UniqueFd& out) {
    if (::mkdirat(at, name.c_str(), 0700) != 0 && errno != EEXIST)
        return path + ": " + errno_text();
    out.reset(::openat(at, name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | flags));
    if (!out) return path + ": " + errno_text();
    struct stat info {};
    if (::fstat(out.get(), &info) != 0) return path + ": " + errno_text();
    return distrust(info, path, S_IWGRP | S_IWOTH);
}

// Writes 32 random bytes under a temp name, then links it as the key: when
// two cuvets start at once, the first link wins and both read that key.
std::string create_key(int dir) {
    unsigned char key[key_bytes];
    if (RAND_bytes(key, sizeof key) != 1) return "no random bytes for a key";
    unsigned char salt[8];
    if (RAND_bytes(salt, sizeof salt) != 1) return "no random bytes for a key";
    std::string temp = "key.tmp." + std::to_string(::getpid()) + ".";
    for (unsigned char c : salt) temp += std::to_string(c);
    {
        UniqueFd fd(::openat(dir, temp.c_str(),
                             O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (!fd) return errno_text();
        if (::write(fd.get(), key, sizeof key) != static_cast<ssize_t>(sizeof key) ||
            ::fsync(fd.get()) != 0) {
            std::string why = errno_text();
            ::unlinkat(dir, temp.c_str(), 0);
            return why;
        }
    }
    int linked = ::linkat(dir, temp.c_str(), dir, key_name, 0);
    if (linked != 0 && (errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP))
        // No hard links here: a rename, where a simultaneous start may replace
        // the key of the other (its entries are then misses, never believed).
        linked = ::renameat(dir, temp.c_str(), dir, key_name);
    std::string why = linked != 0 && errno != EEXIST ? errno_text() : "";
    ::unlinkat(dir, temp.c_str(), 0);
    return why;
}

OpenedDir read_or_create_key(int dir, const std::string& path) {
    for (int attempt = 0; attempt < 2; ++attempt) {
        UniqueFd fd(::openat(dir, key_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        if (fd) {
            struct stat info {};
            if (::fstat(fd.get(), &info) != 0) return refuse(path + ": " + errno_text());
            if (!S_ISREG(info.st_mode)) return refuse(path + ": not a regular file");
            if (auto why = distrust(info, path, S_IRWXG | S_IRWXO); !why.empty())
                return refuse(why);
            auto key = static_cast<std::size_t>(info.st_size) == key_bytes
                           ? read_exactly(fd.get(), key_bytes)
                           : std::nullopt;
            if (!key)
                return refuse(path + ": not a cuvet cache key (" + std::to_string(info.st_size) +
                              " bytes, want " + std::to_string(key_bytes) +
                              "); remove it to start afresh");
            return {std::move(*key), ""};
        }
        if (errno != ENOENT) return refuse(path + ": " + errno_text());
        if (attempt == 0)
            if (auto why = create_key(dir); !why.empty()) return refuse(path + ": " + why);
    }
    return refuse(path + ": cannot be created");
}

}  // namespace

OpenedDir open_cache_dir(const fs::path& dir, const std::optional<std::string>& explicit_key) {
    try {
        if (dir.empty())
            return refuse("no cache directory: neither XDG_CACHE_HOME nor HOME is set");
        if (auto why = distrust_path(dir); !why.empty()) return refuse(why);
        std::error_code ignored;
        fs::create_directories(dir.parent_path(), ignored);  // ~/.cache, as any tool makes it
        UniqueFd top(-1), layers(-1);
        // The cache dir itself may be a link (to a larger disk): what it leads to is checked.
        if (auto why = open_checked_dir(AT_FDCWD, dir.string(), dir.string(), 0, top); !why.empty())
            return refuse(why);
        if (auto why = open_checked_dir(top.get(), layers_name, (dir / layers_name).string(),
                                        O_NOFOLLOW, layers);
            !why.empty())
            return refuse(why);
        if (explicit_key) return {*explicit_key, ""};
        return read_or_create_key(top.get(), (dir / key_name).string());
    } catch (const std::exception& error) {
        return refuse(dir.string() + ": " + error.what());
    }
}

std::optional<std::string> read_regular_file(const fs::path& path, std::uint64_t max_bytes) {
    try {
        UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC));
        if (!fd) return std::nullopt;
        struct stat info {};
        if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode) || info.st_size < 0 ||
            static_cast<std::uint64_t>(info.st_size) > max_bytes)
            return std::nullopt;
        return read_exactly(fd.get(), static_cast<std::size_t>(info.st_size));
    } catch (const std::exception&) {
        return std::nullopt;  // bad_alloc included: a miss, never a crash
    }
}

}  // namespace cuvet::cache::detail
