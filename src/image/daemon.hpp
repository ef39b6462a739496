#pragma once
// Image sources that live behind a local service rather than in a file:
// the Docker Engine API (and podman's copy of it), and containers-storage
// through skopeo.
#include <memory>
#include <string>
#include <vector>

#include "cuvet/image/image.hpp"

namespace cuvet::image {

// The Engine API sockets that exist here, in the order they are asked:
// $DOCKER_HOST (unix://) or /var/run/docker.sock, then $CONTAINER_HOST,
// $XDG_RUNTIME_DIR/podman/podman.sock and /run/podman/podman.sock.
std::vector<std::string> daemon_sockets();

// The image `name` from the first daemon that has it, or null; `tried` gets a
// line per socket that did not.
std::unique_ptr<Image> open_daemon_image(const std::string& name, const OpenOptions& options,
                                         std::vector<std::string>* tried);

// containers-storage:NAME, exported by `skopeo copy … docker-archive:` into
// the same streaming reader.
std::unique_ptr<Image> open_containers_storage(const std::string& name, const OpenOptions& options);

}  // namespace cuvet::image
