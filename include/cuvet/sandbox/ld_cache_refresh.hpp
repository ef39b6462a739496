#pragma once
// What the NVIDIA container toolkit does after injecting the driver (its
// update-ldcache hook, and nvidia-container-cli alike): rebuild the image's
// /etc/ld.so.cache from the image's own /etc/ld.so.conf. The host's ldconfig
// binary does it (`ldconfig -r .`), never the image's, and only inside a user
// namespace whose root is the sandbox's unprivileged host id, with
// no_new_privs: the image's files are data to it, and it can write nothing but
// the extracted tree. An image whose cache is stale but whose ld.so.conf.d is
// right thereby works here as it does in production.
#include <filesystem>
#include <string>
#include <vector>

namespace cuvet::sandbox {

// The host's ldconfig (an ELF, not Debian's/Ubuntu's shell wrapper), or "".
std::filesystem::path host_ldconfig();

// Runs it over `rootfs` (ownership already shifted), with `folders` (image
// paths, a CDI update-ldcache hook's) scanned too. "" or why it failed.
std::string refresh_ld_cache(const std::filesystem::path& rootfs,
                             const std::vector<std::string>& folders = {});

}  // namespace cuvet::sandbox
