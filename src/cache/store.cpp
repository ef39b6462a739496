#include "cuvet/cache/store.hpp"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <random>

#include "cache_dir.hpp"
#include "cuvet/core/error.hpp"
#include "facts_codec.hpp"

namespace cuvet::cache {

namespace fs = std::filesystem;

struct Store::Counters {
    std::atomic<std::size_t> hits{0}, misses{0}, rejected{0}, written{0};
};

namespace {

constexpr std::string_view magic = "CUVETLF\n";
constexpr std::size_t tag_size = 32;  // HMAC-SHA256
constexpr std::string_view entry_suffix = ".facts";
constexpr std::string_view temp_marker = ".tmp.";

std::string sha256_raw(std::string_view bytes) {
    std::string digest(32, '\0');
    unsigned int length = 0;
    EVP_Digest(bytes.data(), bytes.size(), reinterpret_cast<unsigned char*>(digest.data()), &length,
               EVP_sha256(), nullptr);
    return digest;
}

std::string hex(std::string_view bytes) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) {
        out.push_back(digits[c >> 4]);
        out.push_back(digits[c & 15]);
    }
    return out;
}

// What an entry says about itself before its payload.
struct Header {
    std::uint64_t version = 0;
    std::string analyzer, diff_id, blob_digest;
};

Header read_header(detail::Reader& in) {
    Header h;
    h.version = in.u64();
    h.analyzer = in.str();
    h.diff_id = in.str();
    h.blob_digest = in.str();
    return h;
}

bool ours(const Header& h) { return h.version == format_version && h.analyzer == CUVET_VERSION; }

// Last use is the file's mtime: a hit touches it, eviction sorts by it.
void touch(const fs::path& path) {
    ::utimensat(AT_FDCWD, path.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
}

// A file of our own (O_EXCL, no link followed), whole or not at all.
bool write_new_file(const fs::path& path, std::string_view bytes) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    std::size_t done = 0;
    while (done < bytes.size()) {
        ssize_t wrote = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote <= 0) break;
        done += static_cast<std::size_t>(wrote);
    }
    return ::close(fd) == 0 && done == bytes.size();
}

bool is_temp(const fs::path& path) {
    return path.filename().string().find(temp_marker) != std::string::npos;
}

// A name cuvet gives its files: 64 hex digits and ".facts", then for a temp
// file ".tmp." and more. Anything else in layers/ is not ours, and is neither
// read nor removed (a cache dir may once have been something else).
bool named_by_cuvet(const fs::path& path) {
    const std::string name = path.filename().string();
    if (name.size() < 64 + entry_suffix.size()) return false;
    for (std::size_t i = 0; i < 64; ++i)
        if (!std::isxdigit(static_cast<unsigned char>(name[i])) ||
            std::isupper(static_cast<unsigned char>(name[i])))
            return false;
    const std::string_view rest = std::string_view(name).substr(64);
    return rest == entry_suffix || (rest.starts_with(entry_suffix) &&
                                    rest.substr(entry_suffix.size()).starts_with(temp_marker));
}

}  // namespace

