#pragma once
// Image sources that live behind a local service rather than in a file:
// the Docker Engine API (and podman's copy of it), and containers-storage
// through skopeo.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuvet/image/image.hpp"

namespace cuvet::image {

// The Docker daemon the user chose: $DOCKER_HOST, else the endpoint of the
// current Docker context ($DOCKER_CONTEXT or currentContext in config.json),
// else nothing (the default socket). `source` says which, for messages.
struct DaemonHost {
    std::string host;    // "unix:///run/docker.sock", "tcp://dind:2375", "" for the default
    std::string source;  // "DOCKER_HOST=tcp://dind:2375", "docker context 'colima' (unix://…)"
};
DaemonHost docker_daemon_host();
// "/run/docker.sock" for unix:///run/docker.sock, "" for any other scheme.
std::string unix_socket_of(const std::string& host);
// Why a daemon host cannot be read ("… TCP is not supported …"), "" when it can.
std::string unsupported_host_reason(const DaemonHost& host);

// The Engine API sockets that exist here, in the order they are asked: the
// docker_daemon_host() (unix://) or /var/run/docker.sock, then $CONTAINER_HOST,
// $XDG_RUNTIME_DIR/podman/podman.sock and /run/podman/podman.sock.
std::vector<std::string> daemon_sockets();

// The image `name` from the first daemon that has it, or null; `tried` gets a
// line per socket that did not. When the Docker host is tcp:// or ssh:// and
// no other socket has the image, an input error says that scheme is not supported.
std::unique_ptr<Image> open_daemon_image(const std::string& name, const OpenOptions& options,
                                         std::vector<std::string>* tried);

// containers-storage:NAME, exported by `skopeo copy … docker-archive:` into
// the same streaming reader.
std::unique_ptr<Image> open_containers_storage(const std::string& name, const OpenOptions& options);

// What a failed skopeo printed, as one line: the error lines and those naming
// a rootless cause (newuidmap, subuid ranges), then the last, with a hint
// when the cause is rootless setup.
std::string skopeo_failure_summary(const std::string& stderr_text);

}  // namespace cuvet::image
