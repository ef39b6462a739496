// CUV012 glibc-too-new: metadata now; run() comes with the loader/inventory Stack.
#include "checks.hpp"

namespace cuvet::checks {

const ValidateCheck cuv012_glibc_too_new{
    CheckInfo{
        .id = "CUV012",
        .severity = report::Severity::error,
        .title = "A library needs a GLIBC version newer than the image's glibc",
        .rationale = "Binaries record the glibc symbol versions they need (GLIBC_2.34). On an older distribution the loader stops with \"version `GLIBC_2.34' not found (required by …)\". It happens when a wheel built on a newer manylinux or a binary copied from a newer base lands on an old base image.",
        .failing_example = "FROM ubuntu:20.04                      # glibc 2.31\nCOPY --from=builder /out/libfoo.so /usr/lib/   # built on ubuntu:22.04, needs GLIBC_2.34\n# → CUV012",
        .passing_example = "FROM ubuntu:22.04                      # glibc 2.35",
        .fix = "Build the binary on the oldest base you ship (or a manylinux image), or move the image to a distribution with a newer glibc.",
        .name = "glibc-too-new",
    },
    nullptr,
};

}  // namespace cuvet::checks
