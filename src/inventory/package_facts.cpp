// Versions from package managers: pip dist-info, dpkg status, conda-meta.
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "facts.hpp"

namespace cuvet::inventory::detail {

namespace {

struct Mapping {
    std::string component, category, dir;  // dir: where the package puts its files
};

// pip distribution names (normalised: lower case, '-' and '.' as '_').
std::optional<Mapping> pip_mapping(const std::string& dist) {
    static const std::regex nvidia_lib(
        R"(nvidia_(cudnn|cublas|cufft|curand|cusolver|cusparse|nccl|nvjitlink|cuda_runtime|cuda_nvrtc)(_cu\d+)?)");
    std::smatch m;
    if (std::regex_match(dist, m, nvidia_lib)) {
        static const std::map<std::string, std::string> names = {{"cuda_runtime", "cudart"},
                                                                 {"cuda_nvrtc", "nvrtc"}};
        auto lib = m[1].str();
        auto it = names.find(lib);
        return Mapping{it == names.end() ? lib : it->second, "cuda-library", "nvidia/" + lib};
    }
    static const std::vector<std::pair<std::regex, Mapping>> frameworks = {
        {std::regex("torch"), {"torch", "framework", "torch"}},
        {std::regex("tensorflow(_gpu|_cpu|_intel)?|tf_nightly"),
         {"tensorflow", "framework", "tensorflow"}},
        {std::regex("onnxruntime(_gpu)?"), {"onnxruntime", "framework", "onnxruntime"}},
        {std::regex("jax"), {"jax", "framework", "jax"}},
        {std::regex("jaxlib"), {"jaxlib", "framework", "jaxlib"}},
        {std::regex("jax_cuda\\d+_plugin"), {"jax-cuda-plugin", "framework", ""}},
        {std::regex("jax_cuda\\d+_pjrt"), {"jax-cuda-pjrt", "framework", "jax_plugins"}},
        {std::regex("cupy(_cuda\\d+x?)?"), {"cupy", "framework", "cupy"}},
        {std::regex("paddlepaddle(_gpu)?"), {"paddle", "framework", "paddle"}},
        {std::regex("tensorrt(_cu\\d+)?_libs"), {"tensorrt", "cuda-library", "tensorrt_libs"}},
        {std::regex("tensorrt(_cu\\d+)?(_bindings)?"),
         {"tensorrt-python", "framework", "tensorrt"}},
    };
    for (const auto& [re, mapping] : frameworks)
        if (std::regex_match(dist, re)) return mapping;
    return std::nullopt;
}

std::string normalise_dist(std::string name) {
    for (auto& c : name) {
        c = char(std::tolower(static_cast<unsigned char>(c)));
        if (c == '-' || c == '.') c = '_';
    }
    return name;
}

// "Name: x" / "Version: y" from a METADATA or dpkg paragraph.
std::string header_field(std::string_view text, std::string_view field) {
    std::string key = std::string(field) + ":";
    std::size_t at = 0;
    while (at < text.size()) {
        auto nl = text.find('\n', at);
        auto line =
            text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
        if (line.empty()) break;  // end of the header block
        if (line.substr(0, key.size()) == key) {
            auto value = line.substr(key.size());
            while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
                value.remove_prefix(1);
            while (!value.empty() && (value.back() == '\r' || value.back() == ' '))
                value.remove_suffix(1);
            return std::string(value);
        }
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return "";
}

// The cuDNN a framework wheel pins ("Requires-Dist: nvidia-cudnn-cu13==9.19.0.56;
// platform_system == 'Linux'"): the release it was built against.
std::string pinned_cudnn(std::string_view metadata) {
    static const std::regex pin(R"(Requires-Dist:\s*nvidia[-_.]cudnn[-_.]cu\d+\s*(?:\[[^\]]*\])?\s*\(?\s*==\s*([0-9][0-9.]*))",
                                std::regex::icase);
    std::size_t at = 0;
    while (at < metadata.size()) {
        auto nl = metadata.find('\n', at);
        auto line = std::string(metadata.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at));
        if (line.empty()) break;  // end of the header block
        std::smatch m;
        if (std::regex_search(line, m, pin) && m.position(0) == 0) return m[1].str();
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return "";
}

void pip_facts(const Analysis& analysis, Facts& out) {
    static const std::regex dist_info(R"((.*/(?:site|dist)-packages)/([^/]+)-([^/-]+)\.dist-info)");
    auto ends_with = [](const std::string& s, std::string_view tail) {
        return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
    };
    for (const auto& [entry_path, entry] : analysis.tree.entries()) {
        // The dist-info dir, or its METADATA when a layer left the dir implicit.
        std::string path;
        if (entry.type == image::FileType::directory && ends_with(entry_path, ".dist-info"))
            path = entry_path;
        else if (ends_with(entry_path, ".dist-info/METADATA") &&
                 analysis.tree.find(dir_of(entry_path)) == nullptr)
            path = dir_of(entry_path);
        if (path.empty()) continue;
        std::smatch m;
        if (!std::regex_match(path, m, dist_info)) continue;
        auto dist = normalise_dist(m[2].str());
        auto mapping = pip_mapping(dist);
        if (!mapping) continue;
        std::string site = m[1].str(), version = m[3].str(), evidence_path = path;
        auto metadata = analysis.texts.find(path + "/METADATA");
        if (metadata != analysis.texts.end()) {
            auto v = header_field(metadata->second, "Version");
            if (!v.empty()) version = v;
            evidence_path = metadata->first;
        }
        Fact fact;
        fact.component = mapping->component;
        fact.category = mapping->category;
        fact.version = version;
        fact.root = site + "/" + (mapping->dir.empty() ? dist : mapping->dir);
        // CUDA 13 wheels share one tree: site-packages/nvidia/cu13/lib.
        if (mapping->dir.rfind("nvidia/", 0) == 0 && analysis.tree.find(fact.root) == nullptr &&
            analysis.tree.find(site + "/nvidia/cu13") != nullptr)
            fact.root = site + "/nvidia/cu13";
        fact.source = "pip";
        fact.rank = rank_package;
        fact.evidence = {"dist-info", evidence_path, version, m[2].str()};
        if (mapping->category == "framework" && metadata != analysis.texts.end()) {
            if (auto cudnn = pinned_cudnn(metadata->second); !cudnn.empty()) fact.attributes["cudnn"] = cudnn;
        }
        out.push_back(std::move(fact));
    }
}

// "1:9.1.0.70-1" -> "9.1.0.70"
std::string upstream_version(std::string version) {
    if (auto colon = version.find(':'); colon != std::string::npos) version.erase(0, colon + 1);
    if (auto dash = version.rfind('-'); dash != std::string::npos) version.resize(dash);
    return version;
}

std::optional<Mapping> dpkg_mapping(const std::string& package) {
    static const std::regex toolkit(
        R"((cuda-cudart|libcublas|libcufft|libcurand|libcusolver|libcusparse|cuda-nvrtc|libnvjitlink|cuda-compat)-(\d+)-(\d+))");
    static const std::regex system(
        R"(lib(cudnn|cudart|cublas|cublaslt|cufft|curand|cusolver|cusparse|nvrtc|nvjitlink|nccl|nvinfer)(\d+)(-cuda-\d+)?)");
    std::smatch m;
    if (std::regex_match(package, m, toolkit)) {
        static const std::map<std::string, std::string> names = {
            {"cuda-cudart", "cudart"}, {"libcublas", "cublas"},       {"libcufft", "cufft"},
            {"libcurand", "curand"},   {"libcusolver", "cusolver"},   {"libcusparse", "cusparse"},
            {"cuda-nvrtc", "nvrtc"},   {"libnvjitlink", "nvjitlink"}, {"cuda-compat", "libcuda"}};
        std::string root = "/usr/local/cuda-" + m[2].str() + "." + m[3].str();
        bool compat = m[1] == "cuda-compat";
        return Mapping{names.at(m[1].str()), compat ? "driver" : "cuda-library",
                       compat ? root + "/compat" : root};
    }
    if (std::regex_match(package, m, system)) {
        std::string lib = m[1].str();
        if (lib == "cublaslt") lib = "cublas";
        if (lib == "nvinfer") lib = "tensorrt";
        return Mapping{lib, "cuda-library", "/usr"};
    }
    if (package == "libc6") return Mapping{"glibc", "system", "/usr"};
    return std::nullopt;
}

void dpkg_paragraphs(const std::string& path, const std::string& text, Facts& out) {
    std::size_t at = 0;
    while (at < text.size()) {
        auto end = text.find("\n\n", at);
        auto para = std::string_view(text).substr(
            at, end == std::string::npos ? std::string::npos : end - at + 1);
        at = end == std::string::npos ? text.size() : end + 2;
        auto package = header_field(para, "Package");
        auto mapping = dpkg_mapping(package);
        if (!mapping) continue;
        auto status = header_field(para, "Status");
        if (!status.empty() && status.find("installed") == std::string::npos) continue;
        if (status.find("not-installed") != std::string::npos ||
            status.find("config-files") != std::string::npos)
            continue;
        Fact fact;
        fact.component = mapping->component;
        fact.category = mapping->category;
        fact.version = upstream_version(header_field(para, "Version"));
        fact.root = mapping->dir;
        fact.source = "dpkg";
        fact.rank = rank_package;
        fact.evidence = {"dpkg", path, fact.version, package + " " + header_field(para, "Version")};
        out.push_back(std::move(fact));
    }
}

void dpkg_facts(const Analysis& analysis, Facts& out) {
    for (const auto& [path, text] : analysis.texts) {
        if (path == "/var/lib/dpkg/status" || path.rfind("/var/lib/dpkg/status.d/", 0) == 0)
            dpkg_paragraphs(path, text, out);
    }
}

std::optional<Mapping> conda_mapping(const std::string& name) {
    static const std::map<std::string, Mapping> names = {
        {"cudnn", {"cudnn", "cuda-library", ""}},
        {"cuda-cudart", {"cudart", "cuda-library", ""}},
        {"libcublas", {"cublas", "cuda-library", ""}},
        {"libcufft", {"cufft", "cuda-library", ""}},
        {"libcurand", {"curand", "cuda-library", ""}},
        {"libcusolver", {"cusolver", "cuda-library", ""}},
        {"libcusparse", {"cusparse", "cuda-library", ""}},
        {"cuda-nvrtc", {"nvrtc", "cuda-library", ""}},
        {"libnvjitlink", {"nvjitlink", "cuda-library", ""}},
        {"nccl", {"nccl", "cuda-library", ""}},
        {"libnvinfer", {"tensorrt", "cuda-library", ""}},
        {"tensorrt", {"tensorrt", "cuda-library", ""}},
        {"cudatoolkit", {"cuda-toolkit", "toolkit", ""}},
        {"cuda-version", {"cuda-version", "toolkit", ""}},
        {"pytorch", {"torch", "framework", "torch"}},
        {"tensorflow-base", {"tensorflow", "framework", "tensorflow"}},
        {"tensorflow", {"tensorflow", "framework", "tensorflow"}},
        {"onnxruntime", {"onnxruntime", "framework", "onnxruntime"}},
        {"jaxlib", {"jaxlib", "framework", "jaxlib"}},
        {"cupy", {"cupy", "framework", "cupy"}},
        {"cupy-core", {"cupy", "framework", "cupy"}},
        {"paddlepaddle-gpu", {"paddle", "framework", "paddle"}},
    };
    auto it = names.find(name);
    if (it == names.end()) return std::nullopt;
    return it->second;
}

// "<prefix>/lib/python3.X/site-packages/<dir>" when the tree has it.
std::string conda_site_dir(const Analysis& analysis, const std::string& prefix,
                           const std::string& dir) {
    std::string lib = prefix + "/lib/python";
    const auto& entries = analysis.tree.entries();
    for (auto it = entries.lower_bound(lib); it != entries.end(); ++it) {
        if (it->first.compare(0, lib.size(), lib) != 0) break;
        auto site = it->first.find("/site-packages", lib.size());
        if (site == std::string::npos || it->first.find('/', lib.size()) < site) continue;
        std::string candidate = it->first.substr(0, site) + "/site-packages/" + dir;
        if (analysis.tree.find(candidate) != nullptr) return candidate;
        break;
    }
    return prefix;
}

void conda_facts(const Analysis& analysis, Facts& out) {
    for (const auto& [path, entry] : analysis.tree.entries()) {
        if (entry.type != image::FileType::regular) continue;
        auto dir = dir_of(path);
        if (base_of(dir) != "conda-meta") continue;
        auto file = base_of(path);
        if (file.size() < 6 || file.compare(file.size() - 5, 5, ".json") != 0) continue;
        auto stem = file.substr(0, file.size() - 5);
        auto build_dash = stem.rfind('-');
        if (build_dash == std::string::npos || build_dash == 0) continue;
        auto version_dash = stem.rfind('-', build_dash - 1);
        if (version_dash == std::string::npos) continue;
        auto name = stem.substr(0, version_dash);
        auto version = stem.substr(version_dash + 1, build_dash - version_dash - 1);
        auto mapping = conda_mapping(name);
        if (!mapping) continue;
        std::string build = stem.substr(build_dash + 1);
        if (auto text = analysis.texts.find(path); text != analysis.texts.end()) {
            auto json = nlohmann::json::parse(text->second, nullptr, false);
            if (json.is_object() && json.value("version", "") != "") {
                version = json.value("version", version);
                build = json.value("build", build);
            }
        }
        auto prefix = dir_of(dir);
        Fact fact;
        fact.component = mapping->component;
        fact.category = mapping->category;
        fact.version = version;
        fact.root = mapping->dir.empty() ? prefix : conda_site_dir(analysis, prefix, mapping->dir);
        fact.source = "conda";
        fact.rank = rank_package;
        fact.evidence = {"conda-meta", path, version, name + " " + version + " " + build};
        out.push_back(std::move(fact));
    }
}

}  // namespace

void package_facts(const Analysis& analysis, Facts& out) {
    pip_facts(analysis, out);
    dpkg_facts(analysis, out);
    conda_facts(analysis, out);
}

}  // namespace cuvet::inventory::detail
