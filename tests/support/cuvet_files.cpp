#include "support/cuvet_files.hpp"

#include <sstream>
#include <stdexcept>

namespace cuvet::test {

std::ostream& operator<<(std::ostream& out, const ListedFile& file) {
    out << file.type << " " << file.mode << " " << file.size << " L" << file.layer;
    if (!file.link_target.empty()) out << " -> " << file.link_target;
    return out;
}

const ListedFile& Listing::at(const std::string& path) const {
    auto it = files.find(path);
    if (it == files.end()) throw std::runtime_error("cuvet files did not list " + path);
    return it->second;
}

Listing list_files(const std::filesystem::path& image, const std::vector<std::string>& extra) {
    std::vector<std::string> args{"files", "--long", "--format", "json", image.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    Listing listing;
    listing.result = run_cuvet(args);
    if (listing.result.exit_code != 0) return listing;
    auto doc = nlohmann::json::parse(listing.result.out);
    for (const auto& item : doc.at("files")) {
        ListedFile file;
        file.type = item.at("type").get<std::string>();
        file.mode = item.value("mode", "");
        file.size = item.value("size", std::uint64_t{0});
        file.link_target = item.value("link_target", "");
        file.layer = item.value("layer", 0);
        listing.files[item.at("path").get<std::string>()] = file;
    }
    return listing;
}

nlohmann::json image_summary(const std::filesystem::path& image,
                             const std::vector<std::string>& extra) {
    std::vector<std::string> args{"image", "--format", "json", image.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    auto result = run_cuvet(args);
    if (result.exit_code != 0) return nullptr;
    return nlohmann::json::parse(result.out);
}

std::string diff_views(const std::map<std::string, ListedFile>& expected,
                       const std::map<std::string, ListedFile>& actual) {
    std::ostringstream out;
    for (const auto& [path, file] : expected) {
        auto it = actual.find(path);
        if (it == actual.end())
            out << path << ": expected " << file << ", missing\n";
        else if (!(it->second == file))
            out << path << ": expected " << file << ", got " << it->second << "\n";
    }
    for (const auto& [path, file] : actual)
        if (!expected.count(path)) out << path << ": unexpected " << file << "\n";
    return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

}  // namespace cuvet::test
