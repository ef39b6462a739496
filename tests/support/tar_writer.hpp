#pragma once
// A tar writer of our own for test images. It is deliberately independent of
// libarchive (which the reader uses), so a bug shared by both cannot hide, and
// it writes whatever it is told — "../../etc/passwd", absolute names, sizes
// that lie — because bad-input tests need exactly those bytes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::test {

struct TarEntry {
    enum class Type { regular, directory, symlink, hardlink, fifo, char_device };
    std::string name;  // written as is: no normalisation, no leading "./" added
    Type type = Type::regular;
    std::string data;         // regular files only
    std::string link_target;  // symlink target, or the hard link's source name
    std::uint32_t mode = 0644;
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
    std::int64_t mtime = 1700000000;
    // The size the header claims, when it must differ from data.size()
    // (absurd sizes, truncated archives).
    std::optional<std::uint64_t> declared_size;
};

// Entry helpers for layers.
TarEntry file(std::string name, std::string data, std::uint32_t mode = 0644);
TarEntry dir(std::string name, std::uint32_t mode = 0755);
TarEntry soft_link(std::string name, std::string target);
TarEntry hard_link(std::string name, std::string source);
// "a/b/c" -> "a/b/.wh.c": deletes c of a lower layer (OCI image spec, whiteouts).
TarEntry whiteout(std::string_view path);
// "a/b" -> "a/b/.wh..wh..opq": hides everything lower layers put below a/b.
TarEntry opaque(std::string_view dir_path);

// ustar headers, with a pax extended header when a name, link or size does
// not fit; ends with the two zero blocks.
std::string make_tar(const std::vector<TarEntry>& entries);

enum class Compression { none, gzip, zstd };
std::string_view to_string(Compression compression);
std::string compress(std::string_view bytes, Compression compression);

// Lower-case hex of the SHA-256 of bytes (OpenSSL EVP).
std::string sha256_hex(std::string_view bytes);

}  // namespace cuvet::test
