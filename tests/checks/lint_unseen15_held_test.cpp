// unseen15's held-back classes (bench/lint_corpus/unseen15/README.md): RPM version pins, an
// unpacked tool's install.sh, and a framework built from its checkout on a -runtime base.
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL04 reads an RPM spec's version as a pin", "[lint][lint-corpus15-held][CUVL04]") {
    // h11: yum install libcudnn8-devel-8.1.0.77-1.cuda11.2 names the exact package version.
    const std::string base = "FROM nvidia/cuda:11.2.2-base-ubi8\n";
    CHECK(lint_ids(base + "RUN yum install -y libcudnn8-8.1.0.77-1.cuda11.2 "
                          "libcudnn8-devel-8.1.0.77-1.cuda11.2\n",
                   "CUVL04")
              .empty());
    // Without a version, or with only the CUDA release in the name, rebuilds still drift.
    CHECK(lint_ids(base + "RUN yum install -y libcudnn8-devel\n", "CUVL04").size() == 1);
    CHECK(lint_ids(base + "RUN dnf install -y libcudnn8-devel cuda-nvprune-11-2\n", "CUVL04")
              .size() == 1);
}

TEST_CASE("CUVL14 does not read a downloaded tool's install.sh as the project's installer",
          "[lint][lint-corpus15-held][CUVL14]") {
    // h38: git-lfs's release archive unpacked to /workspace/git-lfs-3.4.1/.
    const std::string base = "FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\n";
    CHECK(lint_ids(base + "RUN tar -xf git-lfs-linux-amd64-v3.4.1.tar.gz && "
                          "/workspace/git-lfs-3.4.1/install.sh\n",
                   "CUVL14")
              .empty());
    // The project's own bare installer still hides what it installs.
    CHECK(lint_ids(base + "RUN bash /workspace/app/install.sh\n", "CUVL14").size() == 1);
}

TEST_CASE("CUVL10 reports a framework built from its checkout on a -runtime base",
          "[lint][lint-corpus15-held][CUVL10]") {
    // h38: git clone pytorch/pytorch, then python setup.py develop without nvcc or headers.
    const std::string build =
        "RUN git clone --recursive https://github.com/pytorch/pytorch\n"
        "WORKDIR /workspace/pytorch\n"
        "RUN env MAX_JOBS=3 python3 setup.py develop\n";
    CHECK(
        lint_ids("FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\n" + build, "CUVL10").size() ==
        1);
    CHECK(lint_ids("FROM nvidia/cuda:12.2.2-cudnn8-devel-ubuntu22.04\n" + build, "CUVL10").empty());
    // A checkout of something else built the same way says nothing of CUDA, nor does a
    // project merely named for its framework (unseen10 t33: PaddleDetection).
    CHECK(lint_ids("FROM nvidia/cuda:12.0.0-cudnn8-runtime-ubuntu22.04\n"
                   "RUN git clone https://github.com/PaddlePaddle/PaddleDetection.git /opt/pd\n"
                   "RUN cd /opt/pd && python setup.py install\n",
                   "CUVL10")
              .empty());
    CHECK(lint_ids("FROM nvidia/cuda:12.2.2-cudnn8-runtime-ubuntu22.04\n"
                   "RUN git clone https://github.com/example/webapp\n"
                   "RUN cd webapp && python3 setup.py install\n",
                   "CUVL10")
              .empty());
}

TEST_CASE("CUVL01 reports a system-CUDA framework no release of which was built for the base",
          "[lint][lint-corpus15-held][CUVL01]") {
    // h05's class: unpinned tensorflow-gpu on an old base. TensorFlow was built for CUDA 10.0
    // and 10.1, never 10.2, and up to 10.2 each minor has its own libcudart.
    const auto found = lint_ids(
        "FROM nvidia/cuda:10.2-cudnn7-runtime-ubuntu18.04\nRUN pip3 install tensorflow-gpu\n",
        "CUVL01");
    REQUIRE(found.size() == 1);
    CHECK(found[0].message.find("no TensorFlow release was built for CUDA 10.2") !=
          std::string::npos);
    // On CUDA 9.1 the rules list TensorFlow 1.5-1.12 as CUDA "9" only: the minor is unknown,
    // so the verdict is too (h05 itself stays a miss).
    CHECK(
        lint_ids("FROM nvidia/cuda:9.1-cudnn7-devel-ubuntu16.04\nRUN pip3 install tensorflow-gpu\n",
                 "CUVL01")
            .empty());
    // A release the rules have no row for is unknown, not a mismatch (unseen9 h22: TensorRT's
    // rows start at 8.0).
    CHECK(lint_ids("FROM nvidia/cuda:10.1-cudnn7-runtime-ubuntu18.04\n"
                   "RUN pip3 install /opt/TensorRT-6.0.1.5/python/"
                   "tensorrt-6.0.1.5-cp36-none-linux_x86_64.whl\n",
                   "CUVL01")
              .empty());
    // A framework that brings its own CUDA libraries is not judged this way.
    CHECK(lint_ids("FROM nvidia/cuda:10.2-cudnn7-runtime-ubuntu18.04\nRUN pip3 install torch\n",
                   "CUVL01")
              .empty());
}
