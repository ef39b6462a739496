#pragma once
// The registry blobs an open image has already read, kept on disk so that a
// second scan of the same image (`validate --probe`: the static scan, then the
// live check's extraction) reads them from there instead of the network.
// Only a blob read to its end with its declared size and digest is kept; the
// directory is the spool's own (mkdtemp) and is removed with it.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "image/storage/byte_source.hpp"

namespace cuvet::image {

class BlobSpool {
public:
    BlobSpool() = default;
    ~BlobSpool();
    BlobSpool(const BlobSpool&) = delete;
    BlobSpool& operator=(const BlobSpool&) = delete;

    // The kept copy of `digest` ("sha256:…", already validated), or null.
    std::unique_ptr<ByteSource> open_kept(const std::string& digest) const;
    // `source` as it is, keeping a copy that becomes the blob once it has been read whole.
    std::unique_ptr<ByteSource> keep_while_reading(std::unique_ptr<ByteSource> source,
                                                   const std::string& digest, std::uint64_t size);

private:
    class KeepingSource;
    std::filesystem::path file_for(const std::string& digest) const;  // creates the directory
    void kept(const std::string& digest);

    std::atomic<unsigned> next_part_{0};
    mutable std::mutex mutex_;
    mutable std::filesystem::path dir_;
    std::set<std::string> kept_;
};

}  // namespace cuvet::image
