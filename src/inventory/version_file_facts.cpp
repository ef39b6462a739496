// Versions from files that state them: cudnn_version.h, nccl.h,
// NvInferVersion.h, the toolkit's version.json, and the frameworks' own version
// files the catalog names (rules/frameworks.json).
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>

#include "cuvet/rules/framework_catalog.hpp"
#include "facts.hpp"

namespace cuvet::inventory::detail {

namespace {

bool ends_with(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

Fact make(const std::string& component, const std::string& category, const std::string& version,
          const std::string& root, const std::string& kind, const std::string& path) {
    Fact fact;
    fact.component = component;
    fact.category = category;
    fact.version = version;
    fact.root = root;
    fact.source = "files";
    fact.rank = rank_version_file;
    fact.evidence = {kind, path, version, ""};
    return fact;
}

std::string join_defines(std::string_view text, const std::vector<std::string>& names) {
    std::string version;
    for (auto name : names) {
        auto value = c_define(text, name);
        if (value.empty()) return version;
        version += (version.empty() ? "" : ".") + value;
    }
    return version;
}

// The CUDA math libraries state their version in one header each:
// cublas_api.h CUBLAS_VER_MAJOR/MINOR/PATCH/BUILD, and the same scheme in
// cufft.h, curand.h, cusparse.h, cusolver_common.h and nppversion.h.
// (nvrtc.h and nvJitLink.h state none: only a call answers; their versions
// come from packages, version.json and file names.)
std::string math_library_header(std::string_view name) {
    static const std::map<std::string_view, std::string_view> headers = {
        {"cublas_api.h", "cublas"},
        {"cufft.h", "cufft"},
        {"curand.h", "curand"},
        {"cusparse.h", "cusparse"},
        {"cusolver_common.h", "cusolver"},
        {"nppversion.h", "npp"}};
    auto it = headers.find(name);
    return it == headers.end() ? "" : std::string(it->second);
}

std::string library_define_prefix(std::string_view name) {
    auto library = math_library_header(name);
    for (auto& c : library) c = char(std::toupper(static_cast<unsigned char>(c)));
    return library + "_VER_";
}

void header_fact(const std::string& path, const std::string& text, Facts& out) {
    auto name = base_of(path);
    auto root = root_of_dir(dir_of(path));
    if (name.rfind("cudnn_version", 0) == 0 || name == "cudnn.h" || name.rfind("cudnn_v", 0) == 0) {
        auto version = join_defines(text, {"CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"});
        if (!version.empty())
            out.push_back(make("cudnn", "cuda-library", version, root, "header", path));
    } else if (name == "nccl.h") {
        auto version = join_defines(text, {"NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"});
        if (!version.empty())
            out.push_back(make("nccl", "cuda-library", version, root, "header", path));
    } else if (const auto* header = rules::builtin_framework_catalog().version_header(name)) {
        auto version = join_defines(text, header->defines);
        if (!version.empty())
            out.push_back(make(header->component, header->category, version, root, "header", path));
    } else if (auto library = math_library_header(name); !library.empty()) {
        auto prefix = library_define_prefix(name);
        auto version = join_defines(
            text, {prefix + "MAJOR", prefix + "MINOR", prefix + "PATCH", prefix + "BUILD"});
        if (version.empty() && name == "nppversion.h")
            version = join_defines(text, {"NPP_VERSION_MAJOR", "NPP_VERSION_MINOR",
                                          "NPP_VERSION_PATCH", "NPP_VERSION_BUILD"});
        if (!version.empty())
            out.push_back(make(library, "cuda-library", version, root, "header", path));
    } else if (name == "cuda_runtime_api.h") {
        auto v = c_define(text, "CUDART_VERSION");  // 12040 = 12.4
        if (v.size() >= 4) {
            int n = std::stoi(v);
            out.push_back(make("cudart", "cuda-library",
                               std::to_string(n / 1000) + "." + std::to_string(n % 1000 / 10), root,
                               "header", path));
        }
    }
}

void toolkit_fact(const std::string& path, const std::string& text, Facts& out) {
    auto root = dir_of(path);
    if (base_of(path) == "version.txt") {
        auto at = text.find("CUDA Version ");
        if (at == std::string::npos) return;
        auto end = text.find_first_of(" \r\n", at + 13);
        out.push_back(make("cuda-toolkit", "toolkit", text.substr(at + 13, end - at - 13), root,
                           "version.txt", path));
        return;
    }
    auto json = nlohmann::json::parse(text, nullptr, false);
    if (!json.is_object()) return;
    static const std::map<std::string, std::string> keys = {
        {"cuda", "cuda-toolkit"},    {"cuda_cudart", "cudart"}, {"libcublas", "cublas"},
        {"libcufft", "cufft"},       {"libcurand", "curand"},   {"libcusolver", "cusolver"},
        {"libcusparse", "cusparse"}, {"cuda_nvrtc", "nvrtc"},   {"libnvjitlink", "nvjitlink"},
        {"cuda_nvcc", "nvcc"}};
    for (const auto& [key, component] : keys) {
        auto item = json.find(key);
        if (item == json.end() || !item->is_object() || !item->contains("version")) continue;
        if (!(*item)["version"].is_string()) continue;
        bool toolkit = component == "cuda-toolkit" || component == "nvcc";
        out.push_back(make(component, toolkit ? "toolkit" : "cuda-library",
                           (*item)["version"].get<std::string>(), root, "version.json", path));
        out.back().evidence.detail = key;
    }
}

// A framework's own version file (rules/frameworks.json, catalog): root is its package dir.
void python_fact(const std::string& path, const std::string& text, Facts& out) {
    auto found = rules::builtin_framework_catalog().version_file(path);
    if (!found) return;
    std::string version;
    for (const auto& name : found->file->version)
        if (version = python_value(text, name); !version.empty()) break;
    std::map<std::string, std::string> attributes;
    for (const auto& [attribute, name] : found->file->attributes)
        if (auto value = python_value(text, name); !value.empty()) attributes[attribute] = value;
    if (version.empty() && attributes.empty()) return;
    auto fact =
        make(found->file->component, "framework", version, found->root, "version-file", path);
    fact.attributes = std::move(attributes);
    out.push_back(std::move(fact));
}

}  // namespace

void version_file_facts(const Analysis& analysis, Facts& out) {
    for (const auto& [path, text] : analysis.texts) {
        if (ends_with(path, ".h"))
            header_fact(path, text, out);
        else if (ends_with(path, "/version.json") || ends_with(path, "/version.txt"))
            toolkit_fact(path, text, out);
        else if (ends_with(path, ".py"))
            python_fact(path, text, out);
    }
    // A framework's CUDA backend that is a library of its own (the catalog's cuda_provider:
    // ONNX Runtime's CUDA execution provider), recorded on its install.
    const auto& catalog = rules::builtin_framework_catalog();
    for (const auto& [path, entry] : analysis.tree.entries()) {
        const auto provider = catalog.path_of(&rules::FrameworkRecord::cuda_provider, path);
        if (!provider || provider->framework->install.empty()) continue;
        const auto& record = *provider->framework;
        const std::string package_dir =
            record.cuda_provider.path.substr(0, record.cuda_provider.path.find('/'));
        auto fact =
            make(record.install, "framework", "", provider->site + "/" + package_dir, "file", path);
        fact.rank = rank_file_name;
        fact.attributes["cuda_provider"] = path;
        if (auto it = analysis.elfs.find(path); it != analysis.elfs.end()) {
            std::string needs;
            for (const auto& n : it->second.needed)
                if (n.find("cu") != std::string::npos || n.find("nv") != std::string::npos)
                    needs += (needs.empty() ? "" : " ") + n;
            if (!needs.empty()) fact.attributes["cuda_provider_needs"] = needs;
        }
        out.push_back(std::move(fact));
    }
}

}  // namespace cuvet::inventory::detail
