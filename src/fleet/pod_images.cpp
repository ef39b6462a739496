// A fleet's images as a cluster runs them: the containers of `kubectl get pods -A -o json`
// (and of any controller's pod template, which has the same shape).
#include <nlohmann/json.hpp>
#include <set>

#include "cuvet/core/error.hpp"
#include "cuvet/fleet/image_sources.hpp"
#include "text_file.hpp"

namespace cuvet::fleet {
namespace {

using nlohmann::json;

struct Collector {
    const std::string& name;
    std::vector<std::string> images;
    std::set<std::string> seen;

    void add_containers(const json& list, const std::string& where) {
        if (!list.is_array()) return;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const json& container = list[i];
            if (!container.is_object() || !container.contains("image")) continue;
            const json& image = container["image"];
            if (!image.is_string() || image.get<std::string>().empty())
                fail_input(name + ": " + where + "[" + std::to_string(i) +
                           "].image is not an image reference");
            // A pod's image is pulled from a registry, never read from a file.
            std::string reference = "docker://" + image.get<std::string>();
            if (seen.insert(reference).second) images.push_back(std::move(reference));
        }
    }

    // Pod specs sit at different depths (pod.spec, deployment.spec.template.spec,
    // cronjob.spec.jobTemplate.spec.template.spec): every object is searched.
    void walk(const json& node, const std::string& where) {
        if (node.is_object()) {
            for (const char* key : {"initContainers", "containers"})
                if (auto it = node.find(key); it != node.end())
                    add_containers(*it, where + "." + key);
            for (const auto& [key, child] : node.items())
                if (child.is_structured()) walk(child, where + "." + key);
        } else if (node.is_array()) {
            for (std::size_t i = 0; i < node.size(); ++i)
                if (node[i].is_structured()) walk(node[i], where + "[" + std::to_string(i) + "]");
        }
    }
};

}  // namespace

std::vector<std::string> pod_images(std::string_view json_text, const std::string& name) {
    const json document = json::parse(json_text, nullptr, false);
    if (document.is_discarded()) fail_input(name + ": not valid JSON");
    if (!document.is_object() || (!document.contains("items") && !document.contains("spec")))
        fail_input(name +
                   ": not a Kubernetes object or list (expected `kubectl get pods -A -o json`)");
    Collector collector{name, {}, {}};
    collector.walk(document, "");
    return collector.images;
}

std::vector<std::string> read_pod_images(const std::string& path) {
    return pod_images(read_text_file(path, "the workloads file"), path);
}

}  // namespace cuvet::fleet
