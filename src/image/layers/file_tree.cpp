#include "cuvet/image/file_tree.hpp"

#include <vector>

#include "image/layers/resolve_cost.hpp"

namespace cuvet::image {

std::uint64_t& link_bytes_followed() {
    thread_local std::uint64_t bytes = 0;
    return bytes;
}

std::string_view to_string(FileType type) {
    switch (type) {
        case FileType::regular:
            return "file";
        case FileType::directory:
            return "dir";
        case FileType::symlink:
            return "symlink";
        case FileType::hardlink:
            return "hardlink";
        case FileType::other:
            return "other";
        case FileType::fifo:
            return "fifo";
        case FileType::device:
            return "device";
    }
    return "other";
}

namespace {

std::vector<std::string_view> split_components(std::string_view path) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (start <= path.size()) {
        std::size_t end = path.find('/', start);
        if (end == std::string_view::npos) end = path.size();
        auto part = path.substr(start, end - start);
        if (!part.empty() && part != ".") parts.push_back(part);
        start = end + 1;
    }
    return parts;
}

std::string join_components(const std::vector<std::string_view>& parts) {
    if (parts.empty()) return "/";
    std::string joined;
    for (auto part : parts) {
        joined += '/';
        joined += part;
    }
    return joined;
}

}  // namespace

std::string normalize_path(std::string_view path, bool clamp_at_root) {
    std::vector<std::string_view> out;
    for (auto part : split_components(path)) {
        if (part != "..") {
            out.push_back(part);
        } else if (!out.empty()) {
            out.pop_back();
        } else if (!clamp_at_root) {
            return {};  // would climb above the root
        }
    }
    return join_components(out);
}

const FileEntry* FileTree::find(std::string_view path) const {
    auto it = entries_.find(path);
    return it == entries_.end() ? nullptr : &it->second;
}

Resolution FileTree::resolve(std::string_view path) const {
    // Linux gives up after 40 links (MAXSYMLINKS); so do we.
    constexpr int max_links = 40;
    int links_followed = 0;
    std::string pending = normalize_path(path, true);
    std::string done;  // resolved prefix, no trailing slash ("" is the root)
    std::size_t pos = 1;
    Resolution result;
    while (pos <= pending.size()) {
        std::size_t end = pending.find('/', pos);
        if (end == std::string::npos) end = pending.size();
        std::string candidate = done + "/" + pending.substr(pos, end - pos);
        const FileEntry* entry = find(candidate);
        if (!entry) {
            result.status = Resolution::Status::missing;
            result.path = candidate;
            return result;
        }
        std::string rest = pending.substr(end);
        if (entry->type == FileType::symlink) {
            if (++links_followed > max_links) {
                result.status = Resolution::Status::loop;
                result.path = candidate;
                return result;
            }
            const std::string& target = entry->link_target;
            std::string base = (!target.empty() && target[0] == '/') ? "" : done;
            pending = normalize_path(base + "/" + target + rest, true);
            link_bytes_followed() += base.size() + target.size() + rest.size();
            done.clear();
            pos = 1;
            if (pending == "/") break;
            continue;
        }
        if (!rest.empty() && entry->type != FileType::directory) {
            result.status = Resolution::Status::not_a_directory;
            result.path = candidate;
            return result;
        }
        done = candidate;
        pos = end + 1;
    }
    result.status = Resolution::Status::ok;
    result.path = done.empty() ? "/" : done;
    result.entry = find(result.path);
    return result;
}

const FileEntry* FileTree::data_entry(const FileEntry& entry) const {
    if (entry.type != FileType::hardlink) return &entry;
    const FileEntry* target = find(entry.link_target);
    return target && target->type != FileType::hardlink ? target : nullptr;
}

std::shared_ptr<const std::string> FileTree::content(std::string_view path) const {
    auto it = contents_.find(path);
    if (it != contents_.end()) return it->second;
    if (const FileEntry* entry = find(path); entry && entry->type == FileType::hardlink) {
        auto target = contents_.find(entry->link_target);
        if (target != contents_.end()) return target->second;
    }
    return nullptr;
}

void FileTree::set_mode_and_owner(std::string_view path, const FileEntry& link_header) {
    if (auto it = entries_.find(path); it != entries_.end()) {
        it->second.mode = link_header.mode;
        it->second.uid = link_header.uid;
        it->second.gid = link_header.gid;
    }
}

void FileTree::put(FileEntry entry, std::shared_ptr<const std::string> content) {
    std::string key = entry.path;
    if (content)
        contents_[key] = std::move(content);
    else
        contents_.erase(key);
    entries_[key] = std::move(entry);
}

namespace {

// Erases every key strictly below `dir` ("dir/…") from a path-sorted map:
// '0' is the character after '/', so [dir + "/", dir + "0") is exactly the subtree.
template <typename Map>
void erase_below(Map& map, std::string_view dir) {
    std::string prefix = dir == "/" ? "" : std::string(dir);
    auto first = map.lower_bound(prefix + "/");
    auto last = map.lower_bound(prefix + "0");
    map.erase(first, last);
}

}  // namespace

void FileTree::remove_tree(std::string_view path) {
    remove_children(path);
    if (auto it = entries_.find(path); it != entries_.end()) entries_.erase(it);
    if (auto it = contents_.find(path); it != contents_.end()) contents_.erase(it);
}

void FileTree::remove_children(std::string_view path) {
    erase_below(entries_, path);
    erase_below(contents_, path);
}

}  // namespace cuvet::image
