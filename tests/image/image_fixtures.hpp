#pragma once
// Images shared by the image reader tests, built with our own writer.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/cuvet_files.hpp"
#include "support/image_writer.hpp"
#include "support/temp_dir.hpp"

namespace cuvet::test {

// Bytes that do not repeat in short periods, so compression cannot hide a
// misplaced block.
inline std::string pseudo_random_bytes(std::size_t size, unsigned seed) {
    std::string bytes(size, '\0');
    std::uint32_t state = seed * 2654435761u + 1;
    for (auto& c : bytes) {
        state ^= state << 13, state ^= state >> 17, state ^= state << 5;
        c = static_cast<char>(state & 0xff);
    }
    return bytes;
}

// Two layers: a base and a change set with a whiteout and an override.
inline ImageSpec two_layer_spec(Compression compression = Compression::gzip) {
    Layer base;
    base.compression = compression;
    base.created_by = "/bin/sh -c #(nop) ADD file:base in / ";
    base.entries = {
        dir("etc/"),
        file("etc/hostname", "box\n"),
        dir("usr/"),
        dir("usr/lib/"),
        file("usr/lib/libfoo.so.1.2", pseudo_random_bytes(300000, 1), 0755),
        soft_link("usr/lib/libfoo.so.1", "libfoo.so.1.2"),
        dir("tmp/", 01777),
        file("tmp/gone", "bye\n"),
    };
    Layer change;
    change.compression = compression;
    change.empty_history_before = {"ENV FOO=bar"};
    change.created_by = "RUN /bin/sh -c echo box2 > /etc/hostname && rm /tmp/gone # buildkit";
    change.entries = {
        dir("etc/"),        file("etc/hostname", "box2\n"),
        dir("tmp/", 01777), whiteout("tmp/gone"),
        dir("opt/"),        file("opt/app.py", "print('hi')\n", 0755),
    };
    ImageSpec spec;
    spec.layers = {base, change};
    spec.env.push_back("FOO=bar");
    spec.entrypoint = {"/opt/app.py"};
    spec.repo_tags = {"example/two:1.0"};
    return spec;
}

// The merged view of two_layer_spec as plain entries (for the rootfs form).
inline std::vector<TarEntry> two_layer_merged() {
    return {
        dir("etc/"),
        file("etc/hostname", "box2\n"),
        dir("usr/"),
        dir("usr/lib/"),
        file("usr/lib/libfoo.so.1.2", pseudo_random_bytes(300000, 1), 0755),
        soft_link("usr/lib/libfoo.so.1", "libfoo.so.1.2"),
        dir("tmp/", 01777),
        dir("opt/"),
        file("opt/app.py", "print('hi')\n", 0755),
    };
}

inline ImageSpec single_layer_spec(std::vector<TarEntry> entries,
                                   Compression compression = Compression::none) {
    Layer layer;
    layer.entries = std::move(entries);
    layer.compression = compression;
    layer.created_by = "COPY . / # buildkit";
    ImageSpec spec;
    spec.layers = {layer};
    return spec;
}

inline ImageSpec layered_spec(std::vector<std::vector<TarEntry>> layers,
                              Compression compression = Compression::none) {
    ImageSpec spec;
    for (auto& entries : layers) {
        Layer layer;
        layer.entries = std::move(entries);
        layer.compression = compression;
        layer.created_by = "RUN step " + std::to_string(spec.layers.size());
        spec.layers.push_back(std::move(layer));
    }
    return spec;
}

// Writes a single-image docker archive of spec and returns its path.
inline std::filesystem::path write_docker(const TempDir& tmp, const ImageSpec& spec,
                                          const std::string& name = "image.tar") {
    auto path = tmp / name;
    docker_archive({spec}).write_tar(path);
    return path;
}

// The paths and what each is, without the layer that wrote it.
inline std::map<std::string, ListedFile> without_layers(std::map<std::string, ListedFile> files) {
    for (auto& [path, file] : files) file.layer = 0;
    return files;
}

// A failed run as the issue demands: exit 3, one line on stderr that names
// `what`, no crash.
inline void require_bad_input(const ProcessResult& result, const std::string& what) {
    INFO("stdout: " << result.out);
    INFO("stderr: " << result.err);
    CHECK(result.exit_code == 3);
    auto lines = lines_of(result.err);
    CHECK(lines.size() == 1);
    CHECK(result.err.find(what) != std::string::npos);
}

}  // namespace cuvet::test
