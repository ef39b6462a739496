// CUV019 with the build machine's real cuDNN 9: sub-libraries the shim dlopen()s by name,
// removed or found elsewhere on the path, judged by what each serves.
#include <algorithm>
#include <catch2/catch.hpp>

#include "cuvet/config/config.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/validate/validate.hpp"
#include "support/cuda_image.hpp"
#include "support/real_cudnn.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;
using cuvet::report::Finding;
using cuvet::report::Severity;

namespace {

std::vector<Finding> findings_of(RealCudnn& cudnn, std::vector<std::string> env = {}) {
    static const auto db = cuvet::rules::Database::load();
    cuvet::validate::Options options;
    options.env_overrides = std::move(env);
    return cuvet::validate::validate(cudnn.rootfs.root().string(), options, db,
                                     cuvet::config::Config{})
        .findings;
}

std::vector<const Finding*> of(const std::vector<Finding>& findings, const std::string& id) {
    std::vector<const Finding*> out;
    for (const auto& f : findings)
        if (f.id == id) out.push_back(&f);
    return out;
}

bool names(const Finding& f, const std::string& label) {
    return f.loaded_by == label || std::find(f.evidence.begin(), f.evidence.end(),
                                             "also loaded: " + label) != f.evidence.end();
}

}  // namespace

TEST_CASE("CUV019: the real cuDNN 9 shim without the sub-libraries a convolution needs",
          "[checks][cuv019][real]") {
    RealCudnn cudnn;
    cudnn.module("convnet");
    cudnn.module("seqnet");
    if (!cudnn.unavailable.empty()) CUVET_SKIP("skipped: " << cudnn.unavailable);

    SECTION("the whole install: every sub-library resolves beside the shim") {
        const auto findings = findings_of(cudnn);
        INFO(describe_findings(findings));
        CHECK(of(findings, "CUV019").empty());
        CHECK(of(findings, "CUV005").empty());
    }
    SECTION("libcudnn_cnn and libcudnn_ops deleted: an error naming both consumers") {
        cudnn.remove("libcudnn_cnn.so.9");
        cudnn.remove("libcudnn_ops.so.9");
        const auto findings = findings_of(cudnn);
        INFO(describe_findings(findings));
        const auto found = of(findings, "CUV019");
        REQUIRE(found.size() == 1);
        const auto& f = *found.front();
        CHECK(f.severity == Severity::error);
        CHECK(f.message.find("libcudnn_cnn.so.9") != std::string::npos);
        CHECK(f.message.find("libcudnn_ops.so.9") != std::string::npos);
        CHECK(f.message.find("CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED") != std::string::npos);
        CHECK(names(f, "imported by convnet"));
        CHECK(names(f, "imported by seqnet"));
        // CUV001 leaves the shim's sub-libraries to CUV019.
        for (const auto* other : of(findings, "CUV001"))
            CHECK(other->message.find("libcudnn_cnn.so.9") == std::string::npos);
    }
    SECTION("only libcudnn_adv deleted: a warning naming the APIs that break") {
        cudnn.remove("libcudnn_adv.so.9");
        const auto findings = findings_of(cudnn);
        INFO(describe_findings(findings));
        const auto found = of(findings, "CUV019");
        REQUIRE(found.size() == 1);
        CHECK(found.front()->severity == Severity::warning);
        CHECK(found.front()->message.find("RNN") != std::string::npos);
        CHECK(found.front()->message.find("Convolution works") != std::string::npos);
    }
    SECTION("a sub-library missing beside the shim but on LD_LIBRARY_PATH loads from there") {
        cudnn.link_into("libcudnn_cnn.so.9", "/opt/extra");
        cudnn.remove("libcudnn_cnn.so.9");
        REQUIRE(cudnn.unavailable.empty());
        CHECK(of(findings_of(cudnn), "CUV019").size() == 1);
        const auto findings = findings_of(cudnn, {"LD_LIBRARY_PATH=/opt/extra"});
        INFO(describe_findings(findings));
        CHECK(of(findings, "CUV019").empty());
    }
}

// rules/cudnn.json does not know whether a convolution needs the runtime-compiled engines: the
// warning must not claim that convolution works.
TEST_CASE("CUV019: a missing sub-library of unknown use is no promise that convolution works",
          "[checks][cuv019][real][sublibs]") {
    RealCudnn cudnn;
    cudnn.module("convnet");
    if (!cudnn.unavailable.empty()) CUVET_SKIP("skipped: " << cudnn.unavailable);
    cudnn.remove("libcudnn_engines_runtime_compiled.so.9");
    const auto findings = findings_of(cudnn);
    INFO(describe_findings(findings));
    const auto found = of(findings, "CUV019");
    REQUIRE(found.size() == 1);
    CHECK(found.front()->severity == Severity::warning);
    CHECK(found.front()->message.find("Convolution works") == std::string::npos);
    CHECK(found.front()->message.find("is unknown") != std::string::npos);
}
