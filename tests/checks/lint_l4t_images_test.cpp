// NVIDIA's Jetson framework images: nvcr.io/nvidia/l4t-ml carries PyTorch and TensorFlow, but
// its tag (r36.2.0-py3) names only the L4T release (rules/frameworks.json docker_images,
// tag_format "unstated").
#include <catch2/catch.hpp>

#include "checks/lint_test_support.hpp"

using namespace cuvet;
using cuvet::test::lint_ids;

TEST_CASE("CUVL14 is silent on l4t-ml, whose framework is in the base",
          "[lint][lint-l4t][CUVL14]") {
    // unseen14 h03, h21, h41: requirements files on l4t-ml add to its framework, they do not
    // bring one the linter cannot see.
    const std::string install =
        "COPY requirements.txt /tmp/requirements.txt\n"
        "RUN pip3 install --no-cache-dir -r /tmp/requirements.txt\n";
    for (const char* tag : {"r36.2.0-py3", "r35.3.1-py3", "r32.7.1-py3"}) {
        CAPTURE(tag);
        CHECK(lint_ids(std::string("FROM nvcr.io/nvidia/l4t-ml:") + tag + "\n" + install, "CUVL14")
                  .empty());
    }
    // l4t-jetpack carries CUDA, cuDNN and TensorRT but no framework: the file's installs are
    // where it comes from.
    CHECK(lint_ids("FROM nvcr.io/nvidia/l4t-jetpack:r36.4.0\n" + install, "CUVL14").size() == 1);
}
