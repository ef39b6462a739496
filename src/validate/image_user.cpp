#include "image_user.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string_view>

namespace cuvet::validate {

namespace {

std::optional<std::uint32_t> number(std::string_view text) {
    std::uint32_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t at = 0;
    while (true) {
        auto colon = line.find(':', at);
        out.push_back(line.substr(at, colon - at));
        if (colon == std::string_view::npos) return out;
        at = colon + 1;
    }
}

// Calls on_line with the fields of each line of a passwd/group file.
template <typename OnLine>
void for_each_record(const std::string& text, OnLine&& on_line) {
    std::size_t at = 0;
    while (at < text.size()) {
        auto end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        auto line = std::string_view(text).substr(at, end - at);
        if (!line.empty() && line[0] != '#') on_line(fields(line));
        at = end + 1;
    }
}

}  // namespace

ImageUser resolve_user(const std::string& spec, const loader::ImageFiles& files) {
    ImageUser user;
    user.spec = spec;
    if (spec.empty()) return user;
    const auto colon = spec.find(':');
    const std::string name = spec.substr(0, colon);
    const std::string group = colon == std::string::npos ? std::string() : spec.substr(colon + 1);
    const std::string* passwd = files.text("/etc/passwd");
    const bool has_passwd = files.data_entry("/etc/passwd") != nullptr;
    std::string login = name;
    bool found = false;
    if (passwd != nullptr)
        for_each_record(*passwd, [&](const std::vector<std::string_view>& f) {
            if (found || f.size() < 4) return;
            auto uid = number(f[2]);
            if (!uid || (f[0] != name && number(name) != uid)) return;
            found = true;
            login = std::string(f[0]);
            user.uid = *uid;
            user.gid = number(f[3]).value_or(0);
        });
    if (!found) {
        if (auto uid = number(name)) {
            user.uid = *uid;  // a uid the passwd file lacks runs with gid 0
        } else if (passwd == nullptr && has_passwd) {
            user.known = false;  // a passwd file too large to keep: no judgement
            return user;
        } else {
            user.problem = "USER " + spec + ": the runtime finds no \"" + name +
                           "\" in the image's /etc/passwd (\"unable to find user " + name + "\")";
            return user;
        }
    }
    const std::string* groups = files.text("/etc/group");
    bool group_found = group.empty();
    if (!group.empty() && number(group)) user.gid = *number(group), group_found = true;
    if (groups != nullptr)
        for_each_record(*groups, [&](const std::vector<std::string_view>& f) {
            if (f.size() < 4) return;
            auto gid = number(f[2]);
            if (!gid) return;
            if (!group_found && f[0] == group) user.gid = *gid, group_found = true;
            // runc's GetExecUser: supplementary groups only in the implicit form ("svc",
            // "1000"); "svc:video" runs with video alone.
            if (!group.empty()) return;
            for (std::size_t at = 0; at <= f[3].size();) {
                auto comma = f[3].find(',', at);
                if (f[3].substr(at, comma - at) == login) user.groups.push_back(*gid);
                if (comma == std::string_view::npos) break;
                at = comma + 1;
            }
        });
    if (!group_found) {
        if (groups == nullptr && files.data_entry("/etc/group") != nullptr) {
            user.known = false;
        } else {
            user.problem = "USER " + spec + ": the runtime finds no group \"" + group +
                           "\" in the image's /etc/group";
        }
    }
    return user;
}

bool permits(const ImageUser& user, const image::FileEntry& entry, unsigned want) {
    if (!user.known) return true;
    if (user.uid == 0)  // CAP_DAC_OVERRIDE: all but executing a file with no x bit at all
        return (want & 01) == 0 || entry.type == image::FileType::directory ||
               (entry.mode & 0111) != 0;
    // The kernel uses exactly one class: the owner's bits, else the group's when the file's
    // group is the user's primary or a supplementary one, else the others' (a class with
    // fewer bits than "other" still denies: generic_permission, fs/namei.c).
    unsigned shift = 0;
    if (entry.uid == user.uid)
        shift = 6;
    else if (entry.gid == user.gid ||
             std::find(user.groups.begin(), user.groups.end(), entry.gid) != user.groups.end())
        shift = 3;
    return ((entry.mode >> shift) & want) == want;
}

std::string unsearchable_parent(const ImageUser& user, const image::FileTree& tree,
                                const std::string& path) {
    for (auto slash = path.find('/', 1); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
        const auto* dir = tree.find(path.substr(0, slash));
        if (dir != nullptr && dir->type == image::FileType::directory && !permits(user, *dir, 01))
            return dir->path;
    }
    return "";
}

std::string open_denied(const ImageUser& user, const image::FileTree& tree,
                        const std::string& file) {
    const std::string who = "USER " + user.spec + " (uid " + std::to_string(user.uid) + ", gid " +
                            std::to_string(user.gid) + ")";
    if (auto dir = unsearchable_parent(user, tree, file); !dir.empty())
        return who + " cannot search " + dir + " " + owner_and_mode(*tree.find(dir)) +
               ", which holds " + file;
    const auto* entry = tree.find(file);
    if (entry == nullptr || permits(user, *entry, 04)) return "";
    return who + " cannot read " + file + " " + owner_and_mode(*entry);
}

std::string owner_and_mode(const image::FileEntry& entry) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", entry.mode & 07777);
    return "(owner " + std::to_string(entry.uid) + ":" + std::to_string(entry.gid) + ", mode " +
           mode + ")";
}

}  // namespace cuvet::validate
