#pragma once
// The live GPU check as `cuvet probe` and `cuvet validate --probe` both run it:
// refuse early when the host has no GPU, run the probe inside the image, and
// treat "no device inside the image" as an error of the run, not a finding.
#include "cuvet/sandbox/probe_runner.hpp"

namespace cuvet::sandbox {

// Throws cuvet::Error (io, exit code 3) when no GPU is visible.
ProbeOutcome run_live_check(const image::Image& image, const ProbeRunOptions& options);

}  // namespace cuvet::sandbox
