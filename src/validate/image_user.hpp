#pragma once
// The config's USER as the runtime resolves it (runc, crun: "name|uid[:group|gid]" against
// the image's /etc/passwd and /etc/group), and Linux's permission rule for that user.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuvet/image/file_tree.hpp"
#include "cuvet/loader/image_files.hpp"

namespace cuvet::validate {

struct ImageUser {
    std::string spec;  // as the config writes it ("" is root)
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
    std::vector<std::uint32_t> groups;  // supplementary, from /etc/group
    // Why the runtime cannot become this user (a name /etc/passwd lacks); empty when it can.
    std::string problem;
    bool known = true;  // false: a name in a /etc/passwd the scan did not keep
};

ImageUser resolve_user(const std::string& spec, const loader::ImageFiles& files);

// Whether `user` may read (04) or execute (01) `entry`, as the kernel decides: root keeps
// CAP_DAC_OVERRIDE under docker's and podman's default capabilities, so it reads anything and
// executes what has any x bit; another user gets the owner, group or other bits by the
// entry's uid and gid.
bool permits(const ImageUser& user, const image::FileEntry& entry, unsigned want);

// The first directory above `path` that `user` cannot search (x), or "".
std::string unsearchable_parent(const ImageUser& user, const image::FileTree& tree,
                                const std::string& path);

// "(owner 0:0, mode 0600)": what a finding about a permission quotes.
std::string owner_and_mode(const image::FileEntry& entry);

// Why `user` cannot open `file` for reading (a directory above it it cannot search, or no
// read permission on it), naming the user, the file, its owner and mode; "" when it can.
std::string open_denied(const ImageUser& user, const image::FileTree& tree,
                        const std::string& file);

}  // namespace cuvet::validate
