#include "image/layers/layer_applier.hpp"

#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "image/layers/resolve_cost.hpp"

namespace cuvet::image {
namespace {

// Extraction tools (docker, umoci) resolve the parent directory inside the
// root before writing, so "lib/x.so" under a "/lib -> usr/lib" symlink lands
// in /usr/lib. The merged view must agree with what they produce.
std::string place_in_tree(const FileTree& tree, const std::string& path, const std::string& layer) {
    auto slash = path.rfind('/');
    if (slash == 0) return path;
    Resolution parent = tree.resolve(path.substr(0, slash));
    // An extractor would fail with ELOOP here; the layer cannot be applied.
    if (parent.status == Resolution::Status::loop)
        fail_input(layer + ": '" + path + "' lies under a symlink loop at '" + parent.path + "'");
    if (parent.status != Resolution::Status::ok || !parent.entry ||
        parent.entry->type != FileType::directory)
        return path;
    return (parent.path == "/" ? "" : parent.path) + path.substr(slash);
}

// Tars may omit parent directory entries; the extracted tree still has them.
void add_missing_parents(FileTree& tree, const std::string& path, int layer) {
    for (auto slash = path.find('/', 1); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
        std::string parent = path.substr(0, slash);
        if (tree.find(parent)) continue;
        FileEntry dir;
        dir.path = parent;
        dir.type = FileType::directory;
        dir.mode = 0755;
        dir.layer = layer;
        tree.put(std::move(dir));
    }
}

}  // namespace

void apply_layer(FileTree& tree, LayerContents&& layer) {
    const std::uint64_t start = link_bytes_followed();
    auto check_cost = [&] {
        if (link_bytes_followed() - start > scan_limits().link_bytes)
            throw LimitExceeded("more than " + std::to_string(scan_limits().link_bytes) +
                                    " bytes of symbolic link targets followed to place its entries",
                                "link-bytes")
                .with_file(layer.name);
    };
    for (const auto& dir : layer.opaque_dirs) {
        tree.remove_children(place_in_tree(tree, dir, layer.name));
        check_cost();
    }
    for (const auto& path : layer.whiteouts) {
        tree.remove_tree(place_in_tree(tree, path, layer.name));
        check_cost();
    }
    for (auto& item : layer.entries) {
        FileEntry& entry = item.entry;
        entry.path = place_in_tree(tree, entry.path, layer.name);
        if (entry.type == FileType::hardlink)
            entry.link_target = place_in_tree(tree, entry.link_target, layer.name);
        const FileEntry* existing = tree.find(entry.path);
        if (existing && existing->type == FileType::directory) {
            // A directory over a directory merges; anything else replaces the whole subtree.
            if (entry.type != FileType::directory) tree.remove_tree(entry.path);
        }
        add_missing_parents(tree, entry.path, entry.layer);
        tree.put(std::move(entry), std::move(item.content));
        check_cost();
    }
    check_cost();
}

}  // namespace cuvet::image
