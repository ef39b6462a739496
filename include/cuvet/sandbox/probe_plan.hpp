#pragma once
// Deciding how to start the probe in an image, and what the static view of
// the image leads us to expect from it.
//
// When the image has a framework that links cuDNN (PyTorch's libtorch_cuda.so),
// the probe preloads that library first: the dynamic loader then resolves
// libcudnn.so.N exactly as it would for the framework (its RPATH/RUNPATH, the
// image's LD_LIBRARY_PATH), and the probe uses that copy. That is the truth
// the static loader emulation can only predict.
#include <optional>
#include <string>
#include <vector>

#include "cuvet/image/file_tree.hpp"
#include "cuvet/image/image.hpp"

namespace cuvet::sandbox {

struct Expectations {
    std::optional<std::string> cudnn_version;  // "9.19.0"
    std::string cudnn_source;                  // the image path that says so
};

struct ProbePlan {
    std::vector<std::string> args;  // for cuvet-probe
    std::string framework_library;  // image path preloaded ("" when none)
    Expectations expect;
};

ProbePlan plan_probe(const image::FileTree& tree);

// The probe's environment: the image's Env, then `overrides` (KEY=VALUE,
// replacing a key of the same name), with a default PATH when none is set.
std::vector<std::string> probe_environment(const std::vector<std::string>& image_env,
                                           const std::vector<std::string>& overrides);

// "9.19.0" from "nvidia_cudnn_cu13-9.19.0.56.dist-info" or "libcudnn.so.9.19.0"; nullopt otherwise.
std::optional<std::string> cudnn_version_from_name(const std::string& file_name);

}  // namespace cuvet::sandbox
