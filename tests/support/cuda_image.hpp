#pragma once
// Images of a CUDA stack built at test time for the validate checks and
// scenarios: real ELF libraries compiled with gcc (sonames, DT_NEEDED,
// RUNPATH, symbol versions, dlopen strings), the version files and package
// records real installs leave, written as a docker-save archive with an Env.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "cuvet/report/finding.hpp"
#include "cuvet/stack/stack.hpp"
#include "support/image_writer.hpp"
#include "support/rootfs_builder.hpp"
#include "support/temp_dir.hpp"

namespace cuvet::test {

inline const std::string site_packages = "/usr/local/lib/python3.10/site-packages";

class CudaImage {
public:
    CudaImage();
    Rootfs& fs() { return fs_; }
    std::vector<std::string> env;
    std::string architecture = "amd64";
    std::vector<std::string> entrypoint;
    std::vector<std::string> cmd;
    std::string working_dir;
    // Layers under the one fs() becomes (a Debian root file system made by mmdebstrap).
    std::vector<Layer> base_layers;

    // libc.so.6 of the build machine (so gcc's DT_NEEDED resolve) and a dpkg libc6 record.
    void glibc();
    // /usr/local/cuda-X.Y with libcudart.so.X.Y.Z, version.json, /usr/local/cuda link, ld.so.conf
    // entry.
    void cuda_toolkit(const std::string& version);
    // libcudnn.so.<version> + libcudnn_ops_infer.so.<sub_version or version> in `dir`
    // (soname links too); a dpkg record when `dpkg_version` is set ("8.6.0.163-1+cuda11.8").
    void cudnn(const std::string& dir, const std::string& version,
               const std::string& dpkg_version = "", const std::string& sub_version = "",
               const std::vector<std::string>& needs = {});
    // nvidia-cudnn-cuXX wheel in site-packages/nvidia/cudnn/lib with its dist-info.
    void cudnn_wheel(const std::string& version, int cuda_major);
    // site-packages/torch: lib/libtorch_cuda.so needing `needs` with RUNPATH into nvidia/*/lib,
    // version.py, dist-info.
    void torch(const std::string& version, const std::string& cuda,
               const std::vector<std::string>& needs);
    // site-packages/tensorflow: libtensorflow_framework.so.2 that dlopens `dlopen_names`,
    // build_info.py, dist-info.
    void tensorflow(const std::string& version, const std::string& cuda, const std::string& cudnn,
                    const std::vector<std::string>& dlopen_names,
                    const std::vector<std::string>& needs = {});
    void dpkg(const std::string& package, const std::string& version);

    // fs() as the one layer write() puts over base_layers (images that share it as their base).
    Layer layer();
    // Writes the docker-save archive (one layer) and returns its path.
    std::filesystem::path write();

private:
    TempDir out_;
    Rootfs fs_;
    std::string dpkg_status_;
    int counter_ = 0;
};

// In-process `cuvet validate` with the built-in rules and default config.
std::vector<report::Finding> validate_findings(const std::filesystem::path& image,
                                               const stack::Targets& targets = {});
std::multiset<std::string> ids_of(const std::vector<report::Finding>& findings);
// All messages, for failure output.
std::string describe_findings(const std::vector<report::Finding>& findings);

}  // namespace cuvet::test
