#include "image/layers/streamed_archive.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <exception>
#include <regex>

#include "cuvet/core/error.hpp"
#include "image/config/config_parser.hpp"
#include "image/layers/image_budget.hpp"
#include "image/layers/layer_applier.hpp"
#include "image/layers/layer_listing.hpp"
#include "image/layers/layer_reader.hpp"

namespace cuvet::image {
namespace {

// podman and skopeo write "<diff_id hex>.tar"; Docker 25+ "blobs/sha256/<hex>"
// (its layers are uncompressed, so the blob digest is the diff_id).
std::optional<std::string> digest_in_name(const std::string& name) {
    static const std::regex named(R"((?:^|/)([0-9a-f]{64})(?:\.tar)?$)");
    std::smatch match;
    if (std::regex_search(name, match, named)) return "sha256:" + match[1].str();
    return std::nullopt;
}

// One member of the outer tar as a ByteSource.
class MemberSource : public ByteSource {
public:
    MemberSource(struct archive* reader, std::string name)
        : reader_(reader), name_(std::move(name)) {}
    std::size_t read(char* buffer, std::size_t capacity) override {
        la_ssize_t got = archive_read_data(reader_, buffer, capacity);
        if (got < 0) fail_input(name_ + ": " + archive_error_string(reader_));
        return static_cast<std::size_t>(got);
    }

private:
    struct archive* reader_;
    std::string name_;
};

// libarchive is C: an exception from the export parks here until it returns.
struct OuterStream {
    ByteSource* source = nullptr;
    std::vector<char> buffer = std::vector<char>(1 << 20);
    std::exception_ptr error;
};

la_ssize_t read_outer(struct archive*, void* opaque, const void** out) {
    auto* stream = static_cast<OuterStream*>(opaque);
    try {
        std::size_t got = stream->source->read(stream->buffer.data(), stream->buffer.size());
        *out = stream->buffer.data();
        return static_cast<la_ssize_t>(got);
    } catch (...) {
        stream->error = std::current_exception();
        return -1;
    }
}

class StreamedArchiveImage : public Image {
public:
    StreamedArchiveImage(ImageInfo info, std::function<std::unique_ptr<ByteSource>()> open_export,
                         bool verify)
        : info_(std::move(info)), open_export_(std::move(open_export)), verify_(verify) {}
    const ImageInfo& info() const override { return info_; }

    FileTree scan(const ScanOptions& options) const override {
        std::vector<std::optional<LayerContents>> results(info_.config.diff_ids.size());
        // Layers the memo (the layer fact cache) knows are not read; when it
        // knows them all, the export is never even asked for.
        const bool memo = options.memo && (options.open_sink || options.on_content);
        ImageBudget budget;
        if (memo) recall_known(results, options, budget);
        if (std::any_of(results.begin(), results.end(), [](const auto& r) { return !r; }))
            read_export(results, options, memo, budget);
        FileTree tree;
        for (std::size_t index = 0; index < results.size(); ++index) {
            if (!results[index])
                fail_input(info_.path + ": layer " + info_.config.diff_ids[index] +
                           " is missing from the export");
            apply_layer(tree, std::move(*results[index]));
        }
        return tree;
    }

private:
    // The export names its layers by diff_id, so that is both parts of the key.
    LayerId id_of(std::size_t index) const {
        LayerId id;
        id.index = index;
        id.diff_id = id.blob_digest = info_.config.diff_ids[index];
        id.verified = verify_;  // read_member checks the bytes against the diff_id
        return id;
    }

    void recall_known(std::vector<std::optional<LayerContents>>& results,
                      const ScanOptions& options, ImageBudget& budget) const {
        for (std::size_t index = 0; index < results.size(); ++index) {
            auto listing = options.memo->recall(id_of(index));
            if (!listing) continue;
            results[index] =
                contents_of(std::move(*listing), info_.path + ":" + info_.config.diff_ids[index],
                            static_cast<int>(index));
            budget.charge_layer(*results[index]);
            report_progress(results, options);
        }
    }

