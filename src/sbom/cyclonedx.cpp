// Inventory → CycloneDX 1.6 JSON (docs/inventory-schema.md, "CycloneDX").
#include "cuvet/sbom/cyclonedx.hpp"

#include <cctype>

#include "cuvet/stack/stack_facts.hpp"

namespace cuvet::sbom {

namespace {

using nlohmann::json;

// purl-spec: anything but unreserved characters is percent-encoded.
std::string encode(std::string_view text) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '.' || c == '-' || c == '_' || c == '~')
            out += c;
        else
            out += std::string("%") + hex[u >> 4] + hex[u & 15];
    }
    return out;
}

std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// The evidence detail a package manager gave: "libcudnn8 8.6.0.163-1" → "libcudnn8".
std::string package_of(const inventory::Component& c, std::string_view kind) {
    for (const auto& e : c.evidence)
        if (e.kind == kind && !e.detail.empty()) return e.detail.substr(0, e.detail.find(' '));
    return "";
}

// A pip distribution name normalised as PEP 503 and the purl spec ask.
std::string pypi_name(std::string name) {
    name = lower(std::move(name));
    for (char& c : name)
        if (c == '_' || c == '.') c = '-';
    return name;
}

void property(json& props, std::string name, std::string value) {
    if (!value.empty()) props.push_back({{"name", std::move(name)}, {"value", std::move(value)}});
}

std::string arch_list(const std::vector<int>& archs, const char* prefix) {
    std::set<int> sorted(archs.begin(), archs.end());
    std::string out;
    for (int a : sorted) out += (out.empty() ? "" : ",") + std::string(prefix) + std::to_string(a);
    return out;
}

json hashes(const std::string& hex) {
    return json::array({{{"alg", "SHA-256"}, {"content", hex}}});
}

json file_component(const BomInput& in, const std::string& ref, const std::string& path) {
    json file = {{"type", "file"}, {"bom-ref", ref + ":" + path}, {"name", path}};
    if (auto it = in.sha256.find(path); it != in.sha256.end()) file["hashes"] = hashes(it->second);
    json props = json::array();
    if (auto it = in.analysis->elfs.find(path); it != in.analysis->elfs.end()) {
        property(props, "cuvet:soname", it->second.soname);
        property(props, "cuvet:sass", arch_list(it->second.sass_archs, "sm_"));
        property(props, "cuvet:ptx", arch_list(it->second.ptx_archs, "compute_"));
    }
    if (!props.empty()) file["properties"] = std::move(props);
    return file;
}

std::string technique(std::string_view kind) {
    if (kind == "file-name") return "filename";
    if (kind == "dist-info" || kind == "dpkg" || kind == "conda-meta") return "manifest-analysis";
    if (kind == "elf-verdef" || kind == "elf-soname") return "binary-analysis";
    return "source-code-analysis";  // headers, version.json, version.py: text the install carries
}

json evidence(const inventory::Component& c) {
    json methods = json::array();
    for (const auto& e : c.evidence)
        methods.push_back(
            {{"technique", technique(e.kind)},
             {"confidence", e.version == c.version ? 1.0 : 0.5},
             {"value", e.kind + " " + e.path + (e.version.empty() ? "" : " " + e.version)}});
    json out = json::object();
    if (!methods.empty())
        out["identity"] = json::array({{{"field", "version"},
                                        {"confidence", c.versions_agree ? 1.0 : 0.5},
                                        {"methods", methods}}});
    json occurrences = json::array();
    for (const auto& f : c.files) occurrences.push_back({{"location", f}});
    if (!occurrences.empty()) out["occurrences"] = std::move(occurrences);
    return out;
}

// What the driver floor is, for the metadata and the CUDA runtime components.
struct Runtime {
    std::string cuda, floor, full;
};

Runtime runtime_of(const BomInput& in) {
    Runtime out;
    if (in.stack == nullptr || in.db == nullptr) return out;
    if (auto cuda = stack::runtime_cuda_of(*in.stack))
        out.cuda = cuda->major_only ? std::to_string(cuda->version.major()) : cuda->version.str();
    if (auto floor = stack::driver_floor(*in.stack, *in.db)) {
        out.floor = floor->lowest.str();
        if (floor->full) out.full = floor->full->str();
    }
    return out;
}

