// python_packages.json: pip/conda package names -> the framework build they select
// and the CUDA/cuDNN they need.
#include <algorithm>

#include "package_names.hpp"
#include "table_loaders.hpp"

namespace cuvet::rules::detail {

std::size_t load_python_packages(const JsonNode& root, const ProvenanceReader& provenance,
                                 std::vector<PythonPackage>& packages) {
    root.expect_object({"table", "data_version", "description", "sources", "packages"});
    static const std::vector<std::string> roles = {"framework", "gpu_plugin", "cuda_library",
                                                   "cpu_only",  "extension",  "jit_kernels"};
    std::vector<std::pair<JsonNode, std::string>> required;  // checked once all rows are read
    for (const auto& p : root.at("packages").array()) {
        p.expect_object({"name",
                         "ecosystem",
                         "role",
                         "framework",
                         "variant",
                         "cuda_major",
                         "cudnn_major",
                         "provides",
                         "index",
                         "needs_toolkit",
                         "cuda_extras",
                         "cuda_wheel_index",
                         "cuda_libraries",
                         "requires",
                         "gpu_optional",
                         "source_only",
                         "frozen_wheel_indexes",
                         "source",
                         "confidence",
                         "note"});
        PythonPackage package;
        package.name = p.at("name").string();
        if (package.name != normalize_package_name(package.name)) {
            p.at("name").fail("expected the PEP 503 normalized name '" +
                              normalize_package_name(package.name) + "'");
        }
        package.ecosystem = p.at("ecosystem").string();
        if (package.ecosystem != "pypi" && package.ecosystem != "conda") {
            p.at("ecosystem").fail("expected \"pypi\" or \"conda\"");
        }
        package.role = p.at("role").string();
        if (std::find(roles.begin(), roles.end(), package.role) == roles.end()) {
            p.at("role").fail(
                "expected one of framework, gpu_plugin, cuda_library, cpu_only, extension, "
                "jit_kernels");
        }
        JsonNode framework = p.at("framework");
        if (!framework.is_null()) package.framework = framework.string();
        JsonNode variant = p.at("variant");
        if (!variant.is_null()) package.variant = variant.string();
        JsonNode cuda_major = p.at("cuda_major");
        if (!cuda_major.is_null()) package.cuda_major = cuda_major.integer();
        JsonNode cudnn_major = p.at("cudnn_major");
        if (!cudnn_major.is_null()) package.cudnn_major = cudnn_major.integer();
        package.provides = p.optional_string("provides");
        package.index = p.at("index").string();
        if (auto needs_toolkit = p.get("needs_toolkit"))
            package.needs_toolkit = needs_toolkit->boolean();
        if (auto extras = p.get("cuda_extras")) {
            for (const auto& extra : extras->array()) package.cuda_extras.push_back(extra.string());
        }
        package.cuda_wheel_index = p.optional_string("cuda_wheel_index");
        package.cuda_libraries = p.optional_string("cuda_libraries");
        if (!package.cuda_libraries.empty() && package.cuda_libraries != "system" &&
            package.cuda_libraries != "bundled") {
            p.at("cuda_libraries").fail("expected \"system\" or \"bundled\"");
        }
        if (auto required_list = p.get("requires")) {
            for (const auto& r : required_list->array()) {
                r.expect_object({"package", "extras", "source", "confidence", "note"});
                PackageRequirement requirement;
                requirement.package = r.at("package").string();
                if (requirement.package != normalize_package_name(requirement.package))
                    r.at("package").fail("expected a PEP 503 normalized name");
                if (auto extras = r.get("extras")) {
                    for (const auto& extra : extras->array())
                        requirement.extras.push_back(extra.string());
                }
                requirement.provenance = provenance(r);
                required.emplace_back(r.at("package"), requirement.package);
                package.requires_packages.push_back(std::move(requirement));
            }
        }
        if (auto gpu_optional = p.get("gpu_optional")) {
            gpu_optional->expect_object({"source", "confidence", "note"});
            package.gpu_optional = provenance(*gpu_optional);
        }
        if (auto source_only = p.get("source_only")) {
            source_only->expect_object({"source", "confidence", "note"});
            package.source_only = provenance(*source_only);
        }
        if (auto frozen = p.get("frozen_wheel_indexes")) {
            for (const auto& f : frozen->array()) {
                f.expect_object({"url", "last_release", "source", "confidence", "note"});
                FrozenWheelIndex index;
                index.url = f.at("url").string();
                if (!index.url.starts_with("https://") || !index.url.ends_with("/"))
                    f.at("url").fail("expected an https:// prefix ending in '/'");
                index.last_release = f.at("last_release").version();
                index.provenance = provenance(f);
                package.frozen_wheel_indexes.push_back(std::move(index));
            }
        }
        package.provenance = provenance(p);
        for (const auto& earlier : packages) {
            if (earlier.name == package.name && earlier.ecosystem == package.ecosystem) {
                p.at("name").fail("'" + package.name + "' is listed twice");
            }
        }
        packages.push_back(std::move(package));
    }
    for (const auto& requirement : required) {
        // Named, not a structured binding: clang 14 cannot capture one in the lambda.
        const std::string& name = requirement.second;
        const bool known = std::any_of(packages.begin(), packages.end(), [&](const auto& row) {
            return row.name == name && row.ecosystem == "pypi";
        });
        if (!known) requirement.first.fail("'" + name + "' has no pypi row: its facts are unknown");
    }
    return packages.size();
}

}  // namespace cuvet::rules::detail
