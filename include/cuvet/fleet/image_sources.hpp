#pragma once
// Where `cuvet fleet scan` finds the images of a fleet (docs/fleet.md, "Which images"):
// a list file, a registry's catalog, or a cluster's workloads saved with kubectl. Each gives
// image references in a stable order, each reference once.
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/image/image.hpp"

namespace cuvet::fleet {

// One reference a line; blank lines and '#' comments (whole lines or after a reference) are
// skipped; a reference named twice is kept once, where it first appears. `name` is the file,
// for messages. Throws cuvet::Error(input) naming the line on a line with two words.
std::vector<std::string> parse_image_list(std::string_view text, const std::string& name);
// Reads `path` and parses it; an unreadable file is Error(io) naming it.
std::vector<std::string> read_image_list(const std::string& path);

// The images of every container and init container in a Kubernetes document: `kubectl get
// pods -A -o json`, and as well the controllers that own pods (Deployments, Jobs, CronJobs…),
// since a pod template has the same shape. Each becomes "docker://<image>", once, in the
// order found. Throws Error(input) naming `name` on JSON that is not a Kubernetes object or
// list, or a container whose image is not a string.
std::vector<std::string> pod_images(std::string_view json_text, const std::string& name);
std::vector<std::string> read_pod_images(const std::string& path);

// Every tag of every repository of a registry's catalog (GET /v2/_catalog, then
// /v2/<repository>/tags/list, both paged) whose repository starts with `prefix`, as
// "docker://HOST/REPOSITORY:TAG", sorted. `registry` is "HOST[:PORT]".
std::vector<std::string> catalog_images(const std::string& registry, const std::string& prefix,
                                        const image::Access& access);

}  // namespace cuvet::fleet
