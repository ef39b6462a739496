// NGC PyTorch months filled from NVIDIA's TensorRT-LLM install scripts (their versions "align with"
// the release notes), TensorRT-LLM's upgrade pull requests and projects that ran the images: each
// value as its source gives it, the CUDA minor alone where no source names the update.
#include <catch2/catch.hpp>

#include "rules/rules_fixtures.hpp"

using namespace cuvet::test;

TEST_CASE("NGC PyTorch 24.02-25.10 rows hold what their sources say", "[rules][ngc]") {
    struct Expected {
        const char* release;
        const char* cuda;
        const char* cudnn;  // "" = unknown
    };
    const Expected rows[] = {
        {"24.02", "12.3", "9.0"},          // two projects that ran it (minors only)
        {"24.07", "12.5.1", "9.2.1.18"},   // TensorRT-LLM install script (rel-24-07)
        {"24.10", "12.6", ""},             // projects that ran it
        {"24.11", "12.6", "9.5.1"},        // projects that ran it
        {"24.12", "12.6", ""},             // the 24.12-py3-igpu tag of the release
        {"25.01", "12.8.0", "9.7.0.66"},   // TensorRT-LLM install script (rel-25-01)
        {"25.02", "12.8", ""},             // torch.version.cuda in four projects
        {"25.03", "12.8.1", "9.8"},        // TensorRT-LLM#3216; a README quoting the notes
        {"25.04", "12.9", ""},             // projects that ran it (one measured nvcc 12.9.41)
        {"25.05", "12.9", ""},             // projects that ran it
        {"25.06", "12.9.1", ""},           // TensorRT-LLM#5678
        {"25.08", "13.0.0", "9.12.0.46"},  // TensorRT-LLM install script (rel-25-08)
        {"25.09", "13.0", ""},             // torch.version.cuda
        {"25.10", "13.0.2", ""},           // a guide quoting the notes for 25.10-py3-igpu
    };
    for (const auto& e : rows) {
        INFO(e.release);
        const auto* pt =
            db().ngc_container("nvcr.io/nvidia/pytorch", std::string(e.release) + "-py3");
        REQUIRE(pt);
        REQUIRE(pt->cuda);
        CHECK(pt->cuda->str() == e.cuda);
        if (*e.cudnn)
            CHECK(pt->cudnn->str() == e.cudnn);
        else
            CHECK_FALSE(pt->cudnn);
        CHECK(pt->provenance.confidence == "secondary");
        CHECK_FALSE(pt->min_driver_branch);  // no source read gives the driver sentence
    }
    // The torch builds the observers print, without the .nvYY.MM suffix.
    CHECK(db().ngc_container("pytorch", "25.02")->framework_version == "2.7.0a0+ecf3bae40a");
    CHECK(db().ngc_container("pytorch", "25.08")->framework_version == "2.8.0a0+34c6371d24");
    CHECK(db().ngc_container("pytorch", "25.09")->framework_version == "2.9.0a0+50eac811a6");
    // 25.07: no source names a PyTorch 25.07 release; no row.
    CHECK_FALSE(db().ngc_container("pytorch", "25.07"));
}

TEST_CASE("NGC PyTorch 26.x rows: torch builds and cuDNN from the later sources", "[rules][ngc]") {
    CHECK(db().ngc_container("pytorch", "26.01")->framework_version == "2.10.0a0+a36e1d39eb");
    CHECK(db().ngc_container("pytorch", "26.03")->cudnn->str() ==
          "9.20.0");  // cudnn.version() 92000
    CHECK(db().ngc_container("pytorch", "26.06")->cudnn->str() == "9.23.0.39");
    CHECK(db().ngc_container("pytorch", "26.07")->framework_version == "2.13.0a0+9186a08b2c");
    const auto* pt2608 = db().ngc_container("pytorch", "26.08");
    REQUIRE(pt2608);
    CHECK(pt2608->cudnn->str() == "9.25.0.28");
    CHECK(pt2608->framework_version == "2.14.0a0");
    // 25.12's row is the release notes (primary); its cuDNN stays unread there.
    CHECK_FALSE(db().ngc_container("pytorch", "25.12")->cudnn);
}

TEST_CASE("NGC PyTorch 23.12 and JAX 25.10 from projects that name their contents",
          "[rules][ngc]") {
    const auto* pt2312 = db().ngc_container("pytorch", "23.12-py3");
    REQUIRE(pt2312);
    CHECK(pt2312->cuda->str() == "12.3.2");
    CHECK(pt2312->framework_version.empty());  // named only as "pytroch 2.2"
    const auto* jax2510 = db().ngc_container("nvcr.io/nvidia/jax", "25.10-py3");
    REQUIRE(jax2510);
    CHECK(jax2510->cuda->str() == "13.0.2");
    CHECK(jax2510->framework_version == "0.7.2");
    // A neighbouring month keeps its unknowns: nothing is carried over.
    CHECK_FALSE(db().ngc_container("jax", "25.09")->cuda);
}
