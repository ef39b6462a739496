#pragma once
// Layer edge cases our writer produces, applied by cuvet and by independent extractors
// (umoci, podman's overlay storage); cuvet's merged view must match the runtime's.
#include <vector>

#include "support/image_writer.hpp"

namespace cuvet::test {

struct LayerEdgeCase {
    const char* name;
    std::vector<std::vector<TarEntry>> layers;  // empty: two_layer_spec()
    // umoci applies every layer onto one tree; overlay runtimes extract each layer into an
    // empty directory. Where the two disagree, the runtime (overlay) is what cuvet models.
    bool umoci_differs = false;
};

inline std::vector<LayerEdgeCase> layer_edge_cases() {
    return {
        {"two layers with a whiteout and an override", {}},
        {"a whiteout, then a file of that name in one layer",
         {{file("a", "low")}, {whiteout("a"), file("a", "same")}}},
        {"a file, then its whiteout in one layer: refused",
         {{file("b", "low")}, {file("b", "same"), whiteout("b")}},
         true},
        {"opaque directory",
         {{dir("d/"), file("d/old", "o"), dir("d/sub/"), file("d/sub/x", "x"), file("keep", "")},
          {dir("d/"), opaque("d"), file("d/new", "n")}}},
        {"file replaces directory, directory replaces file",
         {{dir("d/"), file("d/child", "c"), file("f", "plain")},
          {file("d", "now a file"), dir("f/"), file("f/in", "i")}}},
        {"symlink replaces directory",
         {{dir("opt/"), dir("opt/lib/"), file("opt/lib/x", "x")},
          {soft_link("opt/lib", "/usr/lib")}}},
        {"whiteout of a directory, then recreated",
         {{dir("w/"), file("w/1", "1"), file("w/2", "2")},
          {whiteout("w")},
          {dir("w/"), file("w/3", "3")}}},
        {"hard link to a file of the same layer: the runtimes chmod the file to the link's mode",
         {{dir("bin/")},
          {file("bin/tool", "#!/bin/sh\n", 0755), hard_link("bin/tool2", "bin/tool")}},
         true},
        {"hard link to a lower layer's file: refused",
         {{dir("bin/"), file("bin/tool", "#!/bin/sh\n", 0755)},
          {hard_link("bin/tool2", "bin/tool")}},
         true},
        {"implicit parents and ./ names",
         {{file("./usr/share/doc/a/README", "r")}, {file("./usr/share/doc/b/README", "rr")}}},
        {"a layer writes under a lower layer's directory symlink: overlay makes it a directory",
         {{dir("usr/"), dir("usr/lib/"), file("usr/lib/base.so", "b"), soft_link("lib", "usr/lib")},
          {file("lib/x.so", "x")}},
         true},
        {"a whiteout under a lower layer's directory symlink",
         {{dir("usr/"), dir("usr/lib/"), file("usr/lib/y.so", "y"), soft_link("lib", "usr/lib")},
          {whiteout("lib/y.so")}},
         true},
        {"a layer writes under a lower layer's file",
         {{file("etc", "not a directory")}, {file("etc/x.conf", "x")}},
         true},
        {"a layer writes through its own directory symlink into its own directory",
         {{dir("usr/"), dir("usr/lib/")},
          {dir("usr/"), dir("usr/lib/"), soft_link("lib", "usr/lib"), file("lib/x.so", "x")}}},
        {"a layer writes through its own symlink into a lower layer's directory: refused",
         {{dir("usr/"), dir("usr/lib/")}, {soft_link("lib", "usr/lib"), file("lib/x.so", "x")}},
         true},
        {"a directory entry replaces a lower layer's symlink",
         {{dir("usr/"), dir("usr/lib/"), soft_link("lib", "usr/lib")},
          {dir("lib/"), file("lib/x.so", "x")}}},
        {"a layer writes below a lower directory it has no entry for: that directory is the "
         "layer's own, 0755",
         {{dir("opt/", 0700), dir("opt/data/", 0750), file("opt/data/a", "a")},
          {file("opt/data/b", "b")},
          {dir("srv/", 0711), whiteout("srv/none")}},
         true},
        {"a hard link to a directory: refused",
         {{dir("opt/")}, {dir("opt/dir/"), hard_link("opt/hard", "opt/dir")}},
         true},
        {"modes survive layering",
         {{file("s", "x", 04755), dir("sticky/", 01777), file("secret", "k", 0600)},
          {file("secret", "k2", 0640)}}},
    };
}

}  // namespace cuvet::test
