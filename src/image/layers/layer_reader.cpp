#include "image/layers/layer_reader.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <exception>
#include <unordered_set>
#include <vector>

#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "cuvet/image/read_counter.hpp"
#include "image/layers/go_tar_stream.hpp"
#include "image/layers/image_budget.hpp"
#include "image/layers/inflate_guard.hpp"
#include "image/layers/upper_dir.hpp"

namespace cuvet::image {
namespace {

constexpr std::string_view whiteout_prefix = ".wh.";
constexpr std::string_view opaque_marker = ".wh..wh..opq";
constexpr std::uint32_t setgid_bit = 02000;

// libarchive is C: exceptions must not cross it, so the read callback parks
// them here and read_layer rethrows once libarchive has returned.
struct StreamContext {
    ByteSource* source = nullptr;
    const std::string* name = nullptr;
    std::vector<char> buffer = std::vector<char>(1 << 20);
    std::exception_ptr error;
    std::uint64_t total = 0;
    GoTarStream* go_reading = nullptr;  // sees every byte before libarchive does
};

la_ssize_t read_callback(struct archive*, void* opaque, const void** out) {
    auto* context = static_cast<StreamContext*>(opaque);
    try {
        std::size_t got = context->source->read(context->buffer.data(), context->buffer.size());
        context->total += got;
        count_layer_bytes(got);
        // A few KB of zstd may inflate to terabytes: the count, not the
        // blob's size, decides when to stop.
        if (context->total > scan_limits().layer_bytes)
            throw LimitExceeded(
                "decompresses to more than " + std::to_string(scan_limits().layer_bytes) + " bytes",
                "layer-bytes")
                .with_file(*context->name);
        if (context->go_reading) context->go_reading->feed(context->buffer.data(), got);
        *out = context->buffer.data();
        return static_cast<la_ssize_t>(got);
    } catch (...) {
        context->error = std::current_exception();
        return -1;
    }
}

struct ArchiveDeleter {
    void operator()(struct archive* a) const { archive_read_free(a); }
};

class LayerParser {
public:
    LayerParser(const std::string& name, int layer_index, const ScanOptions& options,
                ImageBudget* budget)
        : name_(name),
          layer_(layer_index),
          options_(options),
          budget_(budget),
          go_reading_(name),
          upper_(name) {}

    void parse(ByteSource& tar, LayerContents& out) {
        context_.source = &tar;
        context_.name = &name_;
        context_.go_reading = &go_reading_;
        std::unique_ptr<struct archive, ArchiveDeleter> reader(archive_read_new());
        archive_read_support_format_tar(reader.get());
        if (archive_read_open(reader.get(), &context_, nullptr, read_callback, nullptr) !=
            ARCHIVE_OK)
            fail(reader.get(), "cannot open");
        struct archive_entry* header = nullptr;
        while (true) {
            int status = archive_read_next_header(reader.get(), &header);
            if (status == ARCHIVE_EOF) break;
            // ARCHIVE_RETRY is how libarchive reports a damaged header (bad
            // checksum); skipping ahead would silently drop the rest of the layer.
            if (status != ARCHIVE_OK && status != ARCHIVE_WARN)
                fail(reader.get(), "bad tar header");
            handle(reader.get(), header, out);
        }
        reader.reset();
        // libarchive stops at the end-of-archive blocks; the rest must still
        // flow through so that the digest check sees every byte.
        const void* ignored = nullptr;
        while (read_callback(nullptr, &context_, &ignored) > 0) {
        }
        if (context_.error) std::rethrow_exception(context_.error);
        make_global_header_parents(go_reading_.finish(), out);
        out.tar_bytes = context_.total;
    }

private:
    [[noreturn]] void fail(struct archive* reader, const std::string& what) {
        if (context_.error) std::rethrow_exception(context_.error);
        const char* detail = archive_error_string(reader);
        std::string message = detail ? detail : what;
        if (message.find("Unrecognized archive format") != std::string::npos)
            fail_input(name_ + ": not a tar archive (layer data is neither tar, gzip nor zstd)");
        fail_input(name_ + ": corrupt layer: " + message);
    }

