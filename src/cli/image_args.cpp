#include <iostream>
#include <string>

#include "commands.hpp"
#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "cuvet/image/registry_stall.hpp"

namespace cuvet::cli {

void ImageArgs::add_to(CLI::App& command) {
    command
        .add_option(
            "IMAGE", path,
            "docker-save tarball, OCI layout (dir or tar), rootfs dir, docker://HOST/REPO:TAG, "
            "docker-daemon:REPO:TAG, containers-storage:REPO:TAG, or REPO:TAG")
        ->required();
    command.add_option("--image", image, "which image of a multi-image archive (repo:tag)");
    command.add_option("--platform", platform, "os/arch[/variant] of a multi-platform index")
        ->default_str("linux/amd64");
    command.add_flag("--no-verify", no_verify, "skip sha256 verification of blobs");
    command.add_option("--workers", workers, "layers read in parallel (default: one per core)");
    command.add_option("--username", username, "registry user name (with --password-stdin)");
    command.add_flag("--password-stdin", password_stdin,
                     "read the registry password from standard input");
    command.add_flag("--insecure", insecure, "allow plain HTTP and unverified TLS to the registry");
    // probe's --timeout is how long the probe may run; there the registry keeps its default
    // deadline.
    if (command.get_name() != "probe")
        command
            .add_option(
                "--timeout", timeout,
                "seconds one registry request (a manifest, a whole layer) may take; 0: no limit")
            ->default_val(900);
    command
        .add_option("--stall-timeout", stall_timeout,
                    "seconds a registry connection may carry under 1 KiB/s (a silent registry) "
                    "before the request fails, without retries")
        ->default_val(30)
        ->check(CLI::Range(1u, 86400u));
    command.add_flag(
        "--cross-host-auth", cross_host_auth,
        "also send registry credentials to a token service on another host (docs/registries.md)");
    command
        .add_option(
            "--limit", limits,
            "raise or lower a scan limit, NAME=VALUE, repeatable (docs/limits.md); defaults: " +
                describe_scan_limits())
        ->type_name("NAME=VALUE");
}

void ImageArgs::add_partial_option(CLI::App& command) {
    command.add_flag("--allow-partial", allow_partial,
                     "rootfs dirs: a directory or file this user cannot read becomes a CUV017 "
                     "finding (the scan was "
                     "partial) instead of an error");
}

void ImageArgs::add_cache_option(CLI::App& command) {
    command.add_flag(
        "--no-cache", no_cache,
        "read every layer, and neither use nor fill the layer fact cache (cuvet cache --help)");
    command.add_option(
        "--cache-key-file", cache_key_file,
        "authenticate cache entries with the secret in FILE instead of the cache's own "
        "key (a cache shared on purpose; or $CUVET_CACHE_KEY)");
}

std::unique_ptr<cache::Store> ImageArgs::layer_cache() const {
    if (no_cache) return nullptr;
    auto store =
        std::make_unique<cache::Store>(cache::Store::default_dir(), cache::max_bytes_from_env(),
                                       cache::explicit_key(cache_key_file));
    if (!store->refused().empty()) {
        std::cerr << "cuvet: warning: layer cache not used: " << store->refused() << "\n";
        return nullptr;
    }
    return store;
}

image::OpenOptions ImageArgs::open_options() const {
    // Before anything is read: the limits bound the index walk too.
    set_scan_limits(ScanLimits{});
    for (const auto& limit : limits) set_scan_limit(limit);
    image::OpenOptions options;
    options.image = image;
    if (!platform.empty()) options.platform = image::Platform::parse(platform);
    options.verify_digests = !no_verify;
    image::Access& access = options.access;
    access.username = username;
    access.insecure = insecure;
    access.timeout_seconds = timeout;
    image::set_registry_stall_seconds(stall_timeout);
    access.cross_host_auth = cross_host_auth;
    options.allow_partial = allow_partial;
    if (password_stdin && username.empty()) fail_usage("--password-stdin needs --username");
    if (!username.empty() && !password_stdin)
        fail_usage(
            "--username needs --password-stdin (a password on the command line would show in ps)");
    if (password_stdin && !password_read) {
        std::string line;
        std::getline(std::cin, line);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        password_read = line;
    }
    access.password = password_read.value_or("");
    return options;
}

}  // namespace cuvet::cli
