// Versions from package managers: pip dist-info, dpkg status, conda-meta.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cuvet/rules/framework_catalog.hpp"
#include "facts.hpp"

namespace cuvet::inventory::detail {

namespace {

struct Mapping {
    std::string component, category, dir;  // dir: where the package puts its files
    std::string cuda;  // the CUDA release a GPU distribution's name states ("12", "10.2")
};

Mapping mapping_of(const rules::PackageMatch& found) {
    return {found.spelling->component, found.spelling->category, found.dir, found.cuda};
}

// pip distribution names (normalised: lower case, '-' and '.' as '_'). NVIDIA's library
// wheels here, the frameworks' distributions from the catalog (rules/frameworks.json).
std::optional<Mapping> pip_mapping(const std::string& dist) {
    static const std::regex nvidia_lib(
        R"(nvidia_(cudnn|cublas|cufft|curand|cusolver|cusparse|npp|nccl|nvjitlink|cuda_runtime|cuda_nvrtc|cuda_cupti|cuda_nvcc)(_cu\d+)?)");
    std::smatch m;
    if (std::regex_match(dist, m, nvidia_lib)) {
        static const std::map<std::string, std::string> names = {{"cuda_runtime", "cudart"},
                                                                 {"cuda_nvrtc", "nvrtc"},
                                                                 {"cuda_cupti", "cupti"},
                                                                 {"cuda_nvcc", "nvcc"}};
        auto lib = m[1].str();
        auto it = names.find(lib);
        return Mapping{it == names.end() ? lib : it->second,
                       lib == "cuda_nvcc" ? "toolkit" : "cuda-library", "nvidia/" + lib, ""};
    }
    if (auto found = rules::builtin_framework_catalog().pip(dist)) return mapping_of(*found);
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

struct Requirement {
    std::string name;  // as written: "nvidia-cudnn-cu13"
    std::string spec;  // "<10.0,>=9.8"; "" when unpinned
};

// The `Requires-Dist:` lines of a METADATA header naming NVIDIA wheels, in both
// spellings pip has written: "nvidia-cudnn-cu13<10.0,>=9.8; extra == \"with-cuda\""
// and "nvidia-cudnn-cu12 (>=9.1,<10.0) ; extra == 'with_cuda'".
std::vector<Requirement> nvidia_requirements(std::string_view metadata) {
    static const std::regex line_re(
        R"(Requires-Dist:\s*(nvidia[-_.][A-Za-z0-9._-]+)\s*(?:\[[^\]]*\])?\s*\(?\s*([^;)]*))",
        std::regex::icase);
    std::vector<Requirement> out;
    std::size_t at = 0;
    while (at < metadata.size()) {
        auto nl = metadata.find('\n', at);
        auto line = std::string(
            metadata.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at));
        if (line.empty() || line == "\r") break;  // end of the header block
        std::smatch m;
        if (std::regex_search(line, m, line_re) && m.position(0) == 0) {
            std::string spec;
            for (char c : m[2].str())
                if (c != ' ' && c != '\r') spec += c;
            out.push_back({m[1].str(), spec});
        }
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return out;
}

// The cuDNN a framework wheel pins exactly (nvidia-cudnn-cu13==9.19.0.56): the release it was built
// against.
std::string pinned_cudnn(const std::vector<Requirement>& requirements) {
    static const std::regex cudnn(R"(nvidia[-_.]cudnn[-_.]cu\d+)", std::regex::icase);
    for (const auto& r : requirements)
        if (std::regex_match(r.name, cudnn) && r.spec.rfind("==", 0) == 0) return r.spec.substr(2);
    return "";
}

// The copy a distribution's files make: the root of the dir of the first
// library its RECORD lists, where the image has it. RECORD paths are relative
// to the dir holding the dist-info (site-packages, a `pip --target` tree); a
// toolkit assembled from wheels keeps its dist-infos in <prefix>/dist-info
// and its libraries in <prefix>/lib.
std::string root_from_record(const Analysis& analysis, const std::string& base,
                             const std::string& record) {
    std::istringstream lines(record);
    for (std::string line; std::getline(lines, line);) {
        auto path = line.substr(0, line.find(','));
        auto name = base_of(path);
        if (name.rfind("lib", 0) != 0 || name.find(".so") == std::string::npos) continue;
        for (const auto& candidate :
             {base + "/" + path, dir_of(base) + "/lib/" + name, dir_of(base) + "/lib64/" + name}) {
            auto resolved = analysis.tree.resolve(candidate);
            if (resolved.status == image::Resolution::Status::ok && resolved.entry != nullptr)
                return root_of_dir(dir_of(resolved.path));
        }
    }
    return "";
}

std::string root_of_dist(const Analysis& analysis, const std::string& base, const std::string& dist,
                         const Mapping& mapping, const std::string& dist_info) {
    if (mapping.category != "framework") {
        auto record = analysis.texts.find(dist_info + "/RECORD");
        if (record != analysis.texts.end())
            if (auto root = root_from_record(analysis, base, record->second); !root.empty())
                return root;
    }
    std::string root = base + "/" + (mapping.dir.empty() ? dist : mapping.dir);
    // CUDA 13 wheels share one tree: site-packages/nvidia/cu13/lib.
    if (mapping.dir.rfind("nvidia/", 0) == 0 && analysis.tree.find(root) == nullptr &&
        analysis.tree.find(base + "/nvidia/cu13") != nullptr)
        return base + "/nvidia/cu13";
    // <prefix>/dist-info/<dist>.dist-info describes <prefix>.
    if (mapping.category != "framework" && base_of(base) == "dist-info" &&
        analysis.tree.find(root) == nullptr)
        return dir_of(base);
    return root;
}

void pip_facts(const Analysis& analysis, Facts& out) {
    static const std::regex dist_info(R"((.*)/([^/]+)-([^/-]+)\.dist-info)");
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
        std::string base = m[1].str(), version = m[3].str(), evidence_path = path;
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
        fact.root = root_of_dist(analysis, base, dist, *mapping, path);
        fact.source = "pip";
        fact.rank = rank_package;
        fact.evidence = {"dist-info", evidence_path, version, m[2].str()};
        if (mapping->category == "framework") {
            if (!mapping->cuda.empty()) fact.attributes["cuda"] = mapping->cuda;
            fact.attributes["package"] =
                header_field(metadata != analysis.texts.end() ? metadata->second : "", "Name");
            if (fact.attributes["package"].empty()) fact.attributes["package"] = m[2].str();
        }
        if (mapping->category == "framework" && metadata != analysis.texts.end()) {
            auto requirements = nvidia_requirements(metadata->second);
            if (auto cudnn = pinned_cudnn(requirements); !cudnn.empty())
                fact.attributes["cudnn"] = cudnn;
            for (const auto& r : requirements) {
                auto key = normalise_dist(r.name);
                std::replace(key.begin(), key.end(), '_', '-');
                fact.attributes["requires:" + key] = r.spec;
            }
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
                       compat ? root + "/compat" : root, ""};
    }
    if (std::regex_match(package, m, system)) {
        std::string lib = m[1].str();
        if (lib == "cublaslt") lib = "cublas";
        if (lib == "nvinfer") lib = "tensorrt";
        return Mapping{lib, "cuda-library", "/usr", ""};
    }
    if (package == "libc6") return Mapping{"glibc", "system", "/usr", ""};
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

// conda package names: CUDA's own here, the frameworks' from the catalog.
std::optional<Mapping> conda_mapping(const std::string& name) {
    static const std::map<std::string, Mapping> names = {
        {"cudnn", {"cudnn", "cuda-library", "", ""}},
        {"cuda-cudart", {"cudart", "cuda-library", "", ""}},
        {"libcublas", {"cublas", "cuda-library", "", ""}},
        {"libcufft", {"cufft", "cuda-library", "", ""}},
        {"libcurand", {"curand", "cuda-library", "", ""}},
        {"libcusolver", {"cusolver", "cuda-library", "", ""}},
        {"libcusparse", {"cusparse", "cuda-library", "", ""}},
        {"cuda-nvrtc", {"nvrtc", "cuda-library", "", ""}},
        {"libnvjitlink", {"nvjitlink", "cuda-library", "", ""}},
        {"nccl", {"nccl", "cuda-library", "", ""}},
        {"libnvinfer", {"tensorrt", "cuda-library", "", ""}},
        {"tensorrt", {"tensorrt", "cuda-library", "", ""}},
        {"cudatoolkit", {"cuda-toolkit", "toolkit", "", ""}},
        {"cuda-version", {"cuda-version", "toolkit", "", ""}},
    };
    auto it = names.find(name);
    if (it != names.end()) return it->second;
    if (auto found = rules::builtin_framework_catalog().conda(name)) return mapping_of(*found);
    return std::nullopt;
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

bool maps_pip_distribution(std::string_view dist) {
    return pip_mapping(normalise_dist(std::string(dist))).has_value();
}

bool maps_conda_package(std::string_view name) {
    return conda_mapping(std::string(name)).has_value();
}

void package_facts(const Analysis& analysis, Facts& out) {
    pip_facts(analysis, out);
    dpkg_facts(analysis, out);
    conda_facts(analysis, out);
}

}  // namespace cuvet::inventory::detail
