#include <algorithm>
#include <catch2/catch.hpp>

#include "cuvet/config/config.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/validate/validate.hpp"
#include "support/cuda_image.hpp"
#include "support/framework_wheels.hpp"
#include "support/gpu_oracle.hpp"
#include "support/real_cudnn.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;

namespace {

const std::string multiarch_lib_dir = "/usr/lib/x86_64-linux-gnu";

const cuvet::report::Finding* first(const std::vector<cuvet::report::Finding>& findings,
                                    const std::string& id, cuvet::report::Severity severity) {
    for (const auto& f : findings)
        if (f.id == id && f.severity == severity) return &f;
    return nullptr;
}

// cuDNN 9 as the wheel lays it out (libcudnn.so.9 with RUNPATH $ORIGIN dlopen()s the
// sub-libraries; libcudnn_ops.so.9 needs libcudnn_graph.so.9) and as the dpkg package does
// (versioned files, soname links); torch's libtorch_cuda.so finds the wheel's through its
// DT_RPATH, which LD_LIBRARY_PATH does not beat (the H100 machine: torch 2.11, 9.19 / 9.14).
// `system_names`: the libraries the dpkg cuDNN ships (all three unless a test strips it).
void torch_with_two_cudnns(CudaImage& img, const std::vector<std::string>& system_names = {
                                               "libcudnn_graph", "libcudnn_ops", "libcudnn"}) {
    img.glibc();
    const std::string wheel = site_packages + "/nvidia/cudnn/lib";
    const std::string origin = "-Wl,--enable-new-dtags,-rpath,'$ORIGIN'";
    img.fs().lib(wheel + "/libcudnn_graph.so.9", "libcudnn_graph.so.9", {}, origin);
    img.fs().lib(wheel + "/libcudnn_ops.so.9", "libcudnn_ops.so.9",
                 {wheel + "/libcudnn_graph.so.9"}, origin);
    img.fs().lib(wheel + "/libcudnn.so.9", "libcudnn.so.9", {}, origin);
    dist_info(img.fs(), site_packages, "nvidia_cudnn_cu13", "9.19.0.56");
    for (const auto& name : system_names) {
        std::vector<std::string> needs;
        // The real libcudnn_ops.so.9 links libcudnn_graph.so.9 (DT_NEEDED); a lone one finds
        // the graph library already loaded, of the other release.
        if (name == "libcudnn_ops")
            needs = {system_names.size() > 1 ? multiarch_lib_dir + "/libcudnn_graph.so.9.14.0"
                                             : wheel + "/libcudnn_graph.so.9"};
        img.fs().lib(multiarch_lib_dir + "/" + name + ".so.9.14.0", name + ".so.9", needs);
        img.fs().symlink(multiarch_lib_dir + "/" + name + ".so.9", name + ".so.9.14.0");
    }
    img.dpkg("libcudnn9-cuda-13", "9.14.0.64-1");
    img.torch("2.11.0+cu130", "13.0", {});
    img.fs().write(site_packages + "/torch-2.11.0+cu130.dist-info/METADATA",
                   "Metadata-Version: 2.1\nName: torch\nVersion: 2.11.0+cu130\n"
                   "Requires-Dist: nvidia-cudnn-cu13==9.19.0.56; platform_system == \"Linux\"\n\n");
    img.fs().lib(site_packages + "/torch/lib/libtorch_cuda.so", "libtorch_cuda.so",
                 {wheel + "/libcudnn.so.9"},
                 "-Wl,--disable-new-dtags,-rpath,'$ORIGIN/../../nvidia/cudnn/lib'");
}

}  // namespace

TEST_CASE("CUV005: libcudnn.so.8.9.7 next to libcudnn_ops_infer.so.8.6.0", "[validate][cuv005]") {
    for (bool mixed : {true, false}) {
        CudaImage img;
        img.glibc();
        img.cudnn(multiarch_lib_dir, "8.9.7", "", mixed ? "8.6.0" : "8.9.7");
        // What the image runs links that cuDNN.
        img.fs().exe("/opt/app/bin/infer", {multiarch_lib_dir + "/libcudnn.so.8.9.7"});
        img.entrypoint = {"/opt/app/bin/infer"};
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        CHECK(ids_of(findings).count("CUV005") == (mixed ? 1u : 0u));
        for (const auto& f : findings)
            if (f.id == "CUV005") {
                CHECK(f.severity == cuvet::report::Severity::error);
                CHECK(f.message.find("libcudnn_ops_infer.so.8.6.0") != std::string::npos);
                CHECK(f.loaded_by == "ENTRYPOINT /opt/app/bin/infer");
            }
    }
}

