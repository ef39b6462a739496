// CUVL11 (a stub or compat libcuda on the run-time loader path):
// Dockerfiles of our own that raise it and that must not, through the call
// `cuvet lint` makes, against the built-in rules.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL11 stub or compat libcuda on the run-time loader path", "[lint][CUVL11]") {
    auto found = lint_ids(
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
        "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs:${LD_LIBRARY_PATH}\n",
        "CUVL11");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::error);
    CHECK(found[0].locations.at(0).line == 2);
    CHECK_THAT(found[0].message, Catch::Contains("CUDA_ERROR_STUB_LIBRARY"));

    found = lint_ids(
        "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
        "RUN ln -s /usr/local/cuda/lib64/stubs/libcuda.so /usr/lib/x86_64-linux-gnu/libcuda.so.1\n",
        "CUVL11");
    REQUIRE(found.size() == 1);

    found = lint_ids(
        "FROM nvidia/cuda:12.4.1-base-ubuntu22.04\n"
        "RUN echo /usr/local/cuda/compat > /etc/ld.so.conf.d/00-compat.conf && ldconfig\n",
        "CUVL11");
    REQUIRE(found.size() == 1);
    CHECK(found[0].severity == report::Severity::warning);

    // A directory named only on ldconfig's command line is gone at the first plain
    // ldconfig, and the NVIDIA container toolkit runs one from ld.so.conf at every start:
    // vLLM's compat workaround, and Horovod's stubs around its build.
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-base-ubuntu22.04\n"
                   "ARG CUDA_VERSION=12.4.1\n"
                   "RUN ldconfig /usr/local/cuda-$(echo $CUDA_VERSION | cut -d. -f1,2)/compat/\n",
                   "CUVL11")
              .empty());
    CHECK(lint_ids(
              "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
              "RUN ldconfig /usr/local/cuda/targets/x86_64-linux/lib/stubs && \\\n"
              "    HOROVOD_GPU_OPERATIONS=NCCL pip install --no-cache-dir horovod==0.28.1 && \\\n"
              "    ldconfig\n",
              "CUVL11")
              .empty());

    // Linking against the stub at build time, or in a builder stage, is what it is for.
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
                   "ENV LIBRARY_PATH=/usr/local/cuda/lib64/stubs\n",
                   "CUVL11")
              .empty());
    CHECK(lint_ids("FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build\n"
                   "ENV LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs\n"
                   "RUN make\n"
                   "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
                   "COPY --from=build /out /app\n",
                   "CUVL11")
              .empty());
}
