#include "image/layers/go_tar_stream.hpp"

#include <algorithm>
#include <cstring>

#include "cuvet/core/error.hpp"
#include "cuvet/core/printable.hpp"
#include "cuvet/image/file_tree.hpp"
#include "image/storage/go_clean_path.hpp"

namespace cuvet::image {
namespace {

// What the runtimes' createTarFile extracts; any other type fails the layer there
// ("unhandled tar header type"), and a pax global header is skipped.
GoTarStream::Kind kind_of(char typeflag, bool* extracted) {
    *extracted = true;
    switch (typeflag) {
        case '0':
            return GoTarStream::Kind::regular;
        case '1':
            return GoTarStream::Kind::hardlink;
        case '2':
            return GoTarStream::Kind::symlink;
        case '5':
            return GoTarStream::Kind::directory;
        case '3':
        case '4':
        case '6':
            return GoTarStream::Kind::other;
        default:
            *extracted = false;
            return GoTarStream::Kind::other;
    }
}

std::string_view kind_name(GoTarStream::Kind kind) {
    switch (kind) {
        case GoTarStream::Kind::regular:
            return "a file";
        case GoTarStream::Kind::directory:
            return "a directory";
        case GoTarStream::Kind::symlink:
            return "a symbolic link";
        case GoTarStream::Kind::hardlink:
            return "a hard link";
        case GoTarStream::Kind::other:
            return "a device or FIFO";
        case GoTarStream::Kind::global_header:
            return "a pax global header";
    }
    return "?";
}

// A name from the image, escaped and cut short for the one error line.
std::string shown(std::string_view name) { return printable(name.substr(0, 200)); }

}  // namespace

void GoTarStream::refuse(const std::string& why) const {
    fail_input(layer_ + ": " + why +
               "; docker, containerd and podman read layers with Go's archive/tar, so cuvet "
               "refuses a layer they would read differently or not at all");
}

void GoTarStream::feed(const char* bytes, std::size_t size) {
    while (size > 0 && state_ != State::end) {
        std::size_t used = 0;
        if (state_ == State::data) {
            used = static_cast<std::size_t>(std::min<std::uint64_t>(skip_, size));
            skip_ -= used;
            if (skip_ == 0) state_ = State::header;
        } else if (state_ == State::extended) {
            used = static_cast<std::size_t>(std::min<std::uint64_t>(payload_left_, size));
            payload_.append(bytes, used);
            payload_left_ -= used;
            if (payload_left_ == 0) on_extended_payload();
        } else {
            used = std::min(go_tar::block_size - block_fill_, size);
            std::memcpy(block_ + block_fill_, bytes, used);
            block_fill_ += used;
            if (block_fill_ == go_tar::block_size) {
                header_at_ = offset_ + used - go_tar::block_size;
                block_fill_ = 0;
                on_block();
            }
        }
        bytes += used, size -= used, offset_ += used;
    }
}

void GoTarStream::on_block() {
    go_tar::Block parsed = go_tar::read_block(block_);
    const std::string at = " at offset " + std::to_string(header_at_);
    if (state_ == State::after_zero_block) {
        // Two zero blocks end the archive; a zero block and then a header is ErrHeader.
        if (!parsed.zero) refuse("a header after an end-of-archive block" + at);
        state_ = State::end;
        return;
    }
    if (parsed.zero) {
        state_ = State::after_zero_block;
        return;
    }
    if (!parsed.error.empty()) refuse(parsed.error + at);
    go_tar::Header& header = parsed.header;
    const char type = header.typeflag;
    if (header.size < 0 && !go_tar::header_only(type)) refuse("a negative size" + at);
    if (go_tar::extended(type)) {
        if (static_cast<std::uint64_t>(header.size) > go_tar::max_special_file)
            refuse("an extended header of " + std::to_string(header.size) + " bytes" + at +
                   " (Go's limit is 1 MiB)");
        extended_type_ = type;
        global_name_ = header.name;
        payload_.clear();
        payload_left_ = static_cast<std::uint64_t>(header.size);
        skip_ = go_tar::padded(payload_left_) - payload_left_;
        state_ = State::extended;
        if (payload_left_ == 0) on_extended_payload();
        return;
    }
    if (auto error = pending_.apply_to(header); !error.empty()) refuse(error + at);
    bool extracted = false;
    const Kind kind = kind_of(header.typeflag, &extracted);
    if (!extracted)
        refuse("'" + shown(header.name) + "' has tar type '" +
               shown(std::string(1, header.typeflag)) +
               "', which the runtimes do not extract (\"unhandled tar header type\")");
    // tar-split, which docker and podman store every layer with, refuses a name it has seen.
    if (!cleaned_names_.insert(go_tar::clean_path(header.name)).second)
        refuse("'" + shown(header.name) + "' is in the layer twice" + at +
               " (docker and podman: \"duplicates of file paths not supported\")");
    entries_.push_back({header.name, kind});
    skip_ = go_tar::header_only(header.typeflag)
                ? 0
                : go_tar::padded(static_cast<std::uint64_t>(header.size));
    state_ = skip_ > 0 ? State::data : State::header;
}

void GoTarStream::on_extended_payload() {
    const std::string error = pending_.add(extended_type_, payload_);
    if (!error.empty()) refuse(error + " at offset " + std::to_string(header_at_));
    if (extended_type_ == 'g') {
        // Go returns a global header as an entry, named by its own header and its own pax
        // path record (mergePAX); the runtimes skip it only after making its parents.
        go_tar::PendingHeaders own;
        own.add('x', payload_);
        go_tar::Header named;
        named.name = global_name_;
        own.apply_to(named);
        entries_.push_back({named.name, Kind::global_header});
    }
    payload_.clear();
    state_ = skip_ > 0 ? State::data : State::header;
}

std::vector<std::string> GoTarStream::take_global_headers() {
    std::vector<std::string> names;
    while (!entries_.empty() && entries_.front().kind == Kind::global_header) {
        names.push_back(std::move(entries_.front().name));
        entries_.pop_front();
    }
    return names;
}

std::vector<std::string> GoTarStream::expect(std::string_view name, Kind kind) {
    std::vector<std::string> global_headers = take_global_headers();
    if (entries_.empty())
        refuse("libarchive reads an entry '" + shown(name) + "' where Go's archive/tar reads none");
    Entry go = std::move(entries_.front());
    entries_.pop_front();
    // The two readers almost always spell a name alike; only then is normalising skipped.
    if (go.name != name && normalize_path(go.name, false) != normalize_path(name, false))
        refuse("Go's archive/tar names an entry '" + shown(go.name) + "', libarchive '" +
               shown(name) + "'");
    if (go.kind != kind)
        refuse("'" + shown(go.name) + "' is " + std::string(kind_name(go.kind)) +
               " to Go's archive/tar and " + std::string(kind_name(kind)) + " to libarchive");
    return global_headers;
}

std::vector<std::string> GoTarStream::finish() {
    const bool at_boundary =
        block_fill_ == 0 &&
        (state_ == State::header || state_ == State::after_zero_block || state_ == State::end);
    if (!at_boundary) refuse("the layer ends inside an entry (Go: unexpected EOF)");
    std::vector<std::string> global_headers = take_global_headers();
    if (!entries_.empty())
        refuse("Go's archive/tar reads an entry '" + shown(entries_.front().name) +
               "' that libarchive does not");
    return global_headers;
}

}  // namespace cuvet::image
