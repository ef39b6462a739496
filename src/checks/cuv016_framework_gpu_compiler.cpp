// CUV016 framework-gpu-compiler
#include "check_util.hpp"
#include "checks.hpp"
#include "triton_ptxas_targets.hpp"

namespace cuvet::checks {

namespace cuv016 {

std::string dir_name(const std::string& path) { return path.substr(0, path.rfind('/')); }

bool starts(const FrameworkInstall& fw) {
    for (const auto& load : fw.loads)
        if (!load.resolution.provided_by_host &&
            (load.resolution.path.empty() || load.resolution.error || !load.missing.empty()))
            return false;  // CUV015: it runs on the CPU and never compiles for the GPU
    return true;
}

void add_searched(report::Finding& f, const FrameworkTool& t) {
    for (const auto& c : t.searched) f.evidence.push_back("  looked for " + t.name + " at " + c);
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    for (const auto& fw : stack.frameworks) {
        util::ImportedBy imported_by{out, fw};
        if (fw.name == "cupy") {
            const auto* headers = util::framework_tool(fw, "CUDA headers");
            if (headers == nullptr || !headers->path.empty()) continue;
            report::Finding f;
            // CuPy 14's own words (testdata/gpu/env/framework_variants.log, the runtime wheel
            // removed).
            f.message = "cupy " + fw.version.str() + " (" + fw.gpu_package +
                        ") finds no CUDA headers, so no kernel compiles: \"RuntimeError: Failed to "
                        "find CUDA headers. "
                        "Please install CUDA toolkit headers (e.g., pip install cupy-cuda12x[ctk]) "
                        "or specify CUDA_PATH "
                        "environment variable.\"";
            f.locations = {{fw.root}};
            add_searched(f, *headers);
            std::string major = fw.built_cuda ? std::to_string(fw.built_cuda->major()) : "";
            f.fix = "pip install nvidia-cuda-runtime" +
                    std::string(major == "13" ? "" : "-cu" + major) + " (or '" +
                    fw.gpu_package.substr(0, fw.gpu_package.find(' ')) +
                    "[ctk]'), or set CUDA_PATH to a CUDA " + major + " toolkit.";
            out.push_back(std::move(f));
            continue;
        }
        if (fw.name == "pytorch") {
            // torch.compile and @triton.jit only: a warning, most PyTorch images never compile.
            for (const char* name : {"C compiler for Triton", "ptxas for Triton"}) {
                const auto* t = util::framework_tool(fw, name);
                if (t == nullptr || !t->path.empty()) continue;
                report::Finding f;
                f.id = "CUV016";
                f.severity = report::Severity::warning;
                bool cc = t->name == "C compiler for Triton";
                f.message =
                    "torch " + fw.version.str() +
                    ": Triton (torch.compile, @triton.jit) finds no " +
                    (cc ? std::string("C compiler, so its first kernel fails: \"RuntimeError: "
                                      "Failed to find C "
                                      "compiler. Please specify via CC environment variable or set "
                                      "triton.knobs.build.impl.\"")
                        : std::string("ptxas, so no kernel assembles"));
                f.locations = {{dir_name(fw.root) + "/triton"}};
                add_searched(f, *t);
                f.fix = cc ? "Install gcc (apt-get install gcc, with python3-dev for Python.h) if "
                             "the workload "
                             "uses torch.compile or Triton kernels, or set CC."
                           : "Reinstall triton (its wheel ships backends/nvidia/bin/ptxas) or set "
                             "TRITON_PTXAS_PATH.";
                out.push_back(std::move(f));
            }
            for (auto& f : triton_ptxas_targets(stack, db, fw)) out.push_back(std::move(f));
            continue;
        }
        if (fw.name != "jax" || !starts(fw)) continue;
        const auto* ptxas = util::framework_tool(fw, "ptxas");
        const auto* libdevice = util::framework_tool(fw, "libdevice");
        std::string major = fw.built_cuda ? std::to_string(fw.built_cuda->major()) : "";
        std::string where = fw.gpu_roots.empty() ? fw.root : fw.gpu_roots.back();
        if (ptxas && ptxas->path.empty()) {
            report::Finding f;
            // The user-visible failure on JAX 0.11.2 (H100,
            // testdata/gpu/env/framework_variants.log); XLA's autotuner cannot compile a single
            // candidate without ptxas.
            f.message =
                "jax " + fw.version.str() + " (" + fw.gpu_package +
                ") finds no ptxas where XLA looks, so its first GPU computation fails to compile: "
                "\"JaxRuntimeError: INTERNAL: Failed to get configs for: … instructions. … No "
                "candidates "
                "could be compiled.\"";
            f.locations = {{where}};
            f.evidence.push_back(
                "XLA assembles every kernel with ptxas (xla_gpu_cuda_data_dir, PATH, then its CUDA "
                "roots)");
            add_searched(f, *ptxas);
            f.fix = "pip install nvidia-cuda-nvcc" +
                    std::string(major == "13" || major.empty() ? "" : "-cu" + major) +
                    " (the jax[cuda" + major + "] extra; it puts ptxas in site-packages/nvidia/" +
                    (major == "13" ? "cu13" : "cuda_nvcc") + "/bin), or install a CUDA " + major +
                    " toolkit at /usr/local/cuda (nvidia/cuda:*-devel), or set CUDA_ROOT to one.";
            out.push_back(std::move(f));
            continue;
        }
        if (libdevice && libdevice->path.empty()) {
            report::Finding f;
            f.id = "CUV016";
            f.severity = report::Severity::warning;
            f.message = "jax " + fw.version.str() + " (" + fw.gpu_package +
                        ") finds no libdevice where XLA looks: \"Can't find libdevice directory "
                        "${CUDA_DIR}/nvvm/libdevice. This may result in compilation or runtime "
                        "failures, if the "
                        "program we try to run uses routines from libdevice.\"";
            f.locations = {{where}};
            add_searched(f, *libdevice);
            f.fix = "pip install nvidia-nvvm (part of jax[cuda" + major + "]), or install a CUDA " +
                    major + " toolkit at /usr/local/cuda.";
            out.push_back(std::move(f));
        }
    }
    return out;
}

}  // namespace cuv016

const ValidateCheck cuv016_framework_gpu_compiler{
    CheckInfo{
        .id = "CUV016",
        .severity = report::Severity::error,
        .title = "A GPU framework that compiles its kernels finds no PTX assembler, or one that "
                 "does not know the GPU",
        .rationale = "XLA (JAX) generates PTX and assembles it with ptxas at run time. It looks in "
                     "xla_gpu_cuda_data_dir (CUDA_ROOT, or site-packages/nvidia/cu13 when the "
                     "nvidia-cuda-nvcc wheel put bin/ptxas there), then every PATH dir, then "
                     "/usr/local/cuda, /opt/cuda and dirs relative to its plugin. A ptxas "
                     "elsewhere (torch/bin, triton's backend) is not used. Without one JAX starts "
                     "on the GPU and fails at the first jit: \"Failed to get configs for … No "
                     "candidates could be compiled.\" libdevice (nvvm/libdevice) is looked for in "
                     "the same roots. CuPy compiles its kernels with NVRTC and needs the CUDA "
                     "headers: the cuda-runtime wheel's include dir, CUDA_PATH, nvcc's toolkit on "
                     "PATH or /usr/local/cuda; without them: \"Failed to find CUDA headers\". "
                     "Triton (torch.compile) assembles with the ptxas its wheel bundles "
                     "(ptxas-blackwell from compute capability 10.0 where shipped), and that "
                     "ptxas must know the --gpu target: Triton 3.6's CUDA 12.9 ptxas-blackwell "
                     "has no sm_110a (Jetson Thor), a CUDA 13 ptxas no sm_70; the release is "
                     "read from the binary's --version banner. These are warnings: only "
                     "workloads that compile kernels fail.",
        .failing_example = "FROM python:3.12\nRUN pip install 'jax[cuda13-local]'   # the plugin "
                           "without the nvcc wheel\n# → CUV016 jax finds no ptxas where XLA looks",
        .passing_example =
            "FROM nvidia/cuda:13.0.2-cudnn-devel-ubuntu24.04\nRUN pip install 'jax[cuda13-local]'",
        .fix = "Install ptxas where XLA looks: pip install nvidia-cuda-nvcc (part of jax[cuda13]), "
               "a CUDA toolkit at /usr/local/cuda, or its bin dir on PATH.",
        .name = "framework-gpu-compiler",
    },
    &cuv016::run,
};

}  // namespace cuvet::checks
