// A fleet's images as a list file: one reference a line, '#' comments.
#include <set>

#include "cuvet/core/error.hpp"
#include "cuvet/fleet/image_sources.hpp"
#include "text_file.hpp"

namespace cuvet::fleet {
namespace {

std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r");
    return text.substr(first, last - first + 1);
}

}  // namespace

std::vector<std::string> parse_image_list(std::string_view text, const std::string& name) {
    std::vector<std::string> references;
    std::set<std::string, std::less<>> seen;
    std::size_t line_number = 0;
    while (!text.empty()) {
        ++line_number;
        const auto end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        // '#' never occurs in an image reference, so it starts a comment anywhere on the line.
        line = trimmed(line.substr(0, line.find('#')));
        if (line.empty()) continue;
        if (line.find_first_of(" \t") != std::string_view::npos)
            fail_input(name + ":" + std::to_string(line_number) + ": '" + std::string(line) +
                       "' is more than one image reference (one reference a line)");
        if (seen.insert(std::string(line)).second) references.emplace_back(line);
    }
    return references;
}

std::vector<std::string> read_image_list(const std::string& path) {
    return parse_image_list(read_text_file(path, "the image list"), path);
}

}  // namespace cuvet::fleet
