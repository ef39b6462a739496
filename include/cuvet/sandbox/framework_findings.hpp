#pragma once
// Turning framework smoke probes into findings, and comparing them with the
// static verdict (the test oracle: a disagreement is a cuvet bug or a missing
// rule, either way something the user must see).
//
//   CUVG10 the framework failed to import inside the image
//   CUVG11 the framework silently fell back to the CPU
//   CUVG12 the framework imported but could not compute on the GPU
//   CUVG13 the framework's GPU result differs from the CPU answer
//   CUVG14 the framework probe did not finish (timeout, crash, no result)
//   CUVG15 the static and the live check disagree
//   CUVG16 what a framework probe saw when it worked (info)
#include <optional>
#include <string>
#include <vector>

#include "cuvet/report/finding.hpp"
#include "cuvet/sandbox/framework_smoke.hpp"

namespace cuvet::sandbox {

std::vector<report::Finding> smoke_findings(const SmokeResult& result);

// The live verdict of one framework: "works", "fails" (import, compute, wrong
// result, timeout), "cpu" (a silent CPU fallback: also a failure of a GPU
// image) or "cpu_only_build" (nothing to run on the GPU).
std::string live_verdict(const SmokeResult& result);

// The static findings that concern one framework: those naming its package
// directory, or the framework by name in their message, evidence or locations.
std::vector<const report::Finding*> static_findings_for(
    const std::vector<report::Finding>& static_findings, const SmokeTarget& target);

// CUVG15 when static and live disagree: static errors for a framework that
// worked, no static error for one that failed, or a cuDNN the framework loaded
// that is not the one the inventory expected (`expected_cudnn`: "9.19.0").
std::vector<report::Finding> static_live_disagreements(
    const std::vector<report::Finding>& static_findings, const std::vector<SmokeResult>& results,
    const std::optional<std::string>& expected_cudnn, const std::string& expected_cudnn_source);

}  // namespace cuvet::sandbox
