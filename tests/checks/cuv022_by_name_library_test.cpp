// CUV022: libraries a CUDA library dlopen()s by a name in its own strings. nvrtc's builtins with
// the build machine's real libnvrtc (skipped when absent); TensorRT's builder resource and
// NCCL's network plugin with libraries gcc builds here that carry the same names.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cuvet/config/config.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/validate/validate.hpp"
#include "support/cuda_image.hpp"
#include "support/rootfs_builder.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;
using cuvet::report::Finding;
using cuvet::report::Severity;
namespace fs = std::filesystem;

namespace {

const std::string by_name_site = "/usr/local/lib/python3.10/site-packages";
const fs::path by_name_lib64 = "/usr/local/cuda/lib64";

std::vector<Finding> by_name_findings(const Rootfs& rootfs, std::vector<std::string> env = {}) {
    static const auto db = cuvet::rules::Database::load();
    cuvet::validate::Options options;
    options.env_overrides = std::move(env);
    return cuvet::validate::validate(rootfs.root().string(), options, db, cuvet::config::Config{})
        .findings;
}

std::vector<const Finding*> by_name_of(const std::vector<Finding>& findings,
                                       const std::string& id) {
    std::vector<const Finding*> out;
    for (const auto& f : findings)
        if (f.id == id) out.push_back(&f);
    return out;
}

bool by_name_says(const Finding& f, const std::string& words) {
    return f.message.find(words) != std::string::npos;
}

std::string by_name_read_all(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

// `bytes` with every `from` by_name_replaced by `to` (same length: the file's layout stays).
std::string by_name_replaced(std::string bytes, const std::string& from, const std::string& to) {
    for (auto at = bytes.find(from); at != std::string::npos; at = bytes.find(from, at + 1))
        bytes.replace(at, from.size(), to);
    return bytes;
}

// The real libnvrtc.so.13 and its builtins ("libnvrtc-builtins.so.13.0") hard linked into
// /opt/nvrtc/lib, and a Python extension module of package "kernels" linking libnvrtc.
struct RealNvrtc {
    static inline const std::string dir = "/opt/nvrtc/lib";
    Rootfs rootfs;
    std::string builtins;  // its file name, the name libnvrtc opens
    std::string unavailable;

    RealNvrtc() {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(by_name_lib64, ec)) {
            const auto name = entry.path().filename().string();
            if (name.starts_with("libnvrtc-builtins.so.") && !entry.is_symlink()) builtins = name;
        }
        if (builtins.empty() || !fs::exists(by_name_lib64 / "libnvrtc.so.13", ec)) {
            unavailable = "no libnvrtc.so.13 and builtins under " + by_name_lib64.string();
            return;
        }
        rootfs.mkdir(dir);
        for (const auto& name : {std::string("libnvrtc.so.13"), builtins}) {
            fs::create_hard_link(fs::canonical(by_name_lib64 / name), rootfs.host(dir + "/" + name),
                                 ec);
            if (ec) {
                unavailable = "cannot hard-link " + name + ": " + ec.message();
                return;
            }
        }
        rootfs.lib(by_name_site + "/kernels/_C.cpython-310-x86_64-linux-gnu.so", "_C.so",
                   {dir + "/libnvrtc.so.13"}, "-Wl,-rpath," + dir);
        if (!rootfs.error().empty()) unavailable = rootfs.error();
    }
    void remove_builtins() {
        std::error_code ec;
        fs::remove(rootfs.host(dir + "/" + builtins), ec);
    }
    // The name of the next minor's builtins ("libnvrtc-builtins.so.13.1").
    std::string other_minor() const {
        std::string other = builtins;
        other.back() = other.back() == '9' ? '8' : static_cast<char>(other.back() + 1);
        return other;
    }
    // The real builtins made into the next minor's as that release names itself (SONAME and
    // entry functions, __nvrtc_builtins__13_1_…; same length), written as `file_name`.
    void write_other_minor_as(const std::string& file_name) {
        const auto version = builtins.substr(std::string("libnvrtc-builtins.so.").size());
        const auto other = other_minor().substr(std::string("libnvrtc-builtins.so.").size());
        auto underscored = [](std::string v) {
            std::replace(v.begin(), v.end(), '.', '_');
            return "__nvrtc_builtins__" + v + "_";
        };
        auto bytes =
            by_name_replaced(by_name_read_all(by_name_lib64 / builtins), builtins, other_minor());
        bytes = by_name_replaced(bytes, underscored(version), underscored(other));
        std::ofstream(rootfs.host(dir + "/" + file_name), std::ios::binary) << bytes;
    }
};

}  // namespace

