#pragma once
// What extracting one layer into its own empty directory allows. docker's overlay2 and the
// overlay drivers of containerd and podman extract each layer apart from the layers below
// it, so two things that a single merged tree would accept fail the pull there:
// - a hard link can only name a file this layer extracted before it ("no such file");
// - a whiteout cannot be made where this layer already put a file or directory ("file exists").
// - a path through the layer's own symlink lands only in a directory the layer itself holds
//   (layer_applier.cpp asks `holds`).
// Names are kept as 64-bit hashes: the layer's entries already hold the strings.
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace cuvet::image {

class UpperDir {
public:
    explicit UpperDir(std::string layer) : layer_(std::move(layer)) {}

    void add(const std::string& path);  // absolute, normalised
    void add_hard_link(const std::string& path, const std::string& target);
    void add_whiteout(const std::string& hidden_path);
    // Whether the layer put something at `path`, or a file below it (so its directory exists).
    bool holds(const std::string& path) const;

private:
    std::string layer_;
    std::unordered_set<std::uint64_t> entries_;  // what the layer named
    std::unordered_set<std::uint64_t> present_;  // those and every parent made for them
    std::vector<std::uint64_t> parents_;         // add()'s scratch: the hashes of a path's parents
};

}  // namespace cuvet::image
