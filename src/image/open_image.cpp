// Decides which transport a reference names (transports/transports.cpp holds
// the table) and hands it to that transport.
#include "cuvet/core/error.hpp"
#include "image/transports/transports.hpp"

namespace cuvet::image {

namespace fs = std::filesystem;

namespace {

bool recognises(const Transport& transport, const Reference& reference) {
    if (!transport.prefix.empty()) return reference.text.rfind(transport.prefix, 0) == 0;
    return transport.recognises(reference);
}

}  // namespace

std::unique_ptr<Image> open_image(const fs::path& path, const OpenOptions& options) {
    Reference reference{path.string(), path, {}, true};
    std::error_code error;
    reference.status = fs::status(path, error);
    reference.missing = error || !fs::exists(reference.status);
    for (const Transport& transport : transports()) {
        if (!recognises(transport, reference)) continue;
        return transport.open(reference, reference.text.substr(transport.prefix.size()), options);
    }
    fail_io(reference.text + ": no such file or directory");
}

}  // namespace cuvet::image
