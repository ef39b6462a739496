#include "commands.hpp"

namespace cuvet::cli {

void ImageArgs::add_to(CLI::App& command) {
    command.add_option("IMAGE", path, "docker-save tarball, OCI layout (dir or tar), or rootfs dir")
        ->required();
    command.add_option("--image", image, "which image of a multi-image archive (repo:tag)");
    command.add_option("--platform", platform, "os/arch[/variant] of a multi-platform index")
        ->default_str("linux/amd64");
    command.add_flag("--no-verify", no_verify, "skip sha256 verification of blobs");
    command.add_option("--workers", workers, "layers read in parallel (default: one per core)");
}

void ImageArgs::add_cache_option(CLI::App& command) {
    command.add_flag("--no-cache", no_cache,
                     "read every layer, and neither use nor fill the layer fact cache (cuvet cache --help)");
}

std::unique_ptr<cache::Store> ImageArgs::layer_cache() const {
    if (no_cache) return nullptr;
    return std::make_unique<cache::Store>(cache::Store::default_dir(), cache::max_bytes_from_env());
}

image::OpenOptions ImageArgs::open_options() const {
    image::OpenOptions options;
    options.image = image;
    if (!platform.empty()) options.platform = image::Platform::parse(platform);
    options.verify_digests = !no_verify;
    return options;
}

}  // namespace cuvet::cli
