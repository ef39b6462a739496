// Framework smoke probes: the compiled-in scripts, finding the frameworks and
// their interpreters in a real image tree, parsing what the real frameworks
// printed on the GPU machine (testdata/gpu/env/framework_variants.*), the
// findings and the static-vs-live comparison made of them, and the scripts
// run for real by this host's python.
#include "cuvet/sandbox/framework_smoke.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cuvet/core/error.hpp"
#include "cuvet/image/image.hpp"
#include "cuvet/sandbox/framework_findings.hpp"
#include "cuvet/sandbox/framework_runner.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;
using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

const fs::path recorded_dir = fs::path(CUVET_SOURCE_DIR) / "testdata/gpu/env";

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// One framework's run in one variant, as framework_variants.sh recorded it:
// its stdout and stderr (long stderr kept as head and tail).
struct Recorded {
    std::string out, err;
};

std::map<std::string, Recorded> recorded_runs() {
    std::map<std::string, Recorded> runs;
    std::istringstream lines(read_text(recorded_dir / "framework_variants.log"));
    std::string line, key;
    std::string* into = nullptr;
    while (std::getline(lines, line)) {
        if (line.rfind("=== ", 0) == 0) {
            key = line.substr(4, line.find(':') - 4);  // "as_built / jax"
            into = nullptr;
        } else if (line.rfind("########", 0) == 0) {
            key.clear();
            into = nullptr;
        } else if (!key.empty() && line == "--- stdout") {
            into = &runs[key].out;
        } else if (!key.empty() && line == "--- stderr") {
            into = &runs[key].err;
        } else if (into != nullptr) {
            *into += line + "\n";
        }
    }
    return runs;
}

sandbox::SmokeResult recorded_result(const std::string& variant, const std::string& framework) {
    static const std::map<std::string, Recorded> runs = recorded_runs();
    const auto it = runs.find(variant + " / " + framework);
    REQUIRE(it != runs.end());
    sandbox::ProcessResult process;
    process.exit_code = 0;
    process.out = it->second.out;
    process.err = it->second.err;
    const sandbox::SmokeTarget target{framework,
                                      "/opt/torch/.venv/lib/python3.12/site-packages/" + framework,
                                      "/opt/torch/.venv/bin/python3"};
    return sandbox::parse_smoke_result(target, process);
}

report::Finding only_finding(const sandbox::SmokeResult& result) {
    const std::vector<report::Finding> findings = sandbox::smoke_findings(result);
    REQUIRE(findings.size() == 1);
    return findings.front();
}

}  // namespace

TEST_CASE("every framework has a compiled-in smoke script with the shared prelude",
          "[sandbox][frameworks]") {
    for (const std::string& framework : sandbox::smoke_frameworks()) {
        const std::string script = sandbox::smoke_script(framework);
        INFO(framework);
        CHECK_THAT(script, Catch::Contains("CUVET_SMOKE "));
        CHECK_THAT(script, Catch::Contains("/proc/self/maps"));
        CHECK_THAT(script, Catch::Contains("R[\"framework\"] = \"" + framework + "\""));
    }
    CHECK(sandbox::smoke_script("tensorflow").empty());
    CHECK(sandbox::smoke_script("common").empty());
}

TEST_CASE("the --probe-frameworks list names frameworks, auto or none", "[sandbox][frameworks]") {
    CHECK(sandbox::parse_framework_list("torch,jax") == std::vector<std::string>{"torch", "jax"});
    CHECK(sandbox::parse_framework_list("pytorch, cupy,torch") ==
          std::vector<std::string>{"torch", "cupy"});
    CHECK(sandbox::parse_framework_list("auto") == std::vector<std::string>{"auto"});
    CHECK(sandbox::parse_framework_list("none").empty());
    CHECK_THROWS_AS(sandbox::parse_framework_list("torch,tensorflw"), Error);
}

