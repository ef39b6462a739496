#include "support/tar_writer.hpp"

#include <openssl/evp.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace cuvet::test {

TarEntry file(std::string name, std::string data, std::uint32_t mode) {
    TarEntry entry;
    entry.name = std::move(name);
    entry.data = std::move(data);
    entry.mode = mode;
    return entry;
}

TarEntry dir(std::string name, std::uint32_t mode) {
    TarEntry entry;
    entry.name = std::move(name);
    entry.type = TarEntry::Type::directory;
    entry.mode = mode;
    return entry;
}

TarEntry soft_link(std::string name, std::string target) {
    TarEntry entry;
    entry.name = std::move(name);
    entry.type = TarEntry::Type::symlink;
    entry.link_target = std::move(target);
    entry.mode = 0777;
    return entry;
}

TarEntry hard_link(std::string name, std::string source) {
    TarEntry entry;
    entry.name = std::move(name);
    entry.type = TarEntry::Type::hardlink;
    entry.link_target = std::move(source);
    return entry;
}

static std::string with_prefix_on_last(std::string_view path, std::string_view prefix) {
    auto slash = path.rfind('/');
    if (slash == std::string_view::npos) return std::string(prefix) + std::string(path);
    return std::string(path.substr(0, slash + 1)) + std::string(prefix) +
           std::string(path.substr(slash + 1));
}

TarEntry whiteout(std::string_view path) { return file(with_prefix_on_last(path, ".wh."), ""); }

TarEntry opaque(std::string_view dir_path) {
    std::string name(dir_path);
    if (!name.empty() && name.back() != '/') name += '/';
    return file(name + ".wh..wh..opq", "");
}

namespace {

constexpr std::size_t block = 512;
constexpr std::uint64_t max_octal_size = 077777777777ULL;  // 11 octal digits

void put_octal(char* field, std::size_t width, std::uint64_t value) {
    // width includes the terminating NUL, as GNU tar and libarchive write it. Digits are
    // written by hand: snprintf's "%0*llo" makes GCC 12 -O2 warn of truncation it cannot rule out.
    field[width - 1] = '\0';
    for (std::size_t i = width - 1; i-- > 0; value >>= 3)
        field[i] = static_cast<char>('0' + (value & 7));
}

void put_string(char* field, std::size_t width, std::string_view value) {
    std::memcpy(field, value.data(), std::min(width, value.size()));
}

std::string pax_record(std::string_view key, std::string_view value) {
    // "<len> key=value\n" where len counts its own digits too.
    std::size_t body = key.size() + value.size() + 3;  // ' ', '=', '\n'
    std::size_t len = body + 1;
    while (std::to_string(len).size() + body != len) ++len;
    return std::to_string(len) + " " + std::string(key) + "=" + std::string(value) + "\n";
}

void pad_to_block(std::string& out) {
    if (out.size() % block) out.append(block - out.size() % block, '\0');
}

std::string header(const TarEntry& entry, std::string_view name, std::string_view link,
                   std::uint64_t size, char typeflag) {
    std::string h(block, '\0');
    put_string(&h[0], 100, name);
    put_octal(&h[100], 8, entry.mode & 07777);
    put_octal(&h[108], 8, entry.uid);
    put_octal(&h[116], 8, entry.gid);
    put_octal(&h[124], 12, std::min(size, max_octal_size));
    put_octal(&h[136], 12, static_cast<std::uint64_t>(entry.mtime));
    h[156] = typeflag;
    put_string(&h[157], 100, link);
    std::memcpy(&h[257], "ustar", 6);
    std::memcpy(&h[263], "00", 2);
    put_string(&h[265], 32, "root");
    put_string(&h[297], 32, "root");
    std::memset(&h[148], ' ', 8);
    unsigned sum = 0;
    for (unsigned char c : h) sum += c;
    std::snprintf(&h[148], 8, "%06o", sum);  // six digits, NUL, then the space kept
    h[155] = ' ';
    return h;
}

char typeflag_of(TarEntry::Type type) {
    switch (type) {
        case TarEntry::Type::regular:
            return '0';
        case TarEntry::Type::hardlink:
            return '1';
        case TarEntry::Type::symlink:
            return '2';
        case TarEntry::Type::directory:
            return '5';
        case TarEntry::Type::fifo:
            return '6';
        case TarEntry::Type::char_device:
            return '3';
    }
    return '0';
}

}  // namespace

std::string make_tar(const std::vector<TarEntry>& entries) {
    std::string out;
    for (const auto& entry : entries) {
        std::uint64_t size = entry.type == TarEntry::Type::regular ? entry.data.size() : 0;
        if (entry.declared_size) size = *entry.declared_size;
        std::string pax;
        if (entry.name.size() > 100) pax += pax_record("path", entry.name);
        if (entry.link_target.size() > 100) pax += pax_record("linkpath", entry.link_target);
        if (size > max_octal_size) pax += pax_record("size", std::to_string(size));
        if (!pax.empty()) {
            TarEntry pax_owner;
            out += header(pax_owner, "PaxHeaders/" + entry.name.substr(0, 80), "", pax.size(), 'x');
            out += pax;
            pad_to_block(out);
        }
        out += header(entry, std::string_view(entry.name).substr(0, 100),
                      std::string_view(entry.link_target).substr(0, 100), size,
                      typeflag_of(entry.type));
        if (entry.type == TarEntry::Type::regular) {
            out += entry.data;
            pad_to_block(out);
        }
    }
    out.append(2 * block, '\0');
    return out;
}

std::string_view to_string(Compression compression) {
    switch (compression) {
        case Compression::none:
            return "none";
        case Compression::gzip:
            return "gzip";
        case Compression::zstd:
            return "zstd";
    }
    return "?";
}

static std::string gzip(std::string_view bytes) {
    z_stream z{};
    // 15 + 16: a gzip wrapper, as docker and containerd write layers.
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("deflateInit2 failed");
    std::string out(deflateBound(&z, bytes.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    int rc = deflate(&z, Z_FINISH);
    deflateEnd(&z);
    if (rc != Z_STREAM_END) throw std::runtime_error("gzip compression failed");
    out.resize(z.total_out);
    return out;
}

static std::string zstd(std::string_view bytes) {
    std::string out(ZSTD_compressBound(bytes.size()), '\0');
    std::size_t n = ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), 3);
    if (ZSTD_isError(n)) throw std::runtime_error("zstd compression failed");
    out.resize(n);
    return out;
}

std::string compress(std::string_view bytes, Compression compression) {
    switch (compression) {
        case Compression::none:
            return std::string(bytes);
        case Compression::gzip:
            return gzip(bytes);
        case Compression::zstd:
            return zstd(bytes);
    }
    return std::string(bytes);
}

std::string sha256_hex(std::string_view bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (!EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr))
        throw std::runtime_error("EVP_Digest failed");
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < length; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 15];
    }
    return out;
}

}  // namespace cuvet::test