std::uint64_t parse_size(const std::string& text) {
    std::size_t used = 0;
    std::uint64_t value = 0;
    try {
        value = std::stoull(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    std::string unit = used ? text.substr(used) : "";
    std::uint64_t scale = unit.empty()  ? 1
                          : unit == "K" ? 1ull << 10
                          : unit == "M" ? 1ull << 20
                          : unit == "G" ? 1ull << 30
                                        : 0;
    if (used == 0 || text[0] == '-' || scale == 0 || value > UINT64_MAX / scale)
        fail_usage("cache size '" + text +
                   "': want a number of bytes, optionally with K, M or G (\"500M\")");
    return value * scale;
}

std::uint64_t max_bytes_from_env() {
    const char* text = std::getenv("CUVET_CACHE_MAX");
    return text && *text ? parse_size(text) : default_max_bytes;
}

std::optional<std::string> explicit_key(const std::string& key_file) {
    std::string key;
    std::string source;
    if (!key_file.empty()) {
        auto bytes = detail::read_regular_file(key_file, 4096);
        if (!bytes)
            fail_input(key_file + ": cannot read the cache key (a regular file of at most 4 KiB)");
        key = std::move(*bytes);
        if (!key.empty() && key.back() == '\n') key.pop_back();
        source = key_file;
    } else if (const char* text = std::getenv("CUVET_CACHE_KEY"); text && *text) {
        key = text;
        source = "CUVET_CACHE_KEY";
    } else {
        return std::nullopt;
    }
    if (key.size() < min_key_bytes)
        fail_usage(source + ": a cache key needs at least " + std::to_string(min_key_bytes) +
                   " bytes (openssl rand -hex 32 makes one)");
    return key;
}

Store::Store(fs::path dir, std::uint64_t max_bytes, std::optional<std::string> key)
    : dir_(std::move(dir)), max_bytes_(max_bytes), counters_(std::make_shared<Counters>()) {
    auto opened = detail::open_cache_dir(dir_, key);
    key_ = std::move(opened.key);
    refused_ = std::move(opened.refused);
}

fs::path Store::default_dir() {
    // Never a shared place such as $TMPDIR: another user could seed it.
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/')
        return fs::path(xdg) / "cuvet";
    if (const char* home = std::getenv("HOME"); home && *home == '/')
        return fs::path(home) / ".cache" / "cuvet";
    return {};
}

std::string Store::tag(std::string_view body) const {
    std::string out(tag_size, '\0');
    unsigned int length = 0;
    HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()),
         reinterpret_cast<const unsigned char*>(body.data()), body.size(),
         reinterpret_cast<unsigned char*>(out.data()), &length);
    return out;
}

// The body (header + payload) of an entry whose tag this cache's key made;
// nullopt for anything else.
std::optional<std::string_view> Store::authentic_body(std::string_view file) const {
    if (key_.empty() || file.size() < magic.size() + tag_size ||
        file.substr(0, magic.size()) != magic)
        return std::nullopt;
    std::string_view body = file.substr(0, file.size() - tag_size);
    if (CRYPTO_memcmp(tag(body).data(), file.data() + body.size(), tag_size) != 0)
        return std::nullopt;
    return body.substr(magic.size());
}

fs::path Store::file_of(const Key& key) const {
    // Both parts name the entry: the same tar compressed another way is another
    // blob, and only a verified blob digest vouches for the bytes read.
    return dir_ / "layers" /
           (hex(sha256_raw(key.diff_id + "\n" + key.blob_digest)) + std::string(entry_suffix));
}

std::optional<LayerFacts> Store::load(const Key& key) {
    if (!refused_.empty()) {
        ++counters_->misses;
        return std::nullopt;
    }
    try {
        fs::path file = file_of(key);
        auto bytes = detail::read_regular_file(file, max_entry_bytes);
        if (!bytes) {
            ++counters_->misses;
            return std::nullopt;
        }
        auto body = authentic_body(*bytes);
        if (!body) throw detail::DecodeError("tag");
        detail::Reader in(*body);
        Header header = read_header(in);
        if (!ours(header) || header.diff_id != key.diff_id || header.blob_digest != key.blob_digest)
            throw detail::DecodeError("foreign");
        LayerFacts facts = detail::decode_facts(in);
        touch(file);
        ++counters_->hits;
        return facts;
    } catch (...) {
        // Damaged, forged or foreign: read the layer again; save() replaces the file.
        ++counters_->rejected;
        return std::nullopt;
    }
}

