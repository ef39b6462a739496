// CUVG10 framework-import-failed: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg10_framework_import_failed{CheckInfo{
    .id = "CUVG10",
    .severity = report::Severity::error,
    .name = "framework-import-failed",
}};

}  // namespace cuvet::checks
