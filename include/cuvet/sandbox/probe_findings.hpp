#pragma once
// Turning a probe run into findings beside the static ones.
//
//   CUVG01 a GPU library failed to load (dlerror text)
//   CUVG02 the cuDNN that loaded differs from the static inventory
//   CUVG03 CUDA or cuDNN initialisation failed
//   CUVG04 the convolution ran but its result is wrong
//   CUVG05 no GPU visible
//   CUVG06 the convolution did not run
//   CUVG07 the probe did not finish (crash, timeout, could not start)
#include <string>
#include <vector>

#include "cuvet/report/finding.hpp"
#include "cuvet/sandbox/probe_plan.hpp"
#include "cuvet/sandbox/probe_report.hpp"
#include "cuvet/sandbox/process.hpp"

namespace cuvet::sandbox {

std::vector<report::Finding> probe_findings(const ProbeReport& report, const ProbePlan& plan);

// When the probe printed no usable JSON: why, from its exit status and stderr.
report::Finding probe_failed_finding(const ProcessResult& process, const std::string& runtime);

}  // namespace cuvet::sandbox
