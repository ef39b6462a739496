#pragma once
// What `cuvet files --long --format json` and `cuvet image --format json` say
// about an image, parsed, for tests that compare merged views.
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace cuvet::test {

struct ListedFile {
    std::string type;  // "file", "dir", "symlink", "hardlink", "other"
    std::string mode;  // octal permission bits, e.g. "0755"
    std::uint64_t size = 0;
    std::string link_target;
    int layer = 0;
    bool operator==(const ListedFile&) const = default;
};
std::ostream& operator<<(std::ostream& out, const ListedFile& file);  // for Catch messages

struct Listing {
    ProcessResult result;
    std::map<std::string, ListedFile> files;  // path -> entry
    bool has(const std::string& path) const { return files.count(path) != 0; }
    const ListedFile& at(const std::string& path) const;  // throws naming the path
};

// Runs `cuvet files --long --format json IMAGE extra...`; files is filled when
// cuvet exits 0.
Listing list_files(const std::filesystem::path& image, const std::vector<std::string>& extra = {});
// Runs `cuvet image --format json IMAGE extra...`; null when cuvet fails.
nlohmann::json image_summary(const std::filesystem::path& image,
                             const std::vector<std::string>& extra = {});

// Lines "path: expected X, got Y" for every path where two views differ;
// empty when they agree. Catch cannot print maps of structs usefully.
std::string diff_views(const std::map<std::string, ListedFile>& expected,
                       const std::map<std::string, ListedFile>& actual);

// The lines of text, without empty ones (stderr of a failed run is one line).
std::vector<std::string> lines_of(const std::string& text);

}  // namespace cuvet::test