TEST_CASE("frameworks are found with the python that owns their site-packages",
          "[sandbox][frameworks]") {
    TempDir tmp;
    const fs::path root = tmp / "rootfs";
    write_file(root / "usr/bin/python3.12", "#!python\n");
    fs::create_directories(root / "opt/venv/bin");
    fs::create_symlink("/usr/bin/python3.12", root / "opt/venv/bin/python");
    fs::create_symlink("python", root / "opt/venv/bin/python3");
    const std::string venv = "opt/venv/lib/python3.12/site-packages/";
    write_file(root / venv / "torch/__init__.py", "");
    write_file(root / venv / "jax/__init__.py", "");
    write_file(root / venv / "numpy/__init__.py", "");       // not a framework
    write_file(root / venv / "cupy/_core/__init__.py", "");  // a subpackage, not cupy itself
    write_file(root / "usr/lib/python3/dist-packages/onnxruntime/__init__.py", "");
    write_file(root / "usr/bin/python3", "#!python\n");
    write_file(root / "app/lib/cupy/__init__.py", "");
    const auto image = image::open_image(root, {});
    const image::FileTree tree = image->scan({});

    const auto found = sandbox::find_smoke_targets(tree, {"PYTHONPATH=/app/lib:/missing"});
    REQUIRE(found.size() == 4);
    CHECK(found[0].framework == "torch");
    CHECK(found[0].package_dir == "/" + venv + "torch");
    CHECK(found[0].interpreter ==
          "/opt/venv/bin/python3");  // bin/python3.12 is absent; python3 resolves
    CHECK(found[1].framework == "jax");
    CHECK(found[2].framework == "cupy");
    CHECK(found[2].package_dir == "/app/lib/cupy");
    CHECK(found[2].interpreter == "/usr/bin/python3");
    CHECK(found[3].framework == "onnxruntime");
    CHECK(found[3].interpreter == "/usr/bin/python3");

    const auto chosen =
        sandbox::select_targets(found, sandbox::parse_framework_list("jax,onnxruntime"));
    REQUIRE(chosen.size() == 2);
    CHECK(chosen[0].framework == "jax");
    CHECK(sandbox::select_targets(found, sandbox::parse_framework_list("none")).empty());
}

TEST_CASE("recorded GPU runs: working frameworks and what they loaded", "[sandbox][frameworks]") {
    const sandbox::SmokeResult torch = recorded_result("as_built", "torch");
    REQUIRE(torch.parsed);
    CHECK(torch.verdict == "ok");
    CHECK(torch.version == "2.11.0+cu130");
    REQUIRE(torch.cudnn_version);
    CHECK(*torch.cudnn_version == 91900);
    const report::Finding info = only_finding(torch);
    CHECK(info.id == "CUVG16");
    CHECK(info.severity == report::Severity::info);
    CHECK_THAT(
        info.message,
        Catch::Contains(
            "cuDNN 9.19.0 from /opt/torch/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib"));
    CHECK(sandbox::live_verdict(torch) == "works");

    const sandbox::SmokeResult ort = recorded_result("as_built", "onnxruntime");
    CHECK(ort.verdict == "cpu_only_build");
    CHECK(only_finding(ort).severity == report::Severity::info);
    CHECK(sandbox::live_verdict(ort) == "cpu_only_build");

    // XLA names the cuDNN it opened only on stderr.
    const sandbox::SmokeResult jax = recorded_result("toolkit_added", "jax");
    CHECK(jax.verdict == "ok");
    REQUIRE(jax.cudnn_version);
    CHECK(*jax.cudnn_version == 91900);
}