TEST_CASE("CUV005: a mixed cuDNN nothing loads is one info finding", "[validate][cuv005]") {
    CudaImage img;
    img.glibc();
    // A leftover copy (an old install under /opt) beside the consistent cuDNN the app loads.
    img.cudnn("/opt/old/cudnn/lib", "8.9.7", "", "8.6.0");
    img.cudnn(multiarch_lib_dir, "8.9.7");
    img.fs().exe("/opt/app/bin/infer", {multiarch_lib_dir + "/libcudnn.so.8.9.7"});
    img.entrypoint = {"/opt/app/bin/infer"};
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    REQUIRE(ids_of(findings).count("CUV005") == 1);
    const auto* f = first(findings, "CUV005", cuvet::report::Severity::info);
    REQUIRE(f != nullptr);
    CHECK(f->message.find("/opt/old/cudnn/lib") != std::string::npos);
    CHECK(f->message.find("nothing in the image loads them") != std::string::npos);
    CHECK(f->loaded_by.empty());
}

TEST_CASE("CUV005: LD_LIBRARY_PATH to the dpkg cuDNN mixes the one torch loads, and names torch",
          "[validate][cuv005]") {
    for (bool ld_library_path : {true, false}) {
        CudaImage img;
        torch_with_two_cudnns(img);
        if (ld_library_path) img.env.push_back("LD_LIBRARY_PATH=" + multiarch_lib_dir);
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        const auto* error = first(findings, "CUV005", cuvet::report::Severity::error);
        if (!ld_library_path) {
            // Each cuDNN finds its own sub-libraries: no mix in what runs.
            CHECK(error == nullptr);
            continue;
        }
        REQUIRE(error != nullptr);
        // libcudnn.so.9 of the wheel, which torch maps, dlopen()s the 9.14 sub-libraries.
        CHECK(error->loaded_by == "imported by torch");
        CHECK(error->message.find("libcudnn.so.9 -> " + multiarch_lib_dir + "/libcudnn_") !=
              std::string::npos);
        CHECK(error->message.find("9.19.0") != std::string::npos);
        CHECK(error->message.find("9.14.0") != std::string::npos);
        // cuDNN answers its version from the 9.14 graph library: torch refuses it, in the words
        // the real torch 2.11 printed in this variant on the H100.
        // With LD_LIBRARY_PATH set, torch appends a hint worded by the path: the quote elides it.
        const std::string real = recorded_framework_error("ld_library_path_system_cudnn", "torch");
        const auto hint =
            real.find(" one possibility is that there is a conflicting cuDNN in LD_LIBRARY_PATH.");
        REQUIRE(real.rfind("cuDNN version incompatibility:", 0) == 0);
        REQUIRE(hint != std::string::npos);
        CHECK_THAT(
            error->message,
            Catch::Contains("pytorch 2.11.0 (built with cuDNN 9.19.0.56) then sees cuDNN 9.14.0") &&
                Catch::Contains("\"" + real.substr(0, hint) + " …\""));
    }
}

// The mix LD_LIBRARY_PATH makes is judged per consumer like a mix in one directory: only
// libcudnn_ops of the dpkg 9.14 beats the wheel's RUNPATH, and torch 2.11's convolution never
// opens it (rules/cudnn.json consumer_needs, runs 13 and 14): a warning naming the API, no error.
TEST_CASE("CUV005: LD_LIBRARY_PATH to another release's libcudnn_ops spares torch's convolution",
          "[validate][cuv005][sublib-need]") {
    CudaImage img;
    torch_with_two_cudnns(img, {"libcudnn_ops"});
    img.env.push_back("LD_LIBRARY_PATH=" + multiarch_lib_dir);
    REQUIRE(img.fs().error().empty());
    auto findings = validate_findings(img.write());
    INFO(describe_findings(findings));
    CHECK(first(findings, "CUV005", cuvet::report::Severity::error) == nullptr);
    const auto* warning = first(findings, "CUV005", cuvet::report::Severity::warning);
    REQUIRE(warning != nullptr);
    CHECK(warning->loaded_by == "imported by torch");
    CHECK_THAT(warning->message, Catch::Contains("loads parts of cuDNN 9.14.0") &&
                                     Catch::Contains("Convolution works") &&
                                     Catch::Contains("tensor descriptors"));
}

