// CUVG06 convolution-did-not-run: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg06_convolution_did_not_run{CheckInfo{
    .id = "CUVG06",
    .severity = report::Severity::error,
    .name = "convolution-did-not-run",
}};

}  // namespace cuvet::checks
