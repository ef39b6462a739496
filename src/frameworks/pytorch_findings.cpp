// PyTorch's own failures: Triton (torch.compile, @triton.jit) without a C compiler or ptxas,
// or with a ptxas that does not know the target GPU (CUV016, warnings: most PyTorch images
// never compile).
#include "findings.hpp"
#include "model_support.hpp"

namespace cuvet::frameworks::detail {

std::vector<report::Finding> pytorch_gpu_compiler_findings(const stack::Stack& stack,
                                                           const rules::Database& db,
                                                           const stack::FrameworkInstall& fw) {
    std::vector<report::Finding> out;
    // torch.compile and @triton.jit only: a warning, most PyTorch images never compile.
    for (const char* name : {"C compiler for Triton", "ptxas for Triton"}) {
        const auto* t = framework_tool(fw, name);
        if (t == nullptr || !t->path.empty()) continue;
        report::Finding f;
        f.id = "CUV016";
        f.severity = report::Severity::warning;
        bool cc = t->name == "C compiler for Triton";
        f.message = "torch " + fw.version.str() +
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
    return out;
}

}  // namespace cuvet::frameworks::detail
