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

namespace {

// Extension modules where the framework catalog recognises torch 2.11 and JAX 0.11.2 (their
// version files), each linking the real libcudnn.so.9: the releases rules/cudnn.json
// consumer_needs measured on the GPU machine (run 13).
void torch_and_jax(RealCudnn& cudnn) {
    cudnn.framework_module("torch", "__version__ = '2.11.0+cu130'\n");
    cudnn.framework_module("jaxlib", "_version = \"0.11.2\"\n");
}

std::vector<const Finding*> naming(const std::vector<const Finding*>& findings,
                                   const std::string& label) {
    std::vector<const Finding*> out;
    for (const auto* f : findings)
        if (names(*f, label)) out.push_back(f);
    return out;
}

}  // namespace

// Run 13: torch 2.11's conv2d opens only the graph and engine libraries, JAX's opens
// libcudnn_ops as well, neither opens libcudnn_cnn; a C++ program is judged by cuDNN's split.
TEST_CASE("CUV019: each consumer is judged by the sub-libraries its own convolution opens",
          "[checks][cuv019][real][sublib-need]") {
    RealCudnn cudnn;
    torch_and_jax(cudnn);
    cudnn.module("convnet");
    // An extension of another package that reaches cuDNN only through torch's library (as
    // torchvision's does through libtorch_cuda): its convolution is torch's.
    const std::string torch_lib = RealCudnn::site + "/torch/lib";
    cudnn.rootfs.lib(torch_lib + "/libtorch_cuda.so", "libtorch_cuda.so",
                     {RealCudnn::dir + "/libcudnn.so.9"}, "-Wl,-rpath," + RealCudnn::dir);
    cudnn.rootfs.lib(RealCudnn::site + "/vision/_C.cpython-310-x86_64-linux-gnu.so", "_C.so",
                     {torch_lib + "/libtorch_cuda.so"}, "-Wl,-rpath," + torch_lib);
    if (!cudnn.rootfs.error().empty()) cudnn.unavailable = cudnn.rootfs.error();
    if (!cudnn.unavailable.empty()) CUVET_SKIP("skipped: " << cudnn.unavailable);

    SECTION("libcudnn_cnn removed: a warning for torch and JAX, an error for the program") {
        cudnn.remove("libcudnn_cnn.so.9");
        const auto findings = findings_of(cudnn);
        INFO(describe_findings(findings));
        const auto found = of(findings, "CUV019");
        for (const std::string label : {"imported by torch", "imported by jaxlib"}) {
            const auto mine = naming(found, label);
            REQUIRE(mine.size() == 1);
            CHECK(mine.front()->severity == Severity::warning);
            CHECK_THAT(mine.front()->message, Catch::Contains("Convolution works") &&
                                                  Catch::Contains("legacy convolution API"));
        }
        const auto program = naming(found, "imported by convnet");
        REQUIRE(program.size() == 1);
        CHECK(program.front()->severity == Severity::error);
        CHECK_FALSE(names(*program.front(), "imported by torch"));
        CHECK_FALSE(names(*program.front(), "imported by vision"));
        const auto vision = naming(found, "imported by vision");
        REQUIRE(vision.size() == 1);
        CHECK(vision.front()->severity == Severity::warning);
        CHECK(names(*vision.front(), "imported by torch"));
    }
    SECTION("libcudnn_ops removed: a warning for torch and JAX, and no second finding") {
        // Run 14: both convolutions ran right without libcudnn_ops. libcudnn_cnn links it, but
        // only the shim opens libcudnn_cnn: neither CUV001 nor CUV008 may report that link.
        cudnn.remove("libcudnn_ops.so.9");
        const auto findings = findings_of(cudnn);
        INFO(describe_findings(findings));
        const auto found = of(findings, "CUV019");
        for (const std::string label : {"imported by torch", "imported by jaxlib"}) {
            const auto mine = naming(found, label);
            REQUIRE(mine.size() == 1);
            CHECK(mine.front()->severity == Severity::warning);
            CHECK_THAT(mine.front()->message, Catch::Contains("graph API"));
        }
        const auto program = naming(found, "imported by convnet");
        REQUIRE(program.size() == 1);
        CHECK(program.front()->severity == Severity::error);
        CHECK_THAT(program.front()->message,
                   !Catch::Contains("2.11.0") && !Catch::Contains("0.11.2"));
        for (const auto* f : of(findings, "CUV001"))
            CHECK(f->message.find("libcudnn_ops.so.9") == std::string::npos);
        CHECK(of(findings, "CUV008").empty());
    }
    SECTION("libcudnn_heuristic removed: an error for torch and the program, a warning for JAX") {
        // Run 14: torch's conv2d ran and returned wrong numbers; JAX's fell back and was right.
        cudnn.remove("libcudnn_heuristic.so.9");
        const auto findings = findings_of(cudnn);
        INFO(describe_findings(findings));
        const auto found = of(findings, "CUV019");
        const auto torch = naming(found, "imported by torch");
        REQUIRE(torch.size() == 1);
        CHECK(torch.front()->severity == Severity::error);
        CHECK_THAT(torch.front()->message, Catch::Contains("2.11.0") &&
                                               Catch::Contains("convnet") &&
                                               !Catch::Contains("0.11.2"));
        const auto jax = naming(found, "imported by jaxlib");
        REQUIRE(jax.size() == 1);
        CHECK(jax.front()->severity == Severity::warning);
    }
}
