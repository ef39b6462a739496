#include "triton.hpp"

#include "model_support.hpp"

namespace cuvet::frameworks {

using stack::FrameworkTool;
using namespace detail;

// Triton (torch.compile's GPU compiler, pinned by torch) builds a launcher
// stub with the image's C compiler at the first kernel: CC, else gcc, else
// clang on PATH (triton/runtime/build.py, 3.6.0), and assembles with its
// bundled ptxas unless TRITON_PTXAS_PATH names one that exists (triton/knobs.py
// env_nvidia_tool falls back to the bundled one). Triton 3.6 also bundles
// ptxas-blackwell, used from compute capability 10.0 on (compiler.py
// get_ptxas; TRITON_PTXAS_BLACKWELL_PATH). Seen on the H100: every root
// without gcc fails with "Failed to find C compiler"
// (testdata/gpu/env/framework_variants.log).
void model_triton(const inventory::Analysis& analysis, const Environment& env,
                  stack::FrameworkInstall& fw) {
    auto triton = dir_name(fw.root) + "/triton";
    if (!is_dir(analysis, triton + "/backends/nvidia")) return;
    FrameworkTool cc;
    cc.name = "C compiler for Triton";
    if (auto it = env.find("CC"); it != env.end() && !it->second.empty()) {
        cc.path = it->second;  // the user's choice: not judged
        cc.searched.push_back("CC=" + it->second);
    } else {
        // No PATH in the config: the one Docker and the NVIDIA runtime start a process with.
        auto dirs = env.count("PATH")
                        ? path_dirs(env)
                        : std::vector<std::string>{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
                                                   "/usr/bin",        "/sbin",          "/bin"};
        std::vector<std::string> candidates;
        for (const char* name : {"gcc", "clang"})
            for (const auto& dir : dirs) candidates.push_back(normal(dir + "/" + name));
        cc = find_tool(analysis, cc.name, candidates, false);
    }
    fw.tools.push_back(cc);
    auto ptxas = [&](const char* name, const char* variable, const std::string& bundled) {
        std::vector<std::string> candidates;
        if (auto it = env.find(variable); it != env.end()) candidates.push_back(it->second);
        candidates.push_back(bundled);
        auto tool = find_tool(analysis, name, candidates, false);
        if (!tool.path.empty()) tool.release = compiler_release(analysis, tool.path);
        return tool;
    };
    auto bin = triton + "/backends/nvidia/bin";
    fw.tools.push_back(ptxas("ptxas for Triton", "TRITON_PTXAS_PATH", bin + "/ptxas"));
    if (is_file(analysis, bin + "/ptxas-blackwell"))
        fw.tools.push_back(ptxas("ptxas-blackwell for Triton", "TRITON_PTXAS_BLACKWELL_PATH",
                                 bin + "/ptxas-blackwell"));
}

}  // namespace cuvet::frameworks