    std::string entry_path(const char* raw) const {
        std::string name = raw ? raw : "";
        if (!name.empty() && name[0] == '/')
            fail_input(name_ + ": absolute entry name '" + name + "' (path traversal)");
        std::string normal = normalize_path(name, false);
        if (normal.empty())
            fail_input(name_ + ": entry '" + name +
                       "' climbs out of the image root (path traversal)");
        return normal;
    }

    static GoTarStream::Kind kind_of(struct archive_entry* header) {
        if (archive_entry_hardlink(header)) return GoTarStream::Kind::hardlink;
        switch (archive_entry_filetype(header)) {
            case AE_IFREG:
                return GoTarStream::Kind::regular;
            case AE_IFDIR:
                return GoTarStream::Kind::directory;
            case AE_IFLNK:
                return GoTarStream::Kind::symlink;
            default:
                return GoTarStream::Kind::other;
        }
    }

    void handle(struct archive* reader, struct archive_entry* header, LayerContents& out) {
        const char* raw_path = archive_entry_pathname(header);
        make_global_header_parents(go_reading_.expect(raw_path ? raw_path : "", kind_of(header)),
                                   out);
        std::string path = entry_path(raw_path);
        if (path == "/") return;
        check_path_cost(path);
        auto slash = path.rfind('/');
        std::string dir = slash == 0 ? "/" : path.substr(0, slash);
        std::string_view base = std::string_view(path).substr(slash + 1);
        if (base.substr(0, whiteout_prefix.size()) == whiteout_prefix) {
            if (base == opaque_marker) {
                out.opaque_dirs.push_back(dir);
            } else if (base.substr(whiteout_prefix.size(), 4) != ".wh.") {
                // Other ".wh..wh." names are reserved by the spec and carry nothing for us.
                out.whiteouts.push_back((dir == "/" ? "" : dir) + "/" +
                                        std::string(base.substr(whiteout_prefix.size())));
                upper_.add_whiteout(out.whiteouts.back());
            }
            return;
        }
        LayerEntry item;
        FileEntry& entry = item.entry;
        entry.path = path;
        entry.layer = layer_;
        entry.mode = archive_entry_perm(header);
        // Negative ids (a corrupt header) cannot name an owner; they read as root's, as the
        // kernel would refuse the chown that Go's reader passes them to.
        entry.uid = static_cast<std::uint32_t>(std::max<la_int64_t>(archive_entry_uid(header), 0));
        entry.gid = static_cast<std::uint32_t>(std::max<la_int64_t>(archive_entry_gid(header), 0));
        entry.size = archive_entry_size_is_set(header)
                         ? static_cast<std::uint64_t>(archive_entry_size(header))
                         : 0;
        if (const char* hardlink = archive_entry_hardlink(header)) {
            entry.type = FileType::hardlink;
            entry.link_target = entry_path(hardlink);
        } else {
            switch (archive_entry_filetype(header)) {
                case AE_IFREG:
                    entry.type = FileType::regular;
                    break;
                case AE_IFDIR:
                    entry.type = FileType::directory;
                    break;
                case AE_IFLNK:
                    entry.type = FileType::symlink;
                    entry.link_target =
                        archive_entry_symlink(header) ? archive_entry_symlink(header) : "";
                    // Resolving links copies targets around: Linux's own bound
                    // keeps that cheap, and such a layer cannot be extracted anyway.
                    if (entry.link_target.size() > max_link_target)
                        fail_input(name_ + ": " + path + ": symbolic link target of " +
                                   std::to_string(entry.link_target.size()) +
                                   " bytes (Linux allows " + std::to_string(max_link_target) + ")");
                    entry.size = entry.link_target.size();  // what lstat reports once extracted
                    break;
                case AE_IFIFO:
                    entry.type = FileType::fifo;
                    break;
                case AE_IFCHR:
                case AE_IFBLK:
                    entry.type = FileType::device;
                    break;
                default:
                    entry.type = FileType::other;
                    break;
            }
        }
        if (entry.type == FileType::directory && (entry.mode & setgid_bit) != 0)
            setgid_dirs_.insert(entry.path);
        else if (!setgid_dirs_.empty())
            setgid_dirs_.erase(entry.path);
        if (entry.type == FileType::hardlink)
            upper_.add_hard_link(entry.path, entry.link_target);
        else
            upper_.add(entry.path);
        path_bytes_ += entry.link_target.size();
        if (budget_) budget_->charge(0, entry.link_target.size(), name_);
        if (entry.type == FileType::regular && options_.select && options_.select(entry))
            item.content = read_content(reader, entry);
        out.entries.push_back(std::move(item));
    }

