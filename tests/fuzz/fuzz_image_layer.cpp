// Fuzzes the layer path: magic-byte decompression, libarchive's tar reader,
// entry-name confinement, whiteouts, and applying the layer to a tree. Every
// regular file is read, sparse ones too: holes are materialised for a kept
// file, so a small file-bytes limit (set here) must stop one declaring 64 GiB.
#include <cstring>

#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "image/layers/layer_applier.hpp"
#include "image/layers/layer_reader.hpp"

namespace {

class MemorySource : public cuvet::image::ByteSource {
public:
    MemorySource(const uint8_t* data, size_t size) : data_(data), size_(size) {}
    size_t read(char* buffer, size_t capacity) override {
        size_t n = std::min(capacity, size_ - offset_);
        std::memcpy(buffer, data_ + offset_, n);
        offset_ += n;
        return n;
    }

private:
    const uint8_t* data_;
    size_t size_;
    size_t offset_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    cuvet::ScanLimits limits;
    limits.file_bytes = 1 << 20;
    limits.layer_bytes = 64 << 20;
    cuvet::set_scan_limits(limits);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace cuvet::image;
    ScanOptions options;
    options.select = [](const FileEntry& entry) { return entry.type == FileType::regular; };
    try {
        FileTree tree;
        // Twice, so that the second copy's whiteouts act on the first's files.
        for (int layer = 0; layer < 2; ++layer)
            apply_layer(tree, read_layer(std::make_unique<MemorySource>(data, size), "fuzz", layer,
                                         {}, options));
        for (const auto& [path, entry] : tree.entries()) (void)tree.resolve(path);
    } catch (const cuvet::Error&) {
    }
    return 0;
}
