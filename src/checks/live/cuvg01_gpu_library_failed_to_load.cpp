// CUVG01 gpu-library-failed-to-load: reported by the live check (src/sandbox), documented here
#include "checks/checks.hpp"

namespace cuvet::checks {

const LiveCheck cuvg01_gpu_library_failed_to_load{CheckInfo{
    .id = "CUVG01",
    .severity = report::Severity::error,
    .title = "GPU library failed to load",
    .rationale = "The probe dlopens libcudart and cuDNN inside the image the way its framework "
                 "would. When dlopen fails, or the library that loads lacks the symbols the probe "
                 "asks for, every CUDA call of the workload fails the same way at start-up "
                 "(\"Could not load dynamic library 'libcudnn.so.8'\").",
    .failing_example = "cudnn (libcudnn.so.9) failed to load inside the image: libcudnn.so.9: "
                       "cannot open shared object file: No such file or directory",
    .passing_example = "every library the probe asks for loads, with the symbols it calls",
    .fix = "Ship the missing library in the image, or fix the search path that should find it "
           "(LD_LIBRARY_PATH, ld.so.conf, RUNPATH).",
    .name = "gpu-library-failed-to-load",
}};

}  // namespace cuvet::checks
