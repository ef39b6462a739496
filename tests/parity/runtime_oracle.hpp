#pragma once
// podman as the runtime oracle: a private overlay store (Go's archive/tar and encoding/json,
// each layer extracted into its own directory and merged by the kernel's overlayfs, as docker's
// overlay2 and containerd do), runc, no default ulimits. What it loads, mounts and inspects is
// what a container of that image starts from.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "image/rootfs_oracle.hpp"
#include "support/cuvet_files.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace cuvet::test::parity {

// What the runtime makes of an image: its merged tree and the run config it starts.
struct RuntimeView {
    std::map<std::string, ListedFile> files;
    nlohmann::json run_config;  // Entrypoint, Cmd, Env, User, WorkingDir
};

class PodmanStore {
public:
    explicit PodmanStore(const std::filesystem::path& dir) : dir_(dir) {
        std::filesystem::create_directories(dir_);
        write_file(dir_ / "containers.conf",
                   "[containers]\ndefault_ulimits = []\n[engine]\nruntime = \"runc\"\n");
    }
    ~PodmanStore() {
        podman("image umount --all --force");
        podman("rmi --all --force");
    }
    PodmanStore(const PodmanStore&) = delete;
    PodmanStore& operator=(const PodmanStore&) = delete;

    ProcessResult podman(const std::string& args) const {
        return run_shell("env -u LD_LIBRARY_PATH CONTAINERS_CONF=" +
                         shell_quote((dir_ / "containers.conf").string()) + " podman --root " +
                         shell_quote((dir_ / "root").string()) + " --runroot " +
                         shell_quote((dir_ / "run").string()) + " --storage-driver overlay " +
                         args);
    }

    // The image id podman loaded, or nothing with podman's last error line in `why`.
    std::optional<std::string> load(const std::filesystem::path& archive, std::string& why) const {
        auto result = podman("load -q -i " + shell_quote(archive.string()));
        if (result.exit_code != 0) {
            // podman tries each transport and lists why each failed; ours is docker-archive.
            why = "exit " + std::to_string(result.exit_code);
            for (const auto& line : lines_of(result.err))
                if (line.find("docker-archive") != std::string::npos || why.rfind("exit", 0) == 0)
                    why = line;
            return std::nullopt;
        }
        // "Loaded image: <ref>" or "Loaded image(s): <ref>,<ref>"
        auto lines = lines_of(result.out);
        std::string ref = lines.empty() ? "" : lines.back();
        if (auto colon = ref.find(": "); colon != std::string::npos) ref = ref.substr(colon + 2);
        if (auto comma = ref.find(','); comma != std::string::npos) ref = ref.substr(0, comma);
        if (ref.empty()) {
            why = "podman load printed no image: " + result.out;
            return std::nullopt;
        }
        return ref;
    }

    // The merged tree and run config of a loaded image; nothing when podman cannot mount it.
    std::optional<RuntimeView> view(const std::string& ref, std::string& why) const {
        RuntimeView view;
        auto inspect = podman("image inspect --format '{{json .}}' " + shell_quote(ref));
        if (inspect.exit_code != 0) {
            why = "podman image inspect: " + inspect.err;
            return std::nullopt;
        }
        auto image = nlohmann::json::parse(inspect.out);
        if (image.is_array() && !image.empty()) image = image[0];
        view.run_config = image.value("Config", nlohmann::json::object());
        // An image of no layers has an empty tree, and nothing podman can mount.
        const auto root_fs = image.value("RootFS", nlohmann::json::object());
        if (root_fs.value("Layers", nlohmann::json::array()).empty()) return view;
        auto mount = podman("image mount " + shell_quote(ref));
        auto mount_lines = lines_of(mount.out);
        if (mount.exit_code != 0 || mount_lines.empty()) {
            why = "podman image mount: " + mount.err;
            return std::nullopt;
        }
        view.files = walk_rootfs(mount_lines.back());
        // A whiteout in a directory no lower layer merges with is listed by readdir, but no
        // lookup finds it (lstat fails: mode "?"): nothing is there.
        std::erase_if(view.files, [](const auto& item) { return item.second.mode == "?"; });
        return view;
    }

    void remove(const std::string& ref) const {
        podman("image umount --force " + shell_quote(ref));
        podman("rmi --force " + shell_quote(ref));
    }

private:
    std::filesystem::path dir_;
};

}  // namespace cuvet::test::parity