TEST_CASE("recorded GPU runs: each failure in the framework's own words, with the fix",
          "[sandbox][frameworks]") {
    SECTION("torch cannot load cuDNN") {
        const report::Finding finding = only_finding(recorded_result("no_cudnn", "torch"));
        CHECK(finding.id == "CUVG10");
        CHECK(finding.severity == report::Severity::error);
        CHECK_THAT(finding.message,
                   Catch::Contains("libcudnn.so.9: cannot open shared object file"));
    }
    SECTION("torch refuses an older cuDNN found through LD_LIBRARY_PATH") {
        const sandbox::SmokeResult result =
            recorded_result("ld_library_path_system_cudnn", "torch");
        CHECK(result.stage == "cudnn");
        const report::Finding finding = only_finding(result);
        CHECK(finding.id == "CUVG12");
        CHECK_THAT(finding.message, Catch::Contains("cuDNN version incompatibility"));
        CHECK_THAT(finding.message, Catch::Contains("(9, 14, 0)"));
        CHECK_THAT(finding.fix, Catch::Contains("LD_LIBRARY_PATH"));
    }
    SECTION("JAX on the GPU with no ptxas or libdevice where XLA looks") {
        const sandbox::SmokeResult result = recorded_result("as_built", "jax");
        CHECK(result.backend == "gpu");
        const report::Finding finding = only_finding(result);
        CHECK(finding.id == "CUVG12");
        CHECK_THAT(finding.message, Catch::Contains("No candidates could be compiled"));
        CHECK_THAT(finding.message, Catch::Contains("Can't find libdevice directory"));
        CHECK_THAT(finding.fix, Catch::Contains("nvidia-cuda-nvcc"));
    }
    SECTION("JAX silently on the CPU when its plugin cannot find cuDNN") {
        const sandbox::SmokeResult result = recorded_result("no_cudnn", "jax");
        CHECK(result.backend == "cpu");
        const report::Finding finding = only_finding(result);
        CHECK(finding.id == "CUVG11");
        CHECK_THAT(finding.message, Catch::Contains("Jax plugin configuration error"));
        CHECK(sandbox::live_verdict(result) == "cpu");
        bool cudnn_line = false;
        for (const std::string& line : result.framework_messages)
            cudnn_line |= line == "RuntimeError: cuDNN not found.";
        CHECK(cudnn_line);
    }
    SECTION("CuPy cannot find NVRTC") {
        const report::Finding finding = only_finding(recorded_result("nvrtc_removed", "cupy"));
        CHECK(finding.id == "CUVG12");
        CHECK_THAT(finding.message,
                   Catch::Contains("Failure finding \"libnvrtc.so.13 or libnvrtc.so.12\""));
    }
    SECTION("CuPy without the CUDA headers of the runtime wheel") {
        const report::Finding finding =
            only_finding(recorded_result("cuda_runtime_removed", "cupy"));
        CHECK_THAT(finding.message, Catch::Contains("Failed to find CUDA headers"));
        CHECK_THAT(finding.fix, Catch::Contains("nvidia-cuda-runtime"));
        // CuPy's own advice (its hook), naming the wheel extra CuPy's message names.
        CHECK_THAT(finding.fix, Catch::Contains("cupy-cudaNNx[ctk]"));
    }
}

TEST_CASE("every recorded run parses and gets exactly one finding", "[sandbox][frameworks]") {
    std::istringstream lines(read_text(recorded_dir / "framework_variants.jsonl"));
    std::string line;
    int runs = 0;
    while (std::getline(lines, line)) {
        const nlohmann::json row = nlohmann::json::parse(line);
        const std::string variant = row["variant"];
        if (variant == "host") continue;  // recorded without the stdout/stderr markers
        if (row["framework"] == "triton")
            continue;  // the harness's own Triton kernel, not a cuvet probe
        const sandbox::SmokeResult result = recorded_result(variant, row["framework"]);
        INFO(variant << " / " << row["framework"]);
        CHECK(result.parsed);
        CHECK(result.verdict == row["result"]["verdict"]);
        const report::Finding finding = only_finding(result);
        CHECK((finding.severity == report::Severity::error) ==
              (result.verdict == "error" || result.verdict == "cpu_fallback"));
        ++runs;
    }
    CHECK(runs == 68);
}

