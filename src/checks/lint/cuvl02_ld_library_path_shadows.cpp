// CUVL02: LD_LIBRARY_PATH puts system CUDA/cuDNN directories ahead of the
// libraries a wheel bundles.
#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace {

// Directories where a base image or apt/conda put CUDA and cuDNN libraries.
// /usr/local/nvidia/lib* is where the container runtime mounts the driver: fine.
bool is_system_cuda_dir(const std::string& dir) {
    if (dir.starts_with("/usr/local/nvidia")) return false;
    return dir.starts_with("/usr/local/cuda") || dir.find("cudnn") != std::string::npos ||
           dir.starts_with("/usr/lib/x86_64-linux-gnu") || dir.starts_with("/usr/lib/aarch64-linux-gnu") ||
           dir == "/usr/lib64" || dir.starts_with("/opt/conda/lib") || dir.find("/cuda/") != std::string::npos ||
           dir.find("/cuda-") != std::string::npos;
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    std::vector<report::Finding> out;
    const std::size_t index = facts.build.final_stage;
    const auto* variable = facts.env_variable(index, "LD_LIBRARY_PATH");
    if (!variable) return out;
    std::vector<std::string> system_dirs;
    std::size_t start = 0;
    const std::string& value = variable->value;
    while (start <= value.size()) {
        std::size_t colon = value.find(':', start);
        std::string dir = value.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (is_system_cuda_dir(dir)) system_dirs.push_back(dir);
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    if (system_dirs.empty()) return out;
    const dockerfile::Package* bundler = nullptr;
    for (const auto& p : facts.stages.at(index).packages) {
        auto wheel = lint::wheel_stack(p, db);
        if (wheel && wheel->bundles_libraries && !wheel->cpu_only) {
            bundler = &p;
            break;
        }
    }
    if (!bundler) return out;
    std::string dirs;
    for (const auto& d : system_dirs) dirs += (dirs.empty() ? "" : ", ") + d;
    auto f = lint::finding(facts, "CUVL02", variable->line, variable->line);
    f.severity = report::Severity::warning;
    f.message = "LD_LIBRARY_PATH lists " + dirs + ", and " + bundler->word +
                " (line " + std::to_string(bundler->line) +
                ") brings its own CUDA/cuDNN libraries that it finds through RUNPATH; ld.so searches "
                "LD_LIBRARY_PATH before RUNPATH, so the loader takes the system copies instead of the "
                "wheel's: a different cuDNN or cuBLAS than the one it was built with (undefined "
                "symbol such as cublasLtGetStatusString, or a cuDNN version mismatch at import).";
    f.evidence.push_back("ENV LD_LIBRARY_PATH=" + value + " (line " + std::to_string(variable->line) + ")");
    f.fix = "Drop the CUDA/cuDNN directories from LD_LIBRARY_PATH in this stage (the runtime provides "
            "the driver libraries through ld.so.cache), or set it only in the stages that compile "
            "against the system CUDA.";
    out.push_back(std::move(f));
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL02";
    i.name = "ld-library-path-shadows-wheel";
    i.severity = report::Severity::warning;
    i.title = "LD_LIBRARY_PATH puts system CUDA/cuDNN ahead of a wheel's bundled libraries";
    i.rationale =
        "Framework wheels locate their bundled nvidia-* libraries with DT_RUNPATH, which ld.so "
        "consults after LD_LIBRARY_PATH. A base image's CUDA or cuDNN directory in LD_LIBRARY_PATH "
        "therefore wins, and the framework runs against libraries it was not built with.";
    i.failing_example =
        "FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
        "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/lib/x86_64-linux-gnu\n"
        "RUN pip install torch==2.4.0";
    i.passing_example =
        "FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04\n"
        "RUN pip install torch==2.4.0";
    i.fix = "Remove CUDA/cuDNN directories from LD_LIBRARY_PATH in the final stage.";
    return i;
}

}  // namespace

extern const LintCheck cuvl02_ld_library_path_shadows;
const LintCheck cuvl02_ld_library_path_shadows{info(), &run};

}  // namespace cuvet::checks
