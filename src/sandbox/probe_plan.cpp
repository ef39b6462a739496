#include "cuvet/sandbox/probe_plan.hpp"

#include <algorithm>
#include <regex>
#include <set>

#include "cuvet/image/env.hpp"
#include "cuvet/rules/framework_catalog.hpp"

namespace cuvet::sandbox {
namespace {

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

}  // namespace

std::optional<std::string> cudnn_version_from_name(const std::string& file_name) {
    static const std::regex dist_info(
        R"(^nvidia_cudnn_cu\d+-(\d+)\.(\d+)\.(\d+)(\.\d+)*\.dist-info$)");
    static const std::regex soname(R"(^libcudnn\.so\.(\d+)\.(\d+)\.(\d+)$)");
    std::smatch match;
    if (std::regex_match(file_name, match, dist_info) ||
        std::regex_match(file_name, match, soname)) {
        return match[1].str() + "." + match[2].str() + "." + match[3].str();
    }
    return std::nullopt;
}

ProbePlan plan_probe(const image::FileTree& tree) {
    ProbePlan plan;
    std::set<std::string> file_versions;
    std::string file_version_source;
    // The framework library whose load maps its GPU stack (the catalog's gpu_library), and
    // the site-packages it sits in.
    const auto& catalog = rules::builtin_framework_catalog();
    std::string site;
    for (const auto& [path, entry] : tree.entries()) {
        const std::string name = base_name(path);
        if (plan.framework_library.empty() && entry.type != image::FileType::directory) {
            if (auto library = catalog.path_of(&rules::FrameworkRecord::gpu_library, path)) {
                plan.framework_library = path;
                site = library->site;
            }
        }
        if (entry.type == image::FileType::regular || entry.type == image::FileType::hardlink) {
            if (auto version = cudnn_version_from_name(name)) {
                file_versions.insert(*version);
                file_version_source = path;
            }
        }
    }
    if (!plan.framework_library.empty()) {
        plan.args = {"--preload", plan.framework_library};
        // The wheel that ships cuDNN for this framework sits in the same site-packages.
        for (auto it = tree.entries().lower_bound(site + "/"); it != tree.entries().end(); ++it) {
            if (it->first.compare(0, site.size() + 1, site + "/") != 0) break;
            // Layers need not list the directory itself: look at the first component below site.
            const std::string rest = it->first.substr(site.size() + 1);
            if (auto version = cudnn_version_from_name(rest.substr(0, rest.find('/')))) {
                plan.expect.cudnn_version = version;
                plan.expect.cudnn_source = site + "/" + rest.substr(0, rest.find('/'));
                break;
            }
        }
    }
    // Without a framework's own wheel, only an image with one cuDNN version
    // has an unambiguous expectation.
    if (!plan.expect.cudnn_version && file_versions.size() == 1) {
        plan.expect.cudnn_version = *file_versions.begin();
        plan.expect.cudnn_source = file_version_source;
    }
    return plan;
}

std::vector<std::string> probe_environment(const std::vector<std::string>& image_env,
                                           const std::vector<std::string>& overrides) {
    std::vector<std::string> env = image::with_env_overrides(image_env, overrides);
    const bool has_path = std::any_of(
        env.begin(), env.end(), [](const std::string& e) { return e.rfind("PATH=", 0) == 0; });
    if (!has_path)
        env.push_back("PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    return env;
}

}  // namespace cuvet::sandbox
