// CUV011 wrong-machine: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv011_wrong_machine{
    CheckInfo{
        .id = "CUV011",
        .severity = report::Severity::error,
        .title = "An ELF file of the wrong machine for the image's platform",
        .rationale = "An x86-64 library in a linux/arm64 image (or the reverse) is skipped by the loader (\"wrong ELF class\" / \"cannot open shared object file\"), so a wheel copied from another platform or a multi-arch build that mixed stages leaves a library that silently never loads.",
        .failing_example = "image platform linux/arm64\n/opt/app/libkernels.so: ELF x86-64\n# → CUV011",
        .passing_example = "image platform linux/arm64, /opt/app/libkernels.so: ELF AArch64",
        .fix = "Install the package for the image's architecture (pip --platform manylinux2014_aarch64, the arm64 apt package) or build that stage with the right --platform.",
        .name = "wrong-machine",
    },
    nullptr,
};

}  // namespace cuvet::checks
