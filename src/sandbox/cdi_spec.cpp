#include "cuvet/sandbox/cdi_spec.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "cuvet/core/error.hpp"

namespace cuvet::sandbox {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> strings(const YAML::Node& node) {
    std::vector<std::string> out;
    if (!node || !node.IsSequence()) return out;
    for (const YAML::Node& item : node) {
        if (item.IsScalar()) out.push_back(item.as<std::string>());
    }
    return out;
}

std::string scalar(const YAML::Node& node, const char* key) {
    const YAML::Node value = node[key];
    return value && value.IsScalar() ? value.as<std::string>() : std::string();
}

// nvidia-cdi-hook (or the older `nvidia-ctk hook`) create-symlinks --link TARGET::LINK …,
// update-ldcache --folder DIR …: what those two hooks do is rebuilt here; others are named.
void read_hook(const YAML::Node& hook, CdiEdits& edits) {
    const std::vector<std::string> args = strings(hook["args"]);
    const auto verb = std::find_if(args.begin(), args.end(), [](const std::string& arg) {
        return arg == "create-symlinks" || arg == "update-ldcache";
    });
    if (verb == args.end()) {
        edits.ignored_hooks.push_back(args.empty()
                                          ? scalar(hook, "path")
                                          : args.front() + (args.size() > 1 ? " " + args[1] : ""));
        return;
    }
    for (auto it = verb + 1; it != args.end(); ++it) {
        std::string value;
        const std::string flag = *verb == "create-symlinks" ? "--link" : "--folder";
        if (*it == flag && it + 1 != args.end()) {
            value = *++it;
        } else if (it->rfind(flag + "=", 0) == 0) {
            value = it->substr(flag.size() + 1);
        } else {
            continue;
        }
        if (*verb == "update-ldcache") {
            edits.ldcache_folders.push_back(value);
        } else if (const std::size_t at = value.find("::"); at != std::string::npos) {
            edits.symlinks.push_back({value.substr(0, at), value.substr(at + 2)});
        }
    }
}

void read_edits(const YAML::Node& node, CdiEdits& edits) {
    if (!node || !node.IsMap()) return;
    for (const std::string& env : strings(node["env"])) edits.env.push_back(env);
    if (const YAML::Node nodes = node["deviceNodes"]; nodes && nodes.IsSequence()) {
        for (const YAML::Node& device : nodes)
            edits.device_nodes.push_back({scalar(device, "path"), scalar(device, "hostPath")});
    }
    if (const YAML::Node mounts = node["mounts"]; mounts && mounts.IsSequence()) {
        for (const YAML::Node& mount : mounts)
            edits.mounts.push_back({scalar(mount, "hostPath"), scalar(mount, "containerPath")});
    }
    if (const YAML::Node hooks = node["hooks"]; hooks && hooks.IsSequence()) {
        for (const YAML::Node& hook : hooks) read_hook(hook, edits);
    }
}

}  // namespace

std::optional<CdiEdits> parse_cdi_spec(const std::string& text, const std::string& name) {
    YAML::Node spec;
    try {
        spec = YAML::Load(text);
    } catch (const YAML::Exception& error) {
        fail_input(name + ": not a CDI spec: " + error.what());
    }
    if (!spec.IsMap() || !spec["kind"]) fail_input(name + ": not a CDI spec (no kind)");
    if (scalar(spec, "kind") != "nvidia.com/gpu") return std::nullopt;
    CdiEdits edits;
    edits.spec_file = name;
    read_edits(spec["containerEdits"], edits);
    if (const YAML::Node devices = spec["devices"]; devices && devices.IsSequence()) {
        for (const YAML::Node& device : devices) read_edits(device["containerEdits"], edits);
    }
    // Each device repeats the shared nodes in some specs: one bind each.
    std::vector<CdiDeviceNode> unique;
    for (const CdiDeviceNode& node : edits.device_nodes) {
        if (std::none_of(unique.begin(), unique.end(),
                         [&](const CdiDeviceNode& seen) { return seen.path == node.path; }))
            unique.push_back(node);
    }
    edits.device_nodes = std::move(unique);
    return edits;
}

std::optional<CdiEdits> find_gpu_cdi_spec(const std::vector<fs::path>& dirs) {
    for (const fs::path& dir : dirs) {
        std::vector<fs::path> files;
        std::error_code error;
        for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
            const std::string ext = it->path().extension().string();
            if (ext == ".yaml" || ext == ".yml" || ext == ".json") files.push_back(it->path());
        }
        std::sort(files.begin(), files.end());
        for (const fs::path& file : files) {
            std::ifstream in(file);
            std::stringstream text;
            text << in.rdbuf();
            if (auto edits = parse_cdi_spec(text.str(), file.string())) return edits;
        }
    }
    return std::nullopt;
}

HostDriver driver_from_cdi(const CdiEdits& edits) {
    HostDriver driver;
    driver.cdi_spec = edits.spec_file;
    driver.searched.push_back("CDI spec " + edits.spec_file);
    for (const CdiDeviceNode& node : edits.device_nodes)
        driver.device_nodes.emplace_back(node.host_path.empty() ? node.path : node.host_path);
    for (const CdiMount& mount : edits.mounts) {
        if (!mount.host_path.empty() && !mount.container_path.empty())
            driver.files.push_back({mount.host_path, mount.container_path});
    }
    for (const CdiSymlink& link : edits.symlinks) driver.links.push_back({link.target, link.link});
    driver.ldcache_folders = edits.ldcache_folders;
    driver.environment = edits.env;
    return driver;
}

}  // namespace cuvet::sandbox
