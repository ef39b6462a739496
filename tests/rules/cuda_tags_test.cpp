#include <catch2/catch.hpp>

#include "cuvet/rules/database.hpp"
#include "support/builtin_rules.hpp"

using cuvet::rules::CudaTagStatus;
using cuvet::rules::Database;
using cuvet::test::db;

TEST_CASE("nvidia/cuda: published tags, with their support state", "[rules][cuda_tags]") {
    auto a = db().nvidia_cuda_tag("12.4.1-cudnn-runtime-ubuntu22.04");
    CHECK(a.status == CudaTagStatus::published);
    CHECK(a.cuda == "12.4.1");
    CHECK(a.flavor == "cudnn-runtime");
    CHECK(a.os == "ubuntu22.04");
    CHECK(a.support == "supported");
    CHECK(a.provenance.source.url.find("gitlab.com/nvidia/container-images/cuda") !=
          std::string::npos);
    // End-of-life but still pullable.
    auto eol = db().nvidia_cuda_tag("12.4.0-devel-ubuntu22.04");
    CHECK(eol.status == CudaTagStatus::published);
    CHECK(eol.support == "end_of_life");
    CHECK(db().nvidia_cuda_tag("11.3.1-cudnn8-devel-ubuntu20.04").status ==
          CudaTagStatus::published);
    CHECK(db().nvidia_cuda_tag("13.0.2-cudnn-devel-ubuntu24.04").status ==
          CudaTagStatus::published);
    CHECK(db().nvidia_cuda_tag("12.3.2-cudnn9-runtime-ubi9").status == CudaTagStatus::published);
}

TEST_CASE("nvidia/cuda: tags NVIDIA deleted in 2023 name the live tag to use",
          "[rules][cuda_tags]") {
    auto a = db().nvidia_cuda_tag("11.4.0-cudnn8-runtime-ubuntu20.04");
    CHECK(a.status == CudaTagStatus::deleted);
    CHECK(a.suggestion == "11.4.3-cudnn8-runtime-ubuntu20.04");
    CHECK(db().nvidia_cuda_tag("11.4.0-cudnn8-runtime-ubuntu20.04")
              .provenance.source.url.find("5d080f35") != std::string::npos);
    CHECK(db().nvidia_cuda_tag("11.7.0-devel-ubuntu22.04").suggestion ==
          "11.7.1-devel-ubuntu22.04");
    CHECK(db().nvidia_cuda_tag("11.2.1-base-ubuntu18.04").suggestion == "11.2.2-base-ubuntu18.04");
    CHECK(db().nvidia_cuda_tag("11.5.0-runtime-ubi8").suggestion == "11.5.2-runtime-ubi8");
    // A CUDA 10 tag: only another major is left; the cuDNN 7 spelling becomes cudnn8.
    auto old = db().nvidia_cuda_tag("10.2-cudnn7-devel-ubuntu18.04");
    CHECK(old.status == CudaTagStatus::deleted);
    CHECK(old.suggestion == "11.0.3-cudnn8-devel-ubuntu18.04");
    // A distro that went while the release stayed.
    auto centos = db().nvidia_cuda_tag("11.3.1-runtime-centos8");
    CHECK(centos.status == CudaTagStatus::deleted);
    CHECK(centos.suggestion == "11.3.1-runtime-ubuntu20.04");
    // What the issue counts as deleted but NVIDIA's list keeps (the checks use NVIDIA's list).
    CHECK(db().nvidia_cuda_tag("11.5.2-runtime-ubuntu20.04").status == CudaTagStatus::published);
    CHECK(db().nvidia_cuda_tag("11.6.1-runtime-ubuntu20.04").status == CudaTagStatus::published);
    CHECK(db().nvidia_cuda_tag("11.6.1-runtime-ubuntu18.04").status == CudaTagStatus::deleted);
}

