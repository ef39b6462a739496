#include "bundle_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "cache/cache_dir.hpp"
#include "cuvet/cache/store.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/unique_fd.hpp"

namespace cuvet::rules_bundle::detail {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t max_file = 64u << 20;
constexpr const char* current_name = "current";

// Why `dir` cannot hold what cuvet trusts: not ours, or writable by others.
std::string distrust(const fs::path& dir) {
    struct stat info {};
    if (::lstat(dir.c_str(), &info) != 0) return dir.string() + ": " + std::strerror(errno);
    if (!S_ISDIR(info.st_mode)) return dir.string() + ": not a directory";
    if (info.st_uid != ::geteuid())
        return dir.string() + ": owned by uid " + std::to_string(info.st_uid) +
               ", not by this user";
    if (info.st_mode & (S_IWGRP | S_IWOTH)) return dir.string() + ": writable by others";
    return {};
}

// cache_dir (checked as the layer cache checks it), then cache_dir/rules.
std::string open_rules_dir(const fs::path& cache_dir, fs::path& rules_dir) {
    const auto opened = cache::detail::open_cache_dir(cache_dir, std::nullopt);
    if (!opened.refused.empty()) return opened.refused;
    rules_dir = cache_dir / "rules";
    if (::mkdir(rules_dir.c_str(), 0700) != 0 && errno != EEXIST)
        return rules_dir.string() + ": " + std::strerror(errno);
    return distrust(rules_dir);
}

void write_file(const fs::path& path, const std::string& bytes) {
    const fs::path temp = path.string() + ".tmp." + std::to_string(::getpid());
    ::unlink(temp.c_str());
    UniqueFd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!fd) fail_io(temp.string() + ": " + std::strerror(errno));
    std::size_t done = 0;
    while (done < bytes.size()) {
        ssize_t wrote = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote <= 0) fail_io(temp.string() + ": " + std::strerror(errno));
        done += static_cast<std::size_t>(wrote);
    }
    if (::fsync(fd.get()) != 0 || ::rename(temp.c_str(), path.c_str()) != 0)
        fail_io(path.string() + ": " + std::strerror(errno));
}

std::string read_or_empty(const fs::path& path) {
    return cache::detail::read_regular_file(path, max_file).value_or("");
}

}  // namespace

fs::path bundle_cache_root(const fs::path& cache_dir) {
    return cache_dir.empty() ? cache::Store::default_dir() : cache_dir;
}

std::optional<CachedBundle> read_cached_bundle(const fs::path& cache_dir, std::string& refused) {
    const fs::path root = bundle_cache_root(cache_dir);
    const fs::path rules_dir = root / "rules";
    std::error_code error;
    if (root.empty() || !fs::exists(rules_dir / current_name, error)) return std::nullopt;
    fs::path opened;
    if (refused = open_rules_dir(root, opened); !refused.empty()) return std::nullopt;
    std::string current = read_or_empty(rules_dir / current_name);
    while (!current.empty() && (current.back() == '\n')) current.pop_back();
    if (current.size() != 64 ||
        current.find_first_not_of("0123456789abcdef") != std::string::npos) {
        refused = (rules_dir / current_name).string() + ": not a bundle digest";
        return std::nullopt;
    }
    CachedBundle bundle;
    bundle.dir = rules_dir / current;
    if (refused = distrust(bundle.dir); !refused.empty()) return std::nullopt;
    bundle.bytes = {read_or_empty(bundle.dir / "manifest.json"),
                    read_or_empty(bundle.dir / "payload.json"),
                    read_or_empty(bundle.dir / "signature.json")};
    bundle.signer_pem = read_or_empty(bundle.dir / "signer.pem");
    bundle.reference = read_or_empty(bundle.dir / "reference");
    return bundle;
}

fs::path store_bundle(const fs::path& cache_dir, const CachedBundle& bundle,
                      const std::string& manifest_digest) {
    const fs::path root = bundle_cache_root(cache_dir);
    fs::path rules_dir;
    if (auto why = open_rules_dir(root, rules_dir); !why.empty())
        fail_io("cannot cache the rules bundle: " + why);
    const std::string hex = manifest_digest.substr(manifest_digest.find(':') + 1);
    const fs::path dir = rules_dir / hex;
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        fail_io(dir.string() + ": " + std::strerror(errno));
    if (auto why = distrust(dir); !why.empty()) fail_io("cannot cache the rules bundle: " + why);
    write_file(dir / "manifest.json", bundle.bytes.manifest);
    write_file(dir / "payload.json", bundle.bytes.payload);
    write_file(dir / "signature.json", bundle.bytes.signature);
    write_file(dir / "signer.pem", bundle.signer_pem);
    write_file(dir / "reference", bundle.reference);
    write_file(rules_dir / current_name, hex + "\n");
    // Bundles no longer current are never read again.
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(rules_dir, error))
        if (entry.is_directory(error) && !entry.is_symlink(error) &&
            entry.path().filename() != hex && entry.path().filename().string().size() == 64)
            fs::remove_all(entry.path(), error);
    return dir;
}

}  // namespace cuvet::rules_bundle::detail