TEST_CASE("static and live disagreements are findings", "[sandbox][frameworks]") {
    const sandbox::SmokeResult torch_ok = recorded_result("as_built", "torch");
    const sandbox::SmokeResult jax_fails = recorded_result("as_built", "jax");
    report::Finding static_torch;
    static_torch.id = "CUV004";
    static_torch.severity = report::Severity::error;
    static_torch.message = "torch 2.11.0 pins nvidia-cudnn-cu13==9.19.0.56, the image loads 9.14.0";
    report::Finding static_other;
    static_other.id = "CUV001";
    static_other.severity = report::Severity::warning;
    static_other.message = "libfabric.so.1 provider not found";

    SECTION("a finding about jax in a venv at /opt/torch is not about torch") {
        report::Finding jax_static;
        jax_static.id = "CUV007";
        jax_static.severity = report::Severity::error;
        jax_static.message =
            "jax 0.11.2 (/opt/torch/.venv/lib/python3.12/site-packages/jaxlib) is built for CUDA "
            "12";
        jax_static.locations.push_back(
            {"/opt/torch/.venv/lib/python3.12/site-packages/jaxlib", 0, 0});
        CHECK(sandbox::static_findings_for({jax_static}, torch_ok.target).empty());
        CHECK(sandbox::static_findings_for({jax_static}, jax_fails.target).size() == 1);
        CHECK(sandbox::static_live_disagreements({jax_static}, {torch_ok, jax_fails}, std::nullopt,
                                                 "")
                  .empty());
    }
    SECTION("agreement: no finding") {
        const auto out = sandbox::static_live_disagreements({static_other}, {torch_ok},
                                                            std::string("9.19.0"), "wheel");
        CHECK(out.empty());
    }
    SECTION("a static error for a framework that works") {
        const auto out =
            sandbox::static_live_disagreements({static_torch}, {torch_ok}, std::nullopt, "");
        REQUIRE(out.size() == 1);
        CHECK(out[0].id == "CUVG15");
        CHECK_THAT(out[0].message, Catch::Contains("CUV004"));
    }
    SECTION("no static error for a framework that fails") {
        const auto out = sandbox::static_live_disagreements({static_torch, static_other},
                                                            {jax_fails}, std::nullopt, "");
        REQUIRE(out.size() == 1);
        CHECK_THAT(out[0].message, Catch::Contains("found no error for jax"));
    }
    SECTION("a cuDNN other than the inventory's") {
        const auto out = sandbox::static_live_disagreements({}, {torch_ok}, std::string("9.14.0"),
                                                            "dpkg libcudnn9");
        REQUIRE(out.size() == 1);
        CHECK_THAT(
            out[0].message,
            Catch::Contains("loads cuDNN 9.14.0 (dpkg libcudnn9); torch loaded cuDNN 9.19.0 from"));
    }
}

TEST_CASE("the smoke scripts run for real with this host's python", "[sandbox][frameworks]") {
    if (!have_program("python3")) {
        CUVET_SKIP("skipped: no python3 on this host");
    }
    for (const std::string& framework : sandbox::smoke_frameworks()) {
        // Without the framework (or numpy) installed, each script must still end with its result
        // line.
        const fs::path script = fs::temp_directory_path() / ("cuvet_smoke_test_" + framework + "_" +
                                                             std::to_string(::getpid()) + ".py");
        std::ofstream(script) << sandbox::smoke_script(framework);
        const ProcessResult run = run_shell("cd / && python3 -I " + shell_quote(script.string()));
        fs::remove(script);
        INFO(framework << ": " << run.err);
        sandbox::ProcessResult process;
        process.exit_code = run.exit_code;
        process.out = run.out;
        process.err = run.err;
        const sandbox::SmokeResult result = sandbox::parse_smoke_result(
            {framework, "/site-packages/" + framework, "python3"}, process);
        REQUIRE(result.parsed);
        if (result.verdict == "error" && result.stage == "import") {
            CHECK_THAT(result.error, Catch::Contains("No module named"));
            CHECK(only_finding(result).id == "CUVG10");
        }
    }
}

TEST_CASE("the smoke environment keeps the image's settings and adds what keeps python quiet",
          "[sandbox][frameworks]") {
    const auto env = sandbox::smoke_environment({"PATH=/usr/bin", "PYTHONUNBUFFERED=0"});
    CHECK(env == std::vector<std::string>{"PATH=/usr/bin", "PYTHONUNBUFFERED=0",
                                          "PYTHONDONTWRITEBYTECODE=1"});
}