    // Go's archive/tar returns a pax global header as an entry of its own, and the runtimes'
    // extraction makes that entry's missing parent directories (MkdirAll: 0755, root's) before
    // it skips the header; they are in the layer as directories it made (found by tests/parity).
    void make_global_header_parents(const std::vector<std::string>& names, LayerContents& out) {
        for (const auto& name : names) {
            // Never written itself, so never a traversal: the extraction runs chrooted in the
            // layer's directory, where "/x" and "../x" both name /x (GNU tar names its global
            // headers $TMPDIR/GlobalHead.%p.%n).
            std::string path = normalize_path(name, true);
            if (path.empty() || path == "/") continue;
            check_path_cost(path);
            std::vector<std::string> missing;  // deepest first
            for (auto slash = path.rfind('/'); slash != std::string::npos && slash > 0;
                 slash = path.rfind('/', slash - 1)) {
                std::string parent = path.substr(0, slash);
                if (upper_.holds(parent)) break;
                missing.push_back(std::move(parent));
            }
            for (auto it = missing.rbegin(); it != missing.rend(); ++it)
                out.entries.push_back(made_directory(std::move(*it)));
        }
    }

    // A directory MkdirAll made: mkdir(2) in a setgid directory sets the setgid bit, which the
    // chown to root that follows keeps on a directory.
    LayerEntry made_directory(std::string path) {
        LayerEntry item;
        FileEntry& made = item.entry;
        const auto slash = path.rfind('/');
        const bool inherits = slash > 0 && setgid_dirs_.count(path.substr(0, slash)) != 0;
        made.type = FileType::directory;
        made.mode = 0755 | (inherits ? setgid_bit : 0);
        made.layer = layer_;
        if (inherits) setgid_dirs_.insert(path);
        upper_.add(path);
        made.path = std::move(path);
        return item;
    }

    // 300k names of 3.8 KB fit in a 1.7 MB zstd layer and cost gigabytes once
    // held (the layer's entries, then the merged tree); each extra level of a
    // name is resolved once per entry under it. Both are counted as read.
    void check_path_cost(const std::string& path) {
        if (budget_) budget_->charge(1, path.size(), name_);
        path_bytes_ += path.size();
        if (path_bytes_ > scan_limits().path_bytes)
            throw LimitExceeded("more than " + std::to_string(scan_limits().path_bytes) +
                                    " bytes of entry names and link targets",
                                "path-bytes")
                .with_file(name_);
        const auto depth = static_cast<std::uint64_t>(std::count(path.begin(), path.end(), '/'));
        if (depth > scan_limits().path_depth)
            throw LimitExceeded("'" + path.substr(0, 64) + "…' is more than " +
                                    std::to_string(scan_limits().path_depth) + " directories deep",
                                "path-depth")
                .with_file(name_);
    }

    // Limits hit while a file is read name that file and its layer.
    std::shared_ptr<const std::string> read_content(struct archive* reader,
                                                    const FileEntry& entry) {
        try {
            return read_or_stream(reader, entry);
        } catch (const LimitExceeded& error) {
            throw error.with_file(name_ + ": " + entry.path);
        }
    }

