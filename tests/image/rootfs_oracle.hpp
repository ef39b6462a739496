#pragma once
// Compares cuvet's merged view with a rootfs unpacked by another tool
// (umoci unpack), the independent oracle of the image tests.
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "support/cuvet_files.hpp"

namespace cuvet::test {

inline std::string mode_of(const std::filesystem::path& path) {
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0) return "?";
    char text[8];
    std::snprintf(text, sizeof text, "%04o", st.st_mode & 07777);
    return text;
}

// The rootfs as the oracle sees it. Hard links are plain files there.
inline std::map<std::string, ListedFile> walk_rootfs(const std::filesystem::path& root) {
    std::map<std::string, ListedFile> view;
    for (std::filesystem::recursive_directory_iterator it(root), end; it != end; ++it) {
        ListedFile file;
        auto status = it->symlink_status();
        if (std::filesystem::is_symlink(status)) {
            file.type = "symlink";
            file.link_target = std::filesystem::read_symlink(it->path()).string();
        } else if (std::filesystem::is_directory(status)) {
            file.type = "dir";
        } else if (std::filesystem::is_regular_file(status)) {
            file.type = "file";
            file.size = std::filesystem::file_size(it->path());
        } else {
            file.type = "other";
        }
        file.mode = file.type == "symlink" ? "" : mode_of(it->path());
        view["/" + it->path().lexically_relative(root).string()] = file;
    }
    return view;
}

// cuvet's view, brought to what a rootfs can show: a hard link becomes the
// file it shares data with, symlink sizes and modes and layers are not
// compared (a rootfs has no layers, and link modes are meaningless).
inline std::map<std::string, ListedFile> comparable(const Listing& listing) {
    std::map<std::string, ListedFile> view;
    for (const auto& [path, entry] : listing.files) {
        ListedFile file = entry;
        if (file.type == "hardlink" && listing.has(file.link_target))
            file = listing.at(file.link_target);
        if (file.type == "symlink") file.mode.clear();
        if (file.type != "file") file.size = 0;
        if (file.type != "symlink") file.link_target.clear();
        file.layer = 0;
        view[path] = file;
    }
    return view;
}

}  // namespace cuvet::test
