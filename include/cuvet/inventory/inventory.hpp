#pragma once
// Who is in the image and at what version: every copy of every CUDA-stack
// component, each with the evidence it was read from. The JSON form
// (docs/inventory-schema.md) is a stable contract: users freeze a known-good
// stack with it.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cuvet::inventory {

inline constexpr int schema_version = 1;

// One place a version was read from.
struct Evidence {
    std::string kind;     // see docs/inventory-schema.md: "file-name", "dist-info", "dpkg", …
    std::string path;     // the file in the image
    std::string version;  // what this piece of evidence says
    std::string detail;   // the package name, the matched line, …
};

// One copy of one component.
struct Component {
    std::string name;      // "cudnn", "cudart", "cublas", "nccl", "torch", "glibc", …
    std::string category;  // "cuda-library", "driver", "framework", "toolkit", "system"
    std::string version;   // the most authoritative evidence's version
    std::string source;    // "pip", "conda", "dpkg", "toolkit", "files"
    std::string location;  // the copy's root: a site-packages package dir, a prefix, a dir
    std::vector<std::string> files;  // its libraries (regular files)
    std::vector<Evidence> evidence;
    std::map<std::string, std::string> attributes;  // torch: "cuda" = "12.4", …
    bool versions_agree = true;                     // false when two pieces of evidence disagree
};

struct Distro {
    std::string id, version_id, pretty_name, source;
};

struct Inventory {
    Distro distro;
    std::vector<Component> components;       // sorted by name, then location
    std::map<std::string, std::string> env;  // LD_LIBRARY_PATH, NVIDIA_*, CUDA_*, NV_*…

    std::vector<const Component*> find(std::string_view name) const;
};

nlohmann::json to_json(const Inventory& inventory);

}  // namespace cuvet::inventory
