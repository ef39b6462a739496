// CUV013 driver-libs-baked
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace {

std::vector<report::Finding> run(const Stack& stack, const rules::Database&) {
    std::vector<report::Finding> out;
    for (const auto& copy : stack.driver_libraries) {
        // Which consumers would map the image's copy instead of the host's.
        std::vector<std::string> users;
        for (const auto& o : stack.objects)
            for (const auto& r : o.resolutions)
                if (r.file == copy.path && users.size() < 5) users.push_back(o.path);
        report::Finding f;
        f.message = "Driver library " + copy.path + (copy.version ? " (driver " + copy.version->str() + ")" : "") +
                    " is baked into the image; " +
                    (users.empty() ? std::string("the container toolkit mounts the host's driver, and a copy here goes stale or shadows it")
                                   : "it shadows the host driver's " + copy.soname + ".* for " + users.front() +
                                         (users.size() > 1 ? " and others" : "") +
                                         ": \"CUDA driver version is insufficient\" or \"forward compatibility was attempted on non supported HW\"");
        f.locations = {{copy.path}};
        for (const auto& u : users) f.evidence.push_back(u + " resolves to " + copy.path);
        f.fix = "Remove " + copy.path + " from the image (RUN rm, or do not COPY the host's driver in); the NVIDIA container toolkit mounts the matching driver at run time. Use the cuda-compat package in /usr/local/cuda/compat for forward compatibility.";
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace

const ValidateCheck cuv013_driver_libs_baked{
    CheckInfo{
        .id = "CUV013",
        .severity = report::Severity::error,
        .title = "Driver libraries baked into the image",
        .rationale = "libcuda.so.1, libnvidia-ml.so.1 and the other user-mode driver libraries must come from the host: the NVIDIA container runtime mounts the host driver's copies. A copy baked into the image can be found first and mismatch the kernel module (\"CUDA driver version is insufficient\", \"Failed to initialize NVML: Driver/library version mismatch\"). The cuda-compat package under /usr/local/cuda/compat is the one intended exception and is not reported.",
        .failing_example = "COPY libcuda.so.535.104.05 /usr/lib/x86_64-linux-gnu/libcuda.so.1\n# → CUV013",
        .passing_example = "# no libcuda.so.1 in the image; the container runtime injects the host's",
        .fix = "Remove the driver libraries from the image (apt: do not install nvidia-driver-* or libnvidia-compute-*; for builds needing libcuda.so link against the stubs in /usr/local/cuda/lib64/stubs).",
        .name = "driver-libs-baked",
    },
    &run,
};

}  // namespace cuvet::checks