    std::shared_ptr<const std::string> read_or_stream(struct archive* reader,
                                                      const FileEntry& entry) {
        if (options_.open_sink) {
            if (auto sink = options_.open_sink(entry)) {
                stream_into(reader, entry, *sink);
                return nullptr;
            }
        }
        // A visitor only borrows the bytes, so one buffer per worker is reused:
        // allocating (and page-faulting) a fresh 500 MB string per CUDA library
        // cost more system time than the inflate itself.
        if (options_.on_content) {
            read_into(reader, entry, scratch_);
            options_.on_content(entry, scratch_);
            return nullptr;
        }
        auto bytes = std::make_shared<std::string>();
        read_into(reader, entry, *bytes);
        return bytes;
    }

    // libarchive's blocks of the current entry, in order, with their offsets
    // (sparse entries skip ahead).
    template <typename OnBlock>
    void for_each_block(struct archive* reader, const FileEntry& entry, OnBlock&& on_block) {
        const void* block = nullptr;
        std::size_t length = 0;
        la_int64_t offset = 0;
        while (true) {
            int status = archive_read_data_block(reader, &block, &length, &offset);
            if (status == ARCHIVE_EOF) break;
            if (status != ARCHIVE_OK && status != ARCHIVE_WARN)
                fail(reader, "cannot read " + entry.path);
            on_block(std::string_view(static_cast<const char*>(block), length),
                     static_cast<std::uint64_t>(offset));
        }
    }

    // The blocks go straight from libarchive's buffer to the sink: no copy of
    // the whole file is ever made here.
    void stream_into(struct archive* reader, const FileEntry& entry, ContentSink& sink) {
        for_each_block(reader, entry, [&](std::string_view block, std::uint64_t offset) {
            sink.write(block, offset);
        });
        sink.finish();
    }

    void read_into(struct archive* reader, const FileEntry& entry, std::string& bytes) {
        bytes.clear();
        // The header's size is a hint, not a promise: cap what it may reserve.
        bytes.reserve(static_cast<std::size_t>(
            std::min<std::uint64_t>({entry.size, 1u << 30, scan_limits().file_bytes})));
        for_each_block(reader, entry, [&](std::string_view block, std::uint64_t offset) {
            // Sparse holes are materialised here (the visitor wants the file
            // as it is): the limit counts them, not the declared size.
            check_limit(offset + block.size(), scan_limits().file_bytes, "file-bytes",
                        "bytes to hold in memory");
            if (offset > bytes.size()) bytes.resize(static_cast<std::size_t>(offset));
            bytes.append(block);
        });
    }

    const std::string& name_;
    int layer_;
    const ScanOptions& options_;
    ImageBudget* budget_;
    std::uint64_t path_bytes_ = 0;  // entry names and link targets read so far
    GoTarStream go_reading_;
    UpperDir upper_;
    std::unordered_set<std::string> setgid_dirs_;  // this layer's directories with the setgid bit
    StreamContext context_;
    std::string scratch_;
};

}  // namespace

LayerContents read_layer(std::unique_ptr<ByteSource> blob, const std::string& name, int layer_index,
                         const LayerCheck& check, const ScanOptions& options, ImageBudget* budget) {
    if (!check.blob_digest.empty())
        blob = std::make_unique<VerifyingSource>(std::move(blob), check.blob_digest, name);
    LayerContents out;
    out.name = name;
    out.index = layer_index;
    auto compressed = std::make_shared<std::uint64_t>(0);
    auto stream = open_decompressed(counting_source(std::move(blob), compressed), name);
    out.compression = stream.compression;
    if (stream.compression != Compression::none)
        stream.source = inflate_guard(std::move(stream.source), compressed, name);
    // An uncompressed blob whose digest was checked is its own diff_id check.
    const bool same_bytes =
        stream.compression == Compression::none && check.diff_id == check.blob_digest;
    if (!check.diff_id.empty() && !same_bytes)
        stream.source = std::make_unique<VerifyingSource>(
            std::move(stream.source), check.diff_id,
            name + " (uncompressed, against the config's diff_id)");
    LayerParser(name, layer_index, options, budget).parse(*stream.source, out);
    return out;
}

}  // namespace cuvet::image
