#include "image/layers/layer_applier.hpp"

#include <algorithm>
#include <optional>
#include <unordered_set>
#include <vector>

#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "image/layers/resolve_cost.hpp"
#include "image/layers/upper_dir.hpp"

namespace cuvet::image {
namespace {

// A directory the extraction makes for layer `layer` (MkdirAll: 0755, root's). mkdir(2) in a
// setgid directory sets the setgid bit, and the chown to root that follows keeps it on a
// directory, so below a setgid directory of the same layer it is 2755 (found by tests/parity).
FileEntry made_directory(const FileTree& tree, std::string path, int layer) {
    constexpr std::uint32_t setgid_bit = 02000;
    FileEntry made;
    made.type = FileType::directory;
    made.mode = 0755;
    made.layer = layer;
    if (const auto slash = path.rfind('/'); slash != std::string::npos && slash > 0) {
        const FileEntry* parent = tree.find(std::string_view(path).substr(0, slash));
        if (parent && parent->type == FileType::directory && parent->layer == layer &&
            (parent->mode & setgid_bit) != 0)
            made.mode |= setgid_bit;
    }
    made.path = std::move(path);
    return made;
}

// What the layer itself holds. Only a layer with symlinks of its own can need it, and it is
// worked out before apply_layer moves the entries into the tree.
class LayerHolds {
public:
    explicit LayerHolds(const LayerContents& layer) {
        const bool has_symlinks = std::any_of(
            layer.entries.begin(), layer.entries.end(),
            [](const LayerEntry& item) { return item.entry.type == FileType::symlink; });
        if (!has_symlinks) return;
        upper_.emplace(layer.name);
        for (const auto& item : layer.entries) upper_->add(item.entry.path);
        for (const auto& hidden : layer.whiteouts) upper_->add(hidden);
    }
    bool operator()(const std::string& path) const { return upper_ && upper_->holds(path); }

private:
    std::optional<UpperDir> upper_;
};

// The directories a layer's extraction holds in its own upper directory. Writing below a
// directory the layer has no entry for makes it there (MkdirAll: mode 0755, root; a whiteout
// needs its directory as much as a file does), and in the merged view the highest layer's
// directory is the one seen: a lower layer's mode and owner on it are hidden (found by
// tests/parity, the podman differential).
class LayerDirs {
public:
    explicit LayerDirs(int layer) : layer_(layer) {}