// The 2023 removal as issue 11 lists it (7.0-10.2, 11.2.0/11.2.1, 11.3.0, 11.4.0-11.4.2, 11.5.x,
// 11.6.0/11.6.1, 11.7.0), checked against NVIDIA's tag lists before and after commit 5d080f35.
TEST_CASE("nvidia/cuda: every release of the 2023 removal is deleted, with a live replacement",
          "[rules][cuda_tags]") {
    struct Case {
        const char* tag;
        const char* suggestion;
    };
    for (const Case c :
         {Case{"7.0-cudnn4-devel-centos7", "11.0.3-cudnn8-devel-centos7"},
          Case{"8.0-cudnn7-runtime-ubuntu16.04", "11.0.3-cudnn8-runtime-ubuntu16.04"},
          Case{"9.0-devel-ubuntu16.04", "11.0.3-devel-ubuntu16.04"},
          Case{"9.2-base-ubuntu18.04", "11.0.3-base-ubuntu18.04"},
          Case{"10.0-cudnn7-devel-ubuntu18.04", "11.0.3-cudnn8-devel-ubuntu18.04"},
          Case{"10.1-runtime-ubuntu18.04", "11.0.3-runtime-ubuntu18.04"},
          Case{"11.2.0-runtime-ubuntu20.04", "11.2.2-runtime-ubuntu20.04"},
          Case{"11.3.0-cudnn8-runtime-ubuntu20.04", "11.3.1-cudnn8-runtime-ubuntu20.04"},
          Case{"11.4.1-devel-ubuntu20.04", "11.4.3-devel-ubuntu20.04"},
          Case{"11.4.2-cudnn8-devel-ubuntu20.04", "11.4.3-cudnn8-devel-ubuntu20.04"},
          Case{"11.5.1-runtime-ubuntu20.04", "11.5.2-runtime-ubuntu20.04"},
          Case{"11.6.0-cudnn8-devel-ubuntu20.04", "11.6.2-cudnn8-devel-ubuntu20.04"},
          Case{"11.7.0-runtime-ubuntu22.04", "11.7.1-runtime-ubuntu22.04"}}) {
        INFO(c.tag);
        auto a = db().nvidia_cuda_tag(c.tag);
        CHECK(a.status == CudaTagStatus::deleted);
        CHECK(a.suggestion == c.suggestion);
        CHECK(db().nvidia_cuda_tag(a.suggestion).status == CudaTagStatus::published);
    }
}

TEST_CASE("nvidia/cuda: latest and OS-less tags are gone", "[rules][cuda_tags]") {
    for (const char* tag : {"", "latest"}) {
        auto a = db().nvidia_cuda_tag(tag);
        CHECK(a.status == CudaTagStatus::deleted);
        CHECK(a.suggestion.find("-runtime-ubuntu") != std::string::npos);
        CHECK(db().nvidia_cuda_tag(a.suggestion).status == CudaTagStatus::published);
    }
    auto a = db().nvidia_cuda_tag("11.0-base");
    CHECK(a.status == CudaTagStatus::deleted);
    CHECK(a.os.empty());
    CHECK(a.suggestion == "11.0.3-base-ubuntu20.04");
}

TEST_CASE("nvidia/cuda: tags that never existed, and what to use", "[rules][cuda_tags]") {
    // No cuDNN tag for 12.4.0 or 12.5.0: the next patch release has one.
    auto a = db().nvidia_cuda_tag("12.4.0-cudnn-devel-ubuntu22.04");
    CHECK(a.status == CudaTagStatus::not_published);
    CHECK(a.suggestion == "12.4.1-cudnn-devel-ubuntu22.04");
    CHECK(db().nvidia_cuda_tag("12.5.0-cudnn-runtime-ubuntu22.04").suggestion ==
          "12.5.1-cudnn-runtime-ubuntu22.04");
    // The old spelling of the cuDNN flavour.
    CHECK(db().nvidia_cuda_tag("12.4.1-cudnn8-runtime-ubuntu22.04").suggestion ==
          "12.4.1-cudnn-runtime-ubuntu22.04");
    // A deleted release never had this OS either.
    auto b = db().nvidia_cuda_tag("11.4.0-runtime-ubuntu22.04");
    CHECK(b.status == CudaTagStatus::not_published);
    CHECK(b.suggestion == "11.4.3-runtime-ubuntu20.04");
    CHECK(db().nvidia_cuda_tag("12.2.0-cudnn8-devel-ubuntu22.04").status ==
          CudaTagStatus::not_published);
}