TEST_CASE("CUV022: the real libnvrtc without its builtins of the same release",
          "[checks][cuv022][real]") {
    RealNvrtc nvrtc;
    if (!nvrtc.unavailable.empty()) CUVET_SKIP("skipped: " << nvrtc.unavailable);

    SECTION("the whole release: nothing to say") {
        const auto findings = by_name_findings(nvrtc.rootfs);
        INFO(describe_findings(findings));
        CHECK(by_name_of(findings, "CUV022").empty());
    }
    SECTION("the builtins deleted: nvrtc's own words, naming the module that loads nvrtc") {
        nvrtc.remove_builtins();
        const auto findings = by_name_findings(nvrtc.rootfs);
        INFO(describe_findings(findings));
        const auto found = by_name_of(findings, "CUV022");
        REQUIRE(found.size() == 1);
        CHECK(found.front()->severity == Severity::error);
        CHECK(by_name_says(*found.front(), "nvrtc: error: failed to open " + nvrtc.builtins));
        CHECK(found.front()->loaded_by == "imported by kernels");
        // One cause, one finding: CUV001 leaves a by-name load to CUV022.
        for (const auto* unresolved : by_name_of(findings, "CUV001"))
            CHECK_FALSE(by_name_says(*unresolved, "libnvrtc-builtins"));
    }
    SECTION("only the next minor's builtins beside it: never opened, an error") {
        nvrtc.remove_builtins();
        nvrtc.write_other_minor_as(nvrtc.other_minor());
        const auto findings = by_name_findings(nvrtc.rootfs);
        INFO(describe_findings(findings));
        const auto found = by_name_of(findings, "CUV022");
        REQUIRE(found.size() == 1);
        CHECK(by_name_says(*found.front(), "failed to open " + nvrtc.builtins));
    }
    SECTION("the next minor's builtins renamed to this release's name: its SONAME gives it away") {
        nvrtc.remove_builtins();
        nvrtc.write_other_minor_as(nvrtc.builtins);
        const auto findings = by_name_findings(nvrtc.rootfs);
        INFO(describe_findings(findings));
        const auto found = by_name_of(findings, "CUV022");
        REQUIRE(found.size() == 1);
        CHECK(found.front()->severity == Severity::error);
        CHECK(by_name_says(*found.front(), nvrtc.other_minor() + " (its SONAME)"));
        CHECK(by_name_says(*found.front(), "is corrupted, can't find entry functions"));
    }
}

TEST_CASE("CUV022: the real libcublas without libcublasLt is CUV001's (a DT_NEEDED)",
          "[checks][cuv022][real]") {
    std::error_code ec;
    if (!fs::exists(by_name_lib64 / "libcublas.so.13", ec) ||
        !fs::exists(by_name_lib64 / "libcublasLt.so.13", ec))
        CUVET_SKIP("skipped: no libcublas.so.13 and libcublasLt.so.13 under "
                   << by_name_lib64.string());
    Rootfs rootfs;
    const std::string dir = "/opt/cublas/lib";
    rootfs.mkdir(dir);
    for (const char* name : {"libcublas.so.13", "libcublasLt.so.13"})
        fs::create_hard_link(fs::canonical(by_name_lib64 / name), rootfs.host(dir + "/" + name),
                             ec);
    REQUIRE_FALSE(ec);
    rootfs.lib(by_name_site + "/matmul/_C.cpython-310-x86_64-linux-gnu.so", "_C.so",
               {dir + "/libcublas.so.13"}, "-Wl,-rpath," + dir);
    REQUIRE(rootfs.error().empty());
    fs::remove(rootfs.host(dir + "/libcublasLt.so.13"), ec);
    const auto findings = by_name_findings(rootfs);
    INFO(describe_findings(findings));
    const auto unresolved = by_name_of(findings, "CUV001");
    const auto lt = std::find_if(unresolved.begin(), unresolved.end(), [](const Finding* f) {
        return by_name_says(*f, "libcublasLt.so.13 is needed by");
    });
    REQUIRE(lt != unresolved.end());
    CHECK((*lt)->severity == Severity::error);
    CHECK(by_name_of(findings, "CUV022").empty());
}