void Store::save(const Key& key, const LayerFacts& facts) {
    if (key.diff_id.empty() || !refused_.empty()) return;
    try {
        detail::Writer out;
        out.raw(magic);
        out.u64(format_version);
        out.str(CUVET_VERSION);
        out.str(key.diff_id);
        out.str(key.blob_digest);
        detail::encode_facts(out, facts);
        std::string& bytes = out.bytes();
        if (bytes.size() + tag_size > max_entry_bytes) return;  // load() would never read it
        bytes += tag(bytes);

        fs::path file = file_of(key);
        fs::create_directories(file.parent_path());
        // A temp name of our own, then rename: readers see the old entry or the
        // whole new one, never a partial file, even with several cuvets at once.
        thread_local std::mt19937_64 random{std::random_device{}()};
        fs::path temp = file;
        temp +=
            std::string(temp_marker) + std::to_string(::getpid()) + "." + std::to_string(random());
        if (!write_new_file(temp, bytes)) {
            std::error_code ignored;
            fs::remove(temp, ignored);
            return;
        }
        std::error_code error;
        fs::rename(temp, file, error);
        if (error) {
            fs::remove(temp, error);
            return;
        }
        ++counters_->written;
        auto all = entries(false);
        std::uint64_t total = 0;
        for (auto& entry : all) {
            total += entry.bytes;
            entry.usable = true;  // judged by age and size alone here
        }
        if (total > max_bytes_) trim(all, max_bytes_);
    } catch (...) {
        // A read-only or full cache dir costs speed, never the verdict.
    }
}

std::vector<EntryInfo> Store::list() const {
    return refused_.empty() ? entries(true) : std::vector<EntryInfo>{};
}

// Every file in the layers dir, most recently used first; `inspect` also
// reads each one to say whether it is usable (list, prune), which eviction
// after a write does not need.
std::vector<EntryInfo> Store::entries(bool inspect) const {
    std::vector<EntryInfo> entries;
    std::error_code error;
    for (fs::directory_iterator it(dir_ / "layers", error), end; !error && it != end;
         it.increment(error)) {
        EntryInfo info;
        info.file = it->path();
        std::error_code stat_error;
        // Only regular files are entries: a link, FIFO or directory is never
        // opened, and never removed (eviction unlinks only what it wrote).
        if (!it->is_regular_file(stat_error) || it->is_symlink(stat_error)) continue;
        if (!named_by_cuvet(info.file)) continue;
        info.bytes = it->file_size(stat_error);
        info.last_used = it->last_write_time(stat_error);
        if (stat_error) continue;
        if (inspect && !is_temp(info.file)) inspect_entry(info);
        entries.push_back(std::move(info));
    }
    std::sort(entries.begin(), entries.end(),
              [](const EntryInfo& a, const EntryInfo& b) { return a.last_used > b.last_used; });
    return entries;
}

void Store::inspect_entry(EntryInfo& info) const {
    auto bytes = detail::read_regular_file(info.file, max_entry_bytes);
    if (!bytes) return;
    auto body = authentic_body(*bytes);
    if (!body) return;
    try {
        detail::Reader in(*body);
        Header header = read_header(in);
        info.diff_id = header.diff_id;
        info.blob_digest = header.blob_digest;
        info.usable = ours(header) && info.file == file_of({header.diff_id, header.blob_digest});
    } catch (const detail::DecodeError&) {
    }
}

std::uint64_t Store::prune(std::uint64_t max_bytes) {
    return refused_.empty() ? trim(entries(true), max_bytes) : 0;
}

std::uint64_t Store::trim(const std::vector<EntryInfo>& entries, std::uint64_t max_bytes) {
    std::uint64_t kept = 0, freed = 0;
    bool full = false;
    const auto an_hour_ago = fs::file_time_type::clock::now() - std::chrono::hours(1);
    for (const auto& entry : entries) {
        // Temp files of a running cuvet are young; only old ones are strays.
        if (is_temp(entry.file) && entry.last_used > an_hour_ago) continue;
        // Least recently used go first: once one does not fit, no older one stays.
        full = full || kept + entry.bytes > max_bytes;
        if (!is_temp(entry.file) && entry.usable && !full) {
            kept += entry.bytes;
            continue;
        }
        std::error_code error;
        if (fs::remove(entry.file, error)) freed += entry.bytes;
    }
    return freed;
}

Stats Store::stats() const {
    return {counters_->hits.load(), counters_->misses.load(), counters_->rejected.load(),
            counters_->written.load()};
}

}  // namespace cuvet::cache