// The build machine's real cuDNN 9 with a libcudnn_graph whose release constant says another
// release than the files beside it (its name says nothing: cuDNN checks the constant).
TEST_CASE("CUV005: a real cuDNN 9 whose graph library is of another release",
          "[checks][cuv005][real]") {
    RealCudnn cudnn;
    cudnn.module("convnet");
    if (!cudnn.unavailable.empty()) CUVET_SKIP("skipped: " << cudnn.unavailable);
    const auto other = cudnn.other_release("libcudnn_graph.so.9");
    REQUIRE(!other.empty());
    static const auto db = cuvet::rules::Database::load();
    const auto findings =
        cuvet::validate::validate(cudnn.rootfs.root().string(), {}, db, cuvet::config::Config{})
            .findings;
    INFO(describe_findings(findings));
    const cuvet::report::Finding* mix = nullptr;
    for (const auto& f : findings)
        if (f.id == "CUV005" && f.severity == cuvet::report::Severity::error) mix = &f;
    REQUIRE(mix != nullptr);
    CHECK(mix->message.find(other) != std::string::npos);
    CHECK(mix->message.find(cudnn.version) != std::string::npos);
    CHECK(mix->message.find("CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH") != std::string::npos);
    CHECK(mix->loaded_by == "imported by convnet");
}

// Only libcudnn_adv of another release: the RNN, CTC loss and attention APIs refuse it
// (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH), the convolution path never loads it.
TEST_CASE("CUV005: a real cuDNN 9 whose adv library is of another release is a warning",
          "[checks][cuv005][real][sublibs]") {
    RealCudnn cudnn;
    cudnn.module("convnet");
    if (!cudnn.unavailable.empty()) CUVET_SKIP("skipped: " << cudnn.unavailable);
    static const auto db = cuvet::rules::Database::load();
    auto mixes = [&] {
        std::vector<cuvet::report::Finding> out;
        for (auto& f : cuvet::validate::validate(cudnn.rootfs.root().string(), {}, db,
                                                 cuvet::config::Config{})
                           .findings)
            if (f.id == "CUV005") out.push_back(std::move(f));
        return out;
    };
    SECTION("adv only: a warning naming the APIs that break") {
        const auto other = cudnn.other_release("libcudnn_adv.so.9");
        REQUIRE(!other.empty());
        const auto found = mixes();
        INFO(describe_findings(found));
        REQUIRE(found.size() == 1);
        CHECK(found.front().severity == cuvet::report::Severity::warning);
        CHECK_THAT(found.front().message,
                   Catch::Contains("CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH") &&
                       Catch::Contains("Convolution works") && Catch::Contains("RNN") &&
                       Catch::Contains(other));
        CHECK(found.front().loaded_by == "imported by convnet");
    }
    SECTION("cnn, which a convolution needs: an error") {
        cudnn.name_as_release("libcudnn_cnn.so.9", "9.1.0");
        const auto found = mixes();
        INFO(describe_findings(found));
        REQUIRE(found.size() == 1);
        CHECK(found.front().severity == cuvet::report::Severity::error);
        CHECK(found.front().message.find("Convolution works") == std::string::npos);
    }
}

