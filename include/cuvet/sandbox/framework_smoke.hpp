#pragma once
// Framework smoke probes: the image's own Python runs one small fixed script
// per framework (src/frameworks/smoke/, compiled in) inside the sandbox: import,
// version, tensor on the GPU, one convolution (a kernel for CuPy, a one-node
// Conv model for ONNX Runtime) compared with a CPU answer, and the CUDA
// libraries really mapped into the process (/proc/self/maps). The last stdout
// line is "CUVET_SMOKE {json}"; stderr keeps the framework's own messages.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/image/file_tree.hpp"
#include "cuvet/sandbox/process.hpp"

namespace cuvet::sandbox {

struct SmokeTarget {
    std::string framework;    // torch, jax, cupy, onnxruntime
    std::string package_dir;  // image path of the package: …/site-packages/torch
    std::string interpreter;  // image path of the python that imports it
};

struct SmokeResult {
    SmokeTarget target;
    ProcessResult process;
    bool parsed = false;  // the script printed its result line
    // ok, cpu_fallback, cpu_only_build, wrong_result, error; "" when nothing was parsed
    std::string verdict;
    std::string stage;  // import, device, cudnn, conv, kernel, session, done
    std::string error;  // the exception, in the framework's words
    std::string version;
    std::string backend;  // jax: gpu or cpu
    bool gpu_available = false;
    std::optional<long long>
        cudnn_version;  // torch.backends.cudnn.version(), XLA's "Loaded cuDNN version"
    std::vector<std::string> loaded;  // CUDA libraries mapped into the process
    std::vector<std::string>
        framework_messages;  // stderr lines carrying a known framework error text
    double max_abs_error = -1;
};

// The frameworks a smoke script exists for, in probe order.
const std::vector<std::string>& smoke_frameworks();

// The script for one framework: the shared prelude + its body; "" when unknown.
std::string smoke_script(std::string_view framework);

// Every framework installed in the image (a package under a site-/dist-packages
// or a PYTHONPATH directory), each with the interpreter that owns it.
std::vector<SmokeTarget> find_smoke_targets(const image::FileTree& tree,
                                            const std::vector<std::string>& image_env);

// "auto" (every framework found), "none", or a comma list of smoke_frameworks();
// "pytorch" means torch. Throws cuvet::Error(usage) on an unknown name.
std::vector<std::string> parse_framework_list(std::string_view text);

// Keeps the targets `wanted` names ({"auto"}: all).
std::vector<SmokeTarget> select_targets(const std::vector<SmokeTarget>& found,
                                        const std::vector<std::string>& wanted);

SmokeResult parse_smoke_result(const SmokeTarget& target, const ProcessResult& process);

// The stderr lines that carry a framework's own error text (cuDNN version
// checks, XLA's libdevice/ptxas search, JAX's plugin errors, CuPy's library
// search, ONNX Runtime's provider errors), deduplicated, in order.
std::vector<std::string> framework_error_lines(std::string_view stderr_text);

}  // namespace cuvet::sandbox
