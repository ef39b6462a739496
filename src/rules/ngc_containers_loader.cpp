// ngc_containers.json: what each monthly NGC framework container ships.
#include <algorithm>
#include <cctype>
#include <map>

#include "table_loaders.hpp"

namespace cuvet::rules::detail {

namespace {

// "24.05": two-digit year, dot, two-digit month.
bool is_release_name(const std::string& text) {
    return text.size() == 5 && text[2] == '.' &&
           std::isdigit(static_cast<unsigned char>(text[0])) &&
           std::isdigit(static_cast<unsigned char>(text[1])) &&
           std::isdigit(static_cast<unsigned char>(text[3])) &&
           std::isdigit(static_cast<unsigned char>(text[4]));
}

// The leading dotted-number part of "2.4.0a0+07cecf4" → 2.4.0.
std::optional<Version> numeric_prefix(const std::string& text) {
    std::size_t end = 0;
    while (end < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.'))
        ++end;
    while (end > 0 && text[end - 1] == '.') --end;
    return Version::parse(std::string_view(text).substr(0, end));
}

// "ships": the other libraries the notes list, by name ({"<library>": "10.3.0"}); null: unknown.
std::map<std::string, std::optional<Version>> read_ships(const JsonNode& ships) {
    std::map<std::string, std::optional<Version>> out;
    for (const auto& [name, version] : ships.members()) out[name] = version.nullable_version();
    return out;
}

// "images": the nvcr.io/nvidia/<image> names the table models; a row of any other is refused.
std::string images_text(const std::vector<std::string>& images) {
    std::string text;
    for (const auto& image : images) text += (text.empty() ? "" : ", ") + image;
    return text;
}

}  // namespace

std::size_t load_ngc_containers(const JsonNode& root, const ProvenanceReader& provenance,
                                std::vector<NgcContainerRelease>& releases) {
    root.expect_object({"table", "data_version", "description", "sources", "images", "releases"});
    const std::vector<std::string> images = root.at("images").string_array();
    for (const auto& e : root.at("releases").array()) {
        e.expect_object({"image", "release", "framework_version", "cuda", "cudnn", "ships",
                         "min_driver_branch", "datacenter_drivers", "ubuntu", "source",
                         "confidence", "note"});
        NgcContainerRelease r;
        r.image = e.at("image").string();
        if (std::find(images.begin(), images.end(), r.image) == images.end()) {
            e.at("image").fail("expected one of " + images_text(images));
        }
        r.release = e.at("release").string();
        if (!is_release_name(r.release))
            e.at("release").fail("expected a YY.MM release, e.g. \"24.05\"");
        JsonNode framework = e.at("framework_version");
        if (!framework.is_null()) {
            r.framework_version = framework.string();
            r.framework = numeric_prefix(r.framework_version);
            if (!r.framework) framework.fail("expected a version such as \"2.4.0a0+07cecf4\"");
        }
        r.cuda = e.at("cuda").nullable_version();
        r.cudnn = e.at("cudnn").nullable_version();
        r.ships = read_ships(e.at("ships"));
        r.min_driver_branch = e.at("min_driver_branch").nullable_version();
        r.datacenter_drivers = e.at("datacenter_drivers").version_array();
        JsonNode ubuntu = e.at("ubuntu");
        if (!ubuntu.is_null()) r.ubuntu = ubuntu.string();
        r.provenance = provenance(e);
        for (const auto& earlier : releases) {
            if (earlier.image == r.image && earlier.release == r.release) {
                e.at("release").fail(r.image + ":" + r.release + " is listed twice");
            }
        }
        releases.push_back(std::move(r));
    }
    return releases.size();
}

}  // namespace cuvet::rules::detail
