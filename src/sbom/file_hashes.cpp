// The sha256 of component files: a second pass over the layers that streams
// only those files through the digest (the scan keeps no file bytes).
#include <mutex>

#include "cuvet/sbom/cyclonedx.hpp"
#include "image/storage/sha256.hpp"

namespace cuvet::sbom {

namespace {

struct Digests {
    std::mutex mutex;
    std::map<std::pair<std::string, int>, std::string> by_copy;  // (path, layer) → hex
};

class DigestSink : public image::ContentSink {
public:
    DigestSink(Digests& out, std::string path, int layer)
        : out_(out), path_(std::move(path)), layer_(layer) {}
    void write(std::string_view block, std::uint64_t) override { sha_.update(block); }
    void finish() override {
        auto digest = sha_.hex_digest();
        const std::lock_guard<std::mutex> lock(out_.mutex);
        out_.by_copy[{path_, layer_}] = digest.substr(digest.find(':') + 1);
    }

private:
    Digests& out_;
    std::string path_;
    int layer_;
    image::Sha256 sha_;
};

}  // namespace

std::map<std::string, std::string> file_sha256(const image::Image& image,
                                               const image::FileTree& tree,
                                               const std::set<std::string>& paths,
                                               unsigned workers) {
    Digests digests;
    image::ScanOptions scan;
    scan.workers = workers;
    scan.select = [&](const image::FileEntry& entry) {
        return entry.type == image::FileType::regular && paths.count(entry.path) != 0;
    };
    scan.open_sink = [&](const image::FileEntry& entry) -> std::unique_ptr<image::ContentSink> {
        return std::make_unique<DigestSink>(digests, entry.path, entry.layer);
    };
    scan.on_content = [&](const image::FileEntry& entry, std::string_view bytes) {
        DigestSink sink(digests, entry.path, entry.layer);
        sink.write(bytes, 0);
        sink.finish();
    };
    image.scan(scan);
    // A lower layer's copy of a path a later layer replaced is not the file the image has.
    std::map<std::string, std::string> out;
    for (const auto& path : paths) {
        const auto* entry = tree.find(path);
        if (entry == nullptr) continue;
        auto it = digests.by_copy.find({path, entry->layer});
        if (it != digests.by_copy.end()) out[path] = it->second;
    }
    return out;
}

}  // namespace cuvet::sbom