namespace {

// libnvinfer.so.10 built here: its .rodata holds the builder resource's full name, as
// TensorRT's does ("Unable to load library: libnvinfer_builder_resource.so.10.7.0").
void by_name_tensorrt(Rootfs& rootfs, const std::string& dir) {
    rootfs.lib_source(dir + "/libnvinfer.so.10", "libnvinfer.so.10",
                      "#include <dlfcn.h>\n"
                      "void *createInferBuilder(void) {\n"
                      "  return dlopen(\"libnvinfer_builder_resource.so.10.7.0\", RTLD_NOW);\n"
                      "}\n");
    rootfs.lib(by_name_site + "/builder/_C.cpython-310-x86_64-linux-gnu.so", "_C.so",
               {dir + "/libnvinfer.so.10"}, "-Wl,-rpath," + dir);
}

}  // namespace

TEST_CASE("CUV022: TensorRT's builder resource of exactly its release", "[checks][cuv022]") {
    Rootfs rootfs;
    const std::string dir = "/opt/tensorrt/lib";
    by_name_tensorrt(rootfs, dir);
    // TensorRT's libraries carry no RUNPATH (since 8.4): its directory is found through
    // LD_LIBRARY_PATH, as NVIDIA's install guide sets it.
    const std::vector<std::string> env = {"LD_LIBRARY_PATH=" + dir};
    SECTION("present: nothing to say") {
        rootfs.lib(dir + "/libnvinfer_builder_resource.so.10.7.0",
                   "libnvinfer_builder_resource.so.10.7.0");
        REQUIRE(rootfs.error().empty());
        const auto findings = by_name_findings(rootfs, env);
        INFO(describe_findings(findings));
        CHECK(by_name_of(findings, "CUV022").empty());
    }
    SECTION("absent: engine builds fail, in TensorRT's words") {
        REQUIRE(rootfs.error().empty());
        const auto findings = by_name_findings(rootfs, env);
        INFO(describe_findings(findings));
        const auto found = by_name_of(findings, "CUV022");
        REQUIRE(found.size() == 1);
        CHECK(found.front()->severity == Severity::error);
        CHECK(by_name_says(*found.front(),
                           "Unable to load library: libnvinfer_builder_resource.so.10.7.0"));
        CHECK(by_name_says(*found.front(), "building TensorRT engines"));
        CHECK(found.front()->loaded_by == "imported by builder");
    }
    SECTION("10.6.0's resource renamed to 10.7.0: another release") {
        rootfs.lib(dir + "/libnvinfer_builder_resource.so.10.7.0",
                   "libnvinfer_builder_resource.so.10.6.0");
        REQUIRE(rootfs.error().empty());
        const auto findings = by_name_findings(rootfs, env);
        INFO(describe_findings(findings));
        const auto found = by_name_of(findings, "CUV022");
        REQUIRE(found.size() == 1);
        CHECK(by_name_says(*found.front(), "libnvinfer_builder_resource.so.10.6.0 (its SONAME)"));
    }
}

TEST_CASE("CUV022: NCCL without a network plugin is the normal case", "[checks][cuv022]") {
    Rootfs rootfs;
    const std::string dir = "/opt/nccl/lib";
    rootfs.lib_source(dir + "/libnccl.so.2", "libnccl.so.2",
                      "#include <dlfcn.h>\n"
                      "void *ncclNetPluginLoad(void) { return dlopen(\"libnccl-net.so\", "
                      "RTLD_NOW); }\n");
    rootfs.lib(by_name_site + "/collectives/_C.cpython-310-x86_64-linux-gnu.so", "_C.so",
               {dir + "/libnccl.so.2"}, "-Wl,-rpath," + dir);
    REQUIRE(rootfs.error().empty());
    const auto findings = by_name_findings(rootfs);
    INFO(describe_findings(findings));
    CHECK(by_name_of(findings, "CUV022").empty());
    for (const auto& f : findings) CHECK_FALSE(by_name_says(f, "libnccl-net"));
}
