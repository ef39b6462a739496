#pragma once
// Tar headers read exactly as Go's archive/tar reads them. docker load, dockerd's and
// containerd's layer extraction, podman and skopeo all use that reader, so a byte another
// reader interprets differently (libarchive, a hand-written index) must never decide what
// cuvet judges: which prefix field counts, which numbers parse, which extended header wins.
#include <cstdint>
#include <string>
#include <string_view>

namespace cuvet::image::go_tar {

inline constexpr std::size_t block_size = 512;
// Go refuses pax and GNU long-name payloads above this (ErrFieldTooLong).
inline constexpr std::uint64_t max_special_file = 1 << 20;

struct Header {
    char typeflag = '0';
    std::string name;
    std::string linkname;
    std::int64_t size = 0;
};

struct Block {
    bool zero = false;  // an all-zero block: end of archive (with the one after it)
    std::string error;  // why Go's reader returns ErrHeader for this block; empty when none
    Header header;      // valid when neither
};

// One 512-byte header block: checksum (unsigned or signed), format by magic (V7, USTAR/pax,
// GNU, star), the numeric fields, and the name with the prefix Go would prepend.
Block read_block(const char* block);

// A typeflag whose size field Go ignores: no data follows it.
bool header_only(char typeflag);

// A typeflag of an extended header, which applies to the entry after it.
inline bool extended(char typeflag) {
    return typeflag == 'x' || typeflag == 'g' || typeflag == 'L' || typeflag == 'K';
}

// Bytes the data of `size` takes in the archive, padding included.
inline std::uint64_t padded(std::uint64_t size) {
    return (size + block_size - 1) / block_size * block_size;
}

// Extended headers (pax 'x', GNU 'L' and 'K') collected for the entry that follows them.
class PendingHeaders {
public:
    // An extended header's payload by its type: pax 'x' (kept for the next entry), pax global
    // 'g' (checked, then dropped: Go returns it as an entry of its own), GNU 'L' and 'K'.
    // Returns why Go refuses it; empty when it is accepted.
    std::string add(char type, std::string_view payload);
    // Applies them as Go does (pax path, linkpath and size, then the GNU long names, which
    // win), then forgets them. Returns why Go refuses; empty when it accepts.
    std::string apply_to(Header& header);

private:
    std::string add_pax(std::string_view payload);

    std::string pax_path_, pax_link_, pax_size_;
    bool has_pax_path_ = false, has_pax_link_ = false, has_pax_size_ = false;
    std::string long_name_, long_link_;
    std::string sparse_major_, sparse_minor_, sparse_name_;  // GNU sparse files in pax form
    bool has_sparse_map_ = false;
    int sparse_pairs_ = 0;
    bool user_xattr_ = false;  // a SCHILY.xattr.user.* record
};

}  // namespace cuvet::image::go_tar
