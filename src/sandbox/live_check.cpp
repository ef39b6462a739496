#include "cuvet/sandbox/live_check.hpp"

#include <algorithm>

#include "cuvet/core/error.hpp"
#include "cuvet/sandbox/engine_run.hpp"
#include "cuvet/sandbox/host_driver.hpp"

namespace cuvet::sandbox {

ProbeOutcome run_live_check(const image::Image& image, const ProbeRunOptions& requested) {
    ProbeRunOptions options = requested;
    options.runtime = resolve_runtime(requested.runtime);
    if (options.runtime == "builtin" && !options.self_test) {
        // Fail before extracting gigabytes when this host plainly has no GPU.
        const HostDriver driver = find_host_driver();
        if (!driver.has_libcuda() || driver.device_nodes.empty())
            fail_io(
                "no GPU visible on this host (no /dev/nvidia* device nodes or no libcuda.so.1 in "
                "the ld.so cache or "
                "/usr/local/nvidia/lib64); the live check needs an NVIDIA GPU and driver");
    }
    ProbeOutcome outcome = run_probe(image, options);
    const auto no_device =
        std::find_if(outcome.findings.begin(), outcome.findings.end(),
                     [](const report::Finding& finding) { return finding.id == "CUVG05"; });
    if (!options.self_test && no_device != outcome.findings.end())
        fail_io("no GPU visible inside the image: " + no_device->message);
    return outcome;
}

}  // namespace cuvet::sandbox