// The wheel's layout: every file named by its soname, so only what the libraries state says
// which release each is (libcudnn_graph's and libcudnn_ops' exported constants here).
TEST_CASE("CUV005: a real cuDNN 9 named by sonames only, whose ops library states another release",
          "[checks][cuv005][real][sublibs]") {
    RealCudnn cudnn;
    cudnn.module("convnet");
    if (!cudnn.unavailable.empty()) CUVET_SKIP("skipped: " << cudnn.unavailable);
    cudnn.bare_names();
    static const auto db = cuvet::rules::Database::load();
    auto mixes = [&] {
        std::vector<cuvet::report::Finding> out;
        for (auto& f : cuvet::validate::validate(cudnn.rootfs.root().string(), {}, db,
                                                 cuvet::config::Config{})
                           .findings)
            if (f.id == "CUV005") out.push_back(std::move(f));
        return out;
    };
    SECTION("the whole release: no mix") { CHECK(mixes().empty()); }
    SECTION("libcudnn_ops of another release: an error naming both releases") {
        const auto other = cudnn.other_release("libcudnn_ops.so.9");
        REQUIRE(!other.empty());
        const auto found = mixes();
        INFO(describe_findings(found));
        REQUIRE(found.size() == 1);
        CHECK(found.front().severity == cuvet::report::Severity::error);
        CHECK_THAT(found.front().message,
                   Catch::Contains(other) && Catch::Contains(cudnn.version) &&
                       Catch::Contains("libcudnn_ops.so.9") &&
                       Catch::Contains("CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH"));
        CHECK(found.front().loaded_by == "imported by convnet");
    }
    SECTION("libcudnn_adv of another release: the install keeps the graph library's release") {
        const auto other = cudnn.other_release("libcudnn_adv.so.9");
        REQUIRE(!other.empty());
        const auto found = mixes();
        INFO(describe_findings(found));
        REQUIRE(found.size() == 1);
        CHECK(found.front().severity == cuvet::report::Severity::warning);
        CHECK_THAT(found.front().message, Catch::Contains(other + " (libcudnn_adv.so.9)"));
    }
}

// Runs 13 and 14: libcudnn_ops of another release beside a 9.19 cuDNN left torch 2.11's and
// JAX 0.11.2's convolutions working (torch never opens libcudnn_ops; JAX falls back without
// it); a C++ program is judged by cuDNN's split. One error naming the program, a warning for
// each framework.
TEST_CASE("CUV005: a mixed libcudnn_ops is judged per consumer",
          "[checks][cuv005][real][sublib-need]") {
    RealCudnn cudnn;
    cudnn.framework_module("torch", "__version__ = '2.11.0+cu130'\n");
    cudnn.framework_module("jaxlib", "_version = \"0.11.2\"\n");
    cudnn.module("convnet");
    if (!cudnn.unavailable.empty()) CUVET_SKIP("skipped: " << cudnn.unavailable);
    cudnn.bare_names();
    REQUIRE_FALSE(cudnn.other_release("libcudnn_ops.so.9").empty());
    static const auto db = cuvet::rules::Database::load();
    std::vector<cuvet::report::Finding> mixes;
    for (auto& f :
         cuvet::validate::validate(cudnn.rootfs.root().string(), {}, db, cuvet::config::Config{})
             .findings)
        if (f.id == "CUV005") mixes.push_back(std::move(f));
    INFO(describe_findings(mixes));
    auto names = [](const cuvet::report::Finding& f, const std::string& label) {
        return f.loaded_by == label || std::find(f.evidence.begin(), f.evidence.end(),
                                                 "also loaded: " + label) != f.evidence.end();
    };
    const auto* error = first(mixes, "CUV005", cuvet::report::Severity::error);
    REQUIRE(error != nullptr);
    CHECK(names(*error, "imported by convnet"));
    CHECK_FALSE(names(*error, "imported by jaxlib"));
    CHECK_FALSE(names(*error, "imported by torch"));
    // One warning per framework need, each saying which API breaks and that convolution works.
    std::vector<const cuvet::report::Finding*> warnings;
    for (const auto& f : mixes)
        if (f.severity == cuvet::report::Severity::warning) warnings.push_back(&f);
    REQUIRE(warnings.size() == 2);
    for (const std::string label : {"imported by torch", "imported by jaxlib"}) {
        const auto it = std::find_if(warnings.begin(), warnings.end(),
                                     [&](const auto* f) { return names(*f, label); });
        REQUIRE(it != warnings.end());
        CHECK_THAT((*it)->message, Catch::Contains("Convolution works") &&
                                       Catch::Contains("graph API") &&
                                       Catch::Contains("tensor descriptors"));
    }
    CHECK(mixes.size() == 3);
}
