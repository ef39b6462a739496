// CUV014 env-contradicts
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace cuv014 {

std::string env(const Stack& stack, const char* key) {
    auto it = stack.env.find(key);
    return it == stack.env.end() ? "" : it->second;
}

report::Finding contradiction(const std::string& key, const std::string& value,
                              const std::string& what, std::string fix) {
    report::Finding f;
    f.message = "ENV " + key + "=" + value + " contradicts the image: " + what;
    f.evidence.push_back("image config Env: " + key + "=" + value);
    f.fix = std::move(fix);
    return f;
}

// The copies of `family` (of the image CUDA's major.minor when `cuda` is set) something the image
// runs loads.
std::vector<std::string> loaded_roots(const Stack& stack, const std::string& family,
                                      const std::optional<rules::Version>& cuda) {
    std::vector<std::string> files;
    for (const auto& copy : stack.libraries)
        if (copy.family == family &&
            (!cuda || (copy.version && copy.version->truncated(2) == cuda->truncated(2))))
            files.push_back(copy.path);
    return util::roots_loading(stack, files);
}

// A contradiction about a library nothing the image runs loads misleads no one at run time: info.
void scope(report::Finding& f, const std::vector<std::string>& roots, const std::string& what) {
    if (roots.empty()) {
        f.id = "CUV014";
        f.severity = report::Severity::info;
        f.message += "; nothing in the image loads " + what;
    }
    util::name_roots(f, roots);
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database&) {
    std::vector<report::Finding> out;
    const auto runtime_roots = loaded_roots(stack, "cudart", stack.cuda_version);
    const std::string runtime_what =
        stack.cuda_version ? "its CUDA " + stack.cuda_version->truncated(2).str() + " runtime" : "";
    std::string cuda_env = env(stack, "CUDA_VERSION");
    auto cuda = rules::Version::parse(cuda_env);
    if (cuda && stack.cuda_version && cuda->truncated(2) != stack.cuda_version->truncated(2)) {
        auto f =
            contradiction("CUDA_VERSION", cuda_env,
                          "the CUDA toolkit in the image is " + stack.cuda_version->str(),
                          "Set ENV CUDA_VERSION=" + stack.cuda_version->str() +
                              " (or drop it): tools and entrypoints read it to pick libraries.");
        for (const auto& p : stack.cuda_version_provenance)
            f.evidence.push_back("image CUDA: " + p);
        scope(f, runtime_roots, runtime_what);
        out.push_back(std::move(f));
    }
    std::string require = env(stack, "NVIDIA_REQUIRE_CUDA");
    if (auto at = require.find("cuda>="); at != std::string::npos && stack.cuda_version) {
        auto text = require.substr(at + 6, require.find(' ', at) == std::string::npos
                                               ? std::string::npos
                                               : require.find(' ', at) - at - 6);
        auto wanted = rules::Version::parse(text);
        if (wanted && wanted->truncated(2) != stack.cuda_version->truncated(2)) {
            auto f = contradiction(
                "NVIDIA_REQUIRE_CUDA", require,
                "it asks the host for CUDA >= " + wanted->str() + " but the image holds CUDA " +
                    stack.cuda_version->str() +
                    ": the container toolkit admits hosts whose driver may be too old (or rejects "
                    "good ones)",
                "Set NVIDIA_REQUIRE_CUDA=\"cuda>=" + stack.cuda_version->truncated(2).str() +
                    "\" to match the toolkit, or drop the override inherited from the base image.");
            for (const auto& p : stack.cuda_version_provenance)
                f.evidence.push_back("image CUDA: " + p);
            scope(f, runtime_roots, runtime_what);
            out.push_back(std::move(f));
        }
    }
    std::string cudnn_env = env(stack, "NV_CUDNN_VERSION");
    if (auto cudnn = rules::Version::parse(cudnn_env)) {
        std::string have;
        bool match = false;
        for (const auto& copy : stack.libraries) {
            if (copy.family != "cudnn" || !copy.version) continue;
            have += (have.empty() ? "" : ", ") + util::describe(copy);
            auto n = std::min<std::size_t>(3, std::min(copy.version->size(), cudnn->size()));
            match = match || copy.version->truncated(n) == cudnn->truncated(n);
        }
        if (!match) {
            auto f = contradiction(
                "NV_CUDNN_VERSION", cudnn_env,
                have.empty() ? "the image holds no cuDNN" : "the image holds " + have,
                "Set ENV NV_CUDNN_VERSION to the cuDNN the image installs, or drop it (it was "
                "inherited from a -cudnn base image whose cuDNN was replaced).");
            scope(f, loaded_roots(stack, "cudnn", std::nullopt), "a cuDNN");
            out.push_back(std::move(f));
        }
    }
    return out;
}

}  // namespace cuv014

const ValidateCheck cuv014_env_contradicts{
    CheckInfo{
        .id = "CUV014",
        .severity = report::Severity::warning,
        .name = "env-contradicts",
    },
    &cuv014::run,
};

}  // namespace cuvet::checks
