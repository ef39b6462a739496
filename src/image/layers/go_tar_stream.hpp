#pragma once
// A layer read a second time, as Go's archive/tar reads it (docker, containerd and podman
// extract with it), from the very bytes libarchive reads. libarchive's entries must be Go's
// entries, in order, with the same names and kinds: a layer that a runtime reads otherwise
// (a GNU header's atime taken as a path prefix, a hard link's data smuggling headers, a
// zero block followed by more entries) or refuses (a header Go rejects, a type the
// runtime does not extract) fails here instead of being judged as something it is not.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "image/storage/go_tar.hpp"

namespace cuvet::image {

class GoTarStream {
public:
    // What libarchive made of an entry, in the terms compared.
    enum class Kind { regular, directory, symlink, hardlink, other, global_header };

    explicit GoTarStream(std::string layer) : layer_(std::move(layer)) {}

    // The layer's next decompressed bytes, before libarchive sees them.
    void feed(const char* bytes, std::size_t size);
    // libarchive's next entry, as it names it. Returns the names of the pax global headers Go
    // read before it: Go returns each as an entry, which libarchive does not.
    std::vector<std::string> expect(std::string_view name, Kind kind);
    // The whole stream was fed: nothing is left half read or unseen by libarchive. Returns the
    // names of pax global headers after libarchive's last entry.
    std::vector<std::string> finish();

private:
    struct Entry {
        std::string name;
        Kind kind;
    };
    enum class State { header, after_zero_block, data, extended, end };

    void on_block();
    std::vector<std::string> take_global_headers();
    void on_extended_payload();
    [[noreturn]] void refuse(const std::string& why) const;

    std::string layer_;
    State state_ = State::header;
    char block_[go_tar::block_size] = {};
    std::size_t block_fill_ = 0;
    std::uint64_t offset_ = 0;     // of the next byte fed
    std::uint64_t header_at_ = 0;  // offset of the header being handled
    std::uint64_t skip_ = 0;       // data and padding still to pass
    char extended_type_ = 0;
    std::string global_name_;  // the pax global header being read, as its header names it
    std::string payload_;
    std::uint64_t payload_left_ = 0;
    go_tar::PendingHeaders pending_;
    std::deque<Entry> entries_;                      // Go's entries libarchive has not reached yet
    std::unordered_set<std::string> cleaned_names_;  // every entry so far, as tar-split compares
};

}  // namespace cuvet::image