TEST_CASE("nvidia/cuda: beyond the table stays unknown", "[rules][cuda_tags]") {
    // A partial release: what its sources list is published, the rest unknown, not absent.
    CHECK(db().nvidia_cuda_tag("13.2.1-cudnn-devel-ubuntu24.04").status ==
          CudaTagStatus::published);
    CHECK(db().nvidia_cuda_tag("13.2.1-runtime-ubuntu24.04").status == CudaTagStatus::published);
    CHECK(db().nvidia_cuda_tag("13.2.1-runtime-opensuse15").status == CudaTagStatus::unknown);
    CHECK(db().nvidia_cuda_tag("13.1.1-devel-ubuntu24.04").status == CudaTagStatus::unknown);
    CHECK(db().nvidia_cuda_tag("13.0.3-runtime-rockylinux9").status == CudaTagStatus::published);
    // 12.9.2 and 13.3.0: the cudnn-devel tags a 2026 Docker Hub scrape saw.
    CHECK(db().nvidia_cuda_tag("12.9.2-cudnn-devel-ubuntu20.04").status ==
          CudaTagStatus::published);
    // 12.8.2 and 12.9.2: the flavours NVIDIA's dist/ tree builds; a tag it has no Dockerfile
    // for stays unknown (the tree is not a list of tags on Docker Hub).
    CHECK(db().nvidia_cuda_tag("12.9.2-runtime-rockylinux9").status == CudaTagStatus::published);
    CHECK(db().nvidia_cuda_tag("12.9.2-devel-azl3").status == CudaTagStatus::published);
    CHECK(db().nvidia_cuda_tag("12.9.2-runtime-ubi10").status == CudaTagStatus::unknown);
    CHECK(db().nvidia_cuda_tag("12.8.2-devel-ubuntu22.04").status == CudaTagStatus::published);
    CHECK(db().nvidia_cuda_tag("12.8.2-base-amzn2023").status == CudaTagStatus::published);
    // Public projects pull 12.8.2 -cudnn tags the mirrored tree has no Dockerfile for.
    CHECK(db().nvidia_cuda_tag("12.8.2-cudnn-devel-ubuntu24.04").status ==
          CudaTagStatus::published);
    CHECK(db().nvidia_cuda_tag("12.8.2-cudnn-runtime-ubi9").status == CudaTagStatus::unknown);
    CHECK(db().nvidia_cuda_tag("13.3.0-cudnn-devel-ubuntu24.04").status ==
          CudaTagStatus::published);
    CHECK(db().nvidia_cuda_tag("13.3.0-runtime-ubuntu24.04").status == CudaTagStatus::unknown);
    CHECK(db().nvidia_cuda_tag("13.4.1-cudnn-devel-ubuntu24.04").status == CudaTagStatus::unknown);
    CHECK(db().nvidia_cuda_tag("99.0.0-runtime-ubuntu24.04").status == CudaTagStatus::unknown);
    // NVIDIA has Dockerfiles for opensuse15 but lists no such tag: unknown, not absent.
    CHECK(db().nvidia_cuda_tag("13.1.0-runtime-opensuse15").status == CudaTagStatus::unknown);
    // A listed OS that this release lacks is a tag that never existed.
    CHECK(db().nvidia_cuda_tag("12.4.1-runtime-ubuntu24.04").status ==
          CudaTagStatus::not_published);
    CHECK(db().nvidia_cuda_tag("not-a-tag").status == CudaTagStatus::unknown);
    CHECK(db().nvidia_cuda_tag("12.4.1-").status == CudaTagStatus::unknown);
    CHECK(db().nvidia_cuda_tag("12.4.1").status == CudaTagStatus::unknown);
    // The oldest spelling, a bare major.minor (nvidia/cuda:7.5), went with the OS-less tags.
    CHECK(db().nvidia_cuda_tag("7.5").status == CudaTagStatus::deleted);
}

TEST_CASE("nvidia/cuda: every suggestion is itself published", "[rules][cuda_tags]") {
    for (const auto& row : db().deleted_cuda_image_tags()) {
        for (const auto& [os, flavors] : row.tags) {
            for (const auto& flavor : flavors) {
                std::string tag = row.cuda + "-" + flavor + "-" + os;
                INFO(tag);
                auto a = db().nvidia_cuda_tag(tag);
                CHECK(a.status == CudaTagStatus::deleted);
                REQUIRE_FALSE(a.suggestion.empty());
                CHECK(db().nvidia_cuda_tag(a.suggestion).status == CudaTagStatus::published);
            }
        }
    }
}