    // The parents of `path`, which the extractor needs before it writes `path`.
    void make_parents(FileTree& tree, const std::string& path) {
        // Looked at deepest first: a directory already held has every parent held too. Made
        // shallowest first, as MkdirAll makes them: each may inherit its parent's setgid bit.
        std::vector<std::string> to_make;
        for (auto slash = path.rfind('/'); slash != std::string::npos && slash > 0;
             slash = path.rfind('/', slash - 1)) {
            std::string parent = path.substr(0, slash);
            if (!held_.insert(parent).second) break;
            const FileEntry* lower = tree.find(parent);
            if (lower && (lower->type != FileType::directory || lower->layer == layer_)) continue;
            to_make.push_back(std::move(parent));
        }
        for (auto it = to_make.rbegin(); it != to_make.rend(); ++it)
            tree.put(made_directory(tree, std::move(*it), layer_));
    }
    // A directory entry of the layer: its own header sets it.
    void hold(const std::string& dir) { held_.insert(dir); }

private:
    int layer_;
    std::unordered_set<std::string> held_;
};

// Where an extractor puts `path` of layer `layer` (docker's overlay2, containerd's and
// podman's overlay drivers extract a layer into its own empty upper directory):
// - a parent that is a directory merges by name;
// - a symlink the same layer wrote is followed inside the root, so "lib/x.so" under that
//   layer's "/lib -> usr/lib" lands in /usr/lib, when the layer itself holds usr/lib (the
//   extractor sees only this layer's directory: elsewhere it fails, "no such file");
// - a symlink or file of a lower layer is not there to follow: the extractor creates a real
//   directory, and in the merged view that directory hides the lower link.
std::string place_in_tree(FileTree& tree, const std::string& path, int layer,
                          const LayerHolds& layer_holds, const std::string& layer_name) {
    const auto slash = path.rfind('/');
    if (slash == 0 || slash == std::string::npos) return path;
    // Every ancestor of an entry in the tree is a directory, so an existing parent
    // directory is the common, cheap case.
    if (const FileEntry* parent = tree.find(std::string_view(path).substr(0, slash));
        parent && parent->type == FileType::directory)
        return path;
    std::string placed;
    std::size_t begin = 1;
    for (auto end = path.find('/', begin); end != std::string::npos && end <= slash;
         begin = end + 1, end = path.find('/', begin)) {
        placed += path.substr(begin - 1, end - begin + 1);
        const FileEntry* entry = tree.find(placed);
        if (!entry) return placed + path.substr(end);  // nothing below it exists either
        if (entry->type == FileType::directory) continue;
        if (entry->type == FileType::symlink && entry->layer == layer) {
            Resolution target = tree.resolve(placed);
            // An extractor would fail with ELOOP here; the layer cannot be applied.
            if (target.status == Resolution::Status::loop)
                fail_input(layer_name + ": '" + path + "' lies under a symlink loop at '" +
                           target.path + "'");
            // The extractor follows the link and finds no directory: "no such file or
            // directory" or "not a directory" (found by tests/parity).
            if (target.status != Resolution::Status::ok || !target.entry ||
                target.entry->type != FileType::directory)
                fail_input(layer_name + ": '" + path + "' is written through the layer's own " +
                           "symlink " + placed +
                           ", which leads to no directory; the runtimes fail the layer there");
            if (target.path != "/" && !layer_holds(target.path))
                fail_input(layer_name + ": '" + path +
                           "' is written through the layer's own "
                           "symlink " +
                           placed + " into " + target.path +
                           ", which the layer "
                           "does not hold; the overlay runtimes extract a layer into its own "
                           "directory and fail with \"no such file or directory\"");
            placed = target.path == "/" ? "" : target.path;
            continue;
        }
        tree.remove_tree(placed);
        tree.put(made_directory(tree, placed, layer));
    }
    return placed + path.substr(slash);
}

// A hard link's target is looked up, never created: the parent is resolved as it stands.
std::string link_target_in_tree(const FileTree& tree, const std::string& path,
                                const std::string& layer_name) {
    auto slash = path.rfind('/');
    if (slash == 0) return path;
    Resolution parent = tree.resolve(path.substr(0, slash));
    if (parent.status == Resolution::Status::loop)
        fail_input(layer_name + ": '" + path + "' lies under a symlink loop at '" + parent.path +
                   "'");
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
        tree.put(made_directory(tree, std::move(parent), layer));
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
    LayerHolds layer_holds(layer);
    LayerDirs layer_dirs(layer.index);
    for (const auto& dir : layer.opaque_dirs) {
        const std::string placed = place_in_tree(tree, dir, layer.index, layer_holds, layer.name);
        tree.remove_children(placed);
        layer_dirs.make_parents(tree, placed + "/.wh..wh..opq");  // the marker's directory too
        check_cost();
    }
    for (const auto& path : layer.whiteouts) {
        const std::string placed = place_in_tree(tree, path, layer.index, layer_holds, layer.name);
        tree.remove_tree(placed);
        layer_dirs.make_parents(tree, placed);
        check_cost();
    }
    for (auto& item : layer.entries) {
        FileEntry& entry = item.entry;
        entry.path = place_in_tree(tree, entry.path, layer.index, layer_holds, layer.name);
        layer_dirs.make_parents(tree, entry.path);
        if (entry.type == FileType::directory) layer_dirs.hold(entry.path);
        if (entry.type == FileType::hardlink) {
            entry.link_target = link_target_in_tree(tree, entry.link_target, layer.name);
            // link(2) refuses a directory (EPERM), and so the runtime's extraction.
            if (const FileEntry* target = tree.find(entry.link_target);
                target && target->type == FileType::directory)
                fail_input(layer.name + ": hard link " + entry.path + " names the directory " +
                           entry.link_target +
                           "; the runtimes cannot link a directory and fail the layer");
        }
        const FileEntry* existing = tree.find(entry.path);
        if (existing && existing->type == FileType::directory) {
            // A directory over a directory merges; anything else replaces the whole subtree.
            if (entry.type != FileType::directory) tree.remove_tree(entry.path);
        }
        add_missing_parents(tree, entry.path, entry.layer);
        // The runtimes chmod and chown a hard link to its header, and the file shares the inode.
        if (entry.type == FileType::hardlink) {
            const FileEntry* data = tree.find(entry.link_target);
            if (data && data->type == FileType::regular)
                tree.set_mode_and_owner(entry.link_target, entry);
        }
        tree.put(std::move(entry), std::move(item.content));
        check_cost();
    }
    check_cost();
}

}  // namespace cuvet::image
