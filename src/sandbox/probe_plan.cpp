#include "cuvet/sandbox/probe_plan.hpp"

#include <algorithm>
#include <regex>
#include <set>

#include "cuvet/image/env.hpp"

namespace cuvet::sandbox {
namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

std::string parent_of(const std::string& path) { return path.substr(0, path.rfind('/')); }

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
    for (const auto& [path, entry] : tree.entries()) {
        const std::string name = base_name(path);
        if (plan.framework_library.empty() && ends_with(path, "/torch/lib/libtorch_cuda.so") &&
            entry.type != image::FileType::directory) {
            plan.framework_library = path;
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
        const std::string site = parent_of(parent_of(parent_of(plan.framework_library)));
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
