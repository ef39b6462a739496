#include "image/storage/blob_store.hpp"

#include "cuvet/core/error.hpp"
#include "cuvet/image/file_tree.hpp"

namespace cuvet::image {

std::string BlobStore::read_small(const std::string& path) const {
    constexpr std::uint64_t limit = 64ull << 20;  // manifests and configs are kilobytes
    auto source = open(path);
    return read_all(*source, limit, describe(path));
}

std::string confined_path(const std::string& path, const std::string& where) {
    if (path.empty()) fail_input(where + ": empty path");
    if (path[0] == '/')
        fail_input(where + ": absolute path '" + path + "' points outside the layout");
    std::string normal = normalize_path(path, false);
    if (normal.empty() || normal == "/")
        fail_input(where + ": path '" + path + "' points outside the layout");
    return normal.substr(1);
}

}  // namespace cuvet::image
