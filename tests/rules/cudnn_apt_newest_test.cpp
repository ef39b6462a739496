// cudnn.json apt_newest: the build apt installs for a cuDNN package named without a version
// from NVIDIA's repository of a distro (CUVL13 reads it), and what the loader refuses.
#include <catch2/catch.hpp>

#include "rules/rules_fixtures.hpp"

using cuvet::test::builtin_table;
using cuvet::test::load_error_with;

TEST_CASE("cudnn apt_newest: libcudnn8 on Ubuntu 20.04/22.04 resolves to a CUDA 12 build",
          "[rules][loader][cudnn]") {
    const auto& db = cuvet::test::db();
    for (const char* distro : {"ubuntu20.04", "ubuntu22.04"}) {
        for (const char* package : {"libcudnn8", "libcudnn8-dev"}) {
            const auto* row = db.cudnn_apt_newest(package, distro);
            REQUIRE(row);
            CHECK(row->cuda_major == 12);
            CHECK(row->version == "8.9.7.29-1+cuda12.2");
            const std::string& key = row->provenance.source_key;
            CHECK((key.starts_with("nvidia-repo-") || key.starts_with("cudnn-local-repo-")));
        }
    }
    // No row: the rules do not say (Ubuntu 18.04's repository was not read).
    CHECK(db.cudnn_apt_newest("libcudnn8", "ubuntu18.04") == nullptr);
    CHECK(db.cudnn_apt_newest("libcudnn9-cuda-12", "ubuntu22.04") == nullptr);
}

TEST_CASE("cudnn apt_newest: a version that names another CUDA major is refused",
          "[rules][loader][cudnn]") {
    auto cudnn = builtin_table("cudnn.json");
    cudnn["apt_newest"][0]["version"] = "8.9.7.29-1+cuda11.8";
    CHECK(load_error_with("cudnn.json", cudnn).find("/apt_newest/0/version") != std::string::npos);
    cudnn = builtin_table("cudnn.json");
    cudnn["apt_newest"][0]["distro"] = "ubuntu22.04";
    CHECK(load_error_with("cudnn.json", cudnn).find("unexpected key 'distro'") !=
          std::string::npos);
}