json component(const BomInput& in, const inventory::Component& c, const Runtime& runtime,
               std::size_t index) {
    const std::string ref = "component-" + std::to_string(index) + ":" + c.name;
    json out = {{"type", c.category == "framework" ? "framework"
                         : c.category == "driver"  ? "device-driver"
                                                   : "library"},
                {"bom-ref", ref},
                {"name", c.name}};
    if (!c.version.empty()) out["version"] = c.version;
    out["purl"] = purl(c, in.analysis->inventory.distro);
    if (c.files.size() == 1)
        if (auto it = in.sha256.find(c.files.front()); it != in.sha256.end())
            out["hashes"] = hashes(it->second);
    json props = json::array();
    property(props, "cuvet:category", c.category);
    property(props, "cuvet:source", c.source);
    property(props, "cuvet:location", c.location);
    std::set<std::string> sonames;
    std::vector<int> sass, ptx;
    for (const auto& f : c.files)
        if (auto it = in.analysis->elfs.find(f); it != in.analysis->elfs.end()) {
            if (!it->second.soname.empty()) sonames.insert(it->second.soname);
            sass.insert(sass.end(), it->second.sass_archs.begin(), it->second.sass_archs.end());
            ptx.insert(ptx.end(), it->second.ptx_archs.begin(), it->second.ptx_archs.end());
        }
    std::string names;
    for (const auto& s : sonames) names += (names.empty() ? "" : ",") + s;
    property(props, "cuvet:sonames", names);
    property(props, "cuvet:sass", arch_list(sass, "sm_"));
    property(props, "cuvet:ptx", arch_list(ptx, "compute_"));
    if ((c.name == "cudart" || c.name == "cuda-toolkit") && !runtime.floor.empty() &&
        c.version == runtime.cuda) {
        property(props, "cuvet:driver-floor", runtime.floor);
        property(props, "cuvet:driver-floor-full", runtime.full);
    }
    for (const auto& [key, value] : c.attributes) property(props, "cuvet:attribute:" + key, value);
    if (!c.versions_agree) property(props, "cuvet:versions-agree", "false");
    if (!props.empty()) out["properties"] = std::move(props);
    json files = json::array();
    for (const auto& f : c.files) files.push_back(file_component(in, ref, f));
    if (!files.empty()) out["components"] = std::move(files);
    json ev = evidence(c);
    if (!ev.empty()) out["evidence"] = std::move(ev);
    return out;
}

}  // namespace

std::string purl(const inventory::Component& c, const inventory::Distro& distro) {
    const std::string version = c.version.empty() ? "" : "@" + encode(c.version);
    if (c.source == "pip") {
        std::string name =
            c.attributes.count("package") ? c.attributes.at("package") : package_of(c, "dist-info");
        if (name.empty()) name = c.name;
        return "pkg:pypi/" + encode(pypi_name(name)) + version;
    }
    if (c.source == "dpkg") {
        std::string name = package_of(c, "dpkg");
        if (name.empty()) name = c.name;
        const std::string ns = distro.id.empty() ? "debian" : lower(distro.id);
        std::string dpkg_version;
        for (const auto& e : c.evidence)
            if (e.kind == "dpkg" && e.detail.find(' ') != std::string::npos)
                dpkg_version = e.detail.substr(e.detail.find(' ') + 1);
        const std::string v = dpkg_version.empty() ? version : "@" + encode(dpkg_version);
        return "pkg:deb/" + encode(ns) + "/" + encode(name) + v +
               (distro.version_id.empty() ? "" : "?distro=" + encode(ns + "-" + distro.version_id));
    }
    if (c.source == "conda") {
        std::string name = package_of(c, "conda-meta");
        return "pkg:conda/" + encode(name.empty() ? c.name : name) + version;
    }
    return "pkg:generic/" + encode(c.name) + version;
}

std::set<std::string> component_files(const inventory::Inventory& inventory) {
    std::set<std::string> out;
    for (const auto& c : inventory.components) out.insert(c.files.begin(), c.files.end());
    return out;
}

json cyclonedx(const BomInput& in) {
    const Runtime runtime = runtime_of(in);
    const auto& info = in.analysis->info;
    json image = {{"type", "container"}, {"bom-ref", "image"}, {"name", in.image_name}};
    if (info.config_digest.size() > 7 && info.config_digest.substr(0, 7) == "sha256:")
        image["hashes"] = hashes(info.config_digest.substr(7));
    json meta_props = json::array();
    property(meta_props, "cuvet:platform", info.config.platform.str());
    property(meta_props, "cuvet:cuda-runtime", runtime.cuda);
    property(meta_props, "cuvet:driver-floor", runtime.floor);
    property(meta_props, "cuvet:driver-floor-full", runtime.full);
    const auto& d = in.analysis->inventory.distro;
    property(meta_props, "cuvet:distro", d.id.empty() ? "" : d.id + " " + d.version_id);
    json metadata = {
        {"tools",
         {{"components",
           json::array(
               {{{"type", "application"}, {"name", "cuvet"}, {"version", CUVET_VERSION}}})}}},
        {"component", image}};
    if (!meta_props.empty()) metadata["properties"] = std::move(meta_props);
    json components = json::array();
    std::size_t index = 0;
    for (const auto& c : in.analysis->inventory.components)
        components.push_back(component(in, c, runtime, ++index));
    return {{"bomFormat", "CycloneDX"},
            {"specVersion", "1.6"},
            {"version", 1},
            {"metadata", std::move(metadata)},
            {"components", std::move(components)}};
}

}  // namespace cuvet::sbom
