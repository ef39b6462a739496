// CUVG10 framework-import-failed: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg10_framework_import_failed{CheckInfo{
    .id = "CUVG10",
    .severity = report::Severity::error,
    .title = "framework failed to import",
    .rationale = "The image's own python could not import the framework: a CUDA library it links "
                 "or dlopens at import is missing or the wrong major. The workload dies at its "
                 "first line (\"libcudnn.so.9: cannot open shared object file\", "
                 "\"libcudart.so.*[0-9] not found in the system path\").",
    .failing_example = "import <framework> (/usr/local/lib/python3.10/site-packages/<framework>) "
                       "failed inside the image: "
                       "libcudnn.so.9: cannot open shared object file: No such file or directory",
    .passing_example = "import <framework> succeeds with the image's python",
    .fix = "Install the library the framework names in the image (its nvidia-* wheel or the "
           "CUDA/cuDNN package), where the framework looks for it.",
    .name = "framework-import-failed",
}};

}  // namespace cuvet::checks