    void read_export(std::vector<std::optional<LayerContents>>& results, const ScanOptions& options,
                     bool memo, ImageBudget& budget) const {
        auto source = open_export_();
        OuterStream stream;
        stream.source = source.get();
        std::unique_ptr<struct archive, decltype(&archive_read_free)> reader(archive_read_new(),
                                                                             archive_read_free);
        archive_read_support_format_tar(reader.get());
        if (archive_read_open(reader.get(), &stream, nullptr, read_outer, nullptr) != ARCHIVE_OK)
            fail(reader.get(), stream);
        struct archive_entry* header = nullptr;
        while (true) {
            int status = archive_read_next_header(reader.get(), &header);
            if (status == ARCHIVE_EOF) break;
            if (status != ARCHIVE_OK && status != ARCHIVE_WARN) fail(reader.get(), stream);
            if (archive_entry_filetype(header) != AE_IFREG) continue;
            std::string member =
                archive_entry_pathname(header) ? archive_entry_pathname(header) : "";
            // A recalled layer's member is passed over unread (libarchive skips it).
            if (auto digest = digest_in_name(member))
                read_member(reader.get(), member, *digest, results, options, memo, budget);
        }
        if (stream.error) std::rethrow_exception(stream.error);
    }

    void report_progress(const std::vector<std::optional<LayerContents>>& results,
                         const ScanOptions& options) const {
        if (!options.on_progress) return;
        options.on_progress(
            static_cast<std::size_t>(std::count_if(results.begin(), results.end(),
                                                   [](const auto& r) { return r.has_value(); })),
            results.size());
    }

    [[noreturn]] void fail(struct archive* reader, const OuterStream& stream) const {
        if (stream.error) std::rethrow_exception(stream.error);
        const char* detail = archive_error_string(reader);
        fail_input(info_.path +
                   ": export is not a readable tar: " + (detail ? detail : "unknown error"));
    }

    void read_member(struct archive* reader, const std::string& member, const std::string& digest,
                     std::vector<std::optional<LayerContents>>& results, const ScanOptions& options,
                     bool memo, ImageBudget& budget) const {
        const auto& diff_ids = info_.config.diff_ids;
        std::optional<std::size_t> first;
        for (std::size_t index = 0; index < diff_ids.size(); ++index) {
            if (diff_ids[index] != digest || results[index]) continue;
            if (!first) {
                LayerCheck check;
                if (verify_) check.diff_id = digest;
                const std::string name = info_.path + ":" + member;
                results[index] = read_layer(std::make_unique<MemberSource>(reader, name), name,
                                            static_cast<int>(index), check, options, &budget);
                if (memo) options.memo->remember(id_of(index), listing_of(*results[index]));
                first = index;
            } else {
                // The same layer twice in one image is exported once.
                budget.charge_layer(*results[*first]);
                results[index] = *results[*first];
                results[index]->index = static_cast<int>(index);
                for (auto& item : results[index]->entries)
                    item.entry.layer = static_cast<int>(index);
            }
            report_progress(results, options);
        }
    }

    ImageInfo info_;
    std::function<std::unique_ptr<ByteSource>()> open_export_;
    bool verify_;
};

}  // namespace

std::unique_ptr<Image> open_streamed_archive(
    ImageInfo info, std::function<std::unique_ptr<ByteSource>()> open_export,
    const OpenOptions& options) {
    if (options.platform && !info.config.platform.matches(*options.platform))
        fail_usage(info.path + ": image is for " + info.config.platform.str() + ", not " +
                   options.platform->str());
    // The export names its layers by diff_id: they are the blobs here.
    for (const auto& diff_id : info.config.diff_ids) {
        LayerInfo layer;
        layer.blob = diff_id;
        layer.digest = diff_id;
        info.layers.push_back(layer);
    }
    check_layer_count(info.layers.size(), info.path);
    attach_history(info);
    return std::make_unique<StreamedArchiveImage>(std::move(info), std::move(open_export),
                                                  options.verify_digests);
}

}  // namespace cuvet::image
