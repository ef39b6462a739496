// Fuzzes manifest/index/config parsing: the input is served as every JSON
// document of a layout (index.json, manifest.json and any blob asked for).
#include <cstring>
#include <nlohmann/json.hpp>

#include "cuvet/core/error.hpp"
#include "image/storage/blob_store.hpp"
#include "image/transports/formats.hpp"

namespace {

class MemorySource : public cuvet::image::ByteSource {
public:
    explicit MemorySource(std::string bytes) : bytes_(std::move(bytes)) {}
    size_t read(char* buffer, size_t capacity) override {
        size_t n = std::min(capacity, bytes_.size() - offset_);
        std::memcpy(buffer, bytes_.data() + offset_, n);
        offset_ += n;
        return n;
    }

private:
    std::string bytes_;
    size_t offset_ = 0;
};

class EchoStore : public cuvet::image::BlobStore {
public:
    explicit EchoStore(std::string bytes) : bytes_(std::move(bytes)) {}
    std::optional<std::uint64_t> size(const std::string& path) const override {
        (void)cuvet::image::confined_path(path, "fuzz");
        return bytes_.size();
    }
    std::unique_ptr<cuvet::image::ByteSource> open(const std::string&) const override {
        return std::make_unique<MemorySource>(bytes_);
    }
    std::string describe(const std::string& path) const override { return "fuzz:" + path; }

private:
    std::string bytes_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace cuvet::image;
    std::string bytes(reinterpret_cast<const char*>(data), size);
    for (bool verify : {true, false}) {
        OpenOptions options;
        options.verify_digests = verify;
        try {
            (void)open_docker_archive(std::make_unique<EchoStore>(bytes), "fuzz", options);
        } catch (const cuvet::Error&) {
        } catch (const nlohmann::json::exception&) {  // open_image turns these into input errors
        }
        try {
            (void)open_oci_layout(std::make_unique<EchoStore>(bytes), "fuzz", "oci-layout",
                                  options);
        } catch (const cuvet::Error&) {
        } catch (const nlohmann::json::exception&) {
        }
    }
    return 0;
}
