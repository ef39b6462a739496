// ENTRYPOINT scripts are followed: what a script runs is a root, so a broken
// program that only the script names is an error naming that chain, and the
// same program no script runs is not.
#include <algorithm>
#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

// A program linked to a library the image then lacks: it fails when started.
void broken_program(CudaImage& img, const std::string& path) {
    img.glibc();
    img.fs().lib("/opt/stage/libinfer_engine.so.1", "libinfer_engine.so.1");
    img.fs().exe(path, {"/opt/stage/libinfer_engine.so.1"});
    fs::remove_all(img.fs().host("/opt/stage"));
}

void script(CudaImage& img, const std::string& path, const std::string& text,
            bool executable = true) {
    img.fs().write(path, text);
    if (executable)
        fs::permissions(img.fs().host(path),
                        fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec,
                        fs::perm_options::add);
}

const cuvet::report::Finding* error_for_engine(
    const std::vector<cuvet::report::Finding>& findings) {
    auto it = std::find_if(findings.begin(), findings.end(), [](const auto& f) {
        return f.id == "CUV001" && f.severity == cuvet::report::Severity::error &&
               f.message.find("libinfer_engine.so.1") != std::string::npos;
    });
    return it == findings.end() ? nullptr : &*it;
}

const std::string& loaded_by(const cuvet::report::Finding& f) { return f.loaded_by; }

const std::string entrypoint_sh =
    "#!/bin/sh\n"
    "# wait for the model store, then hand over to the server\n"
    "set -e\n"
    "if [ -n \"$MODEL_DIR\" ]; then\n"
    "  echo \"models in $MODEL_DIR\"\n"
    "fi\n"
    "exec /opt/app/bin/server \"$@\"\n";

}  // namespace

TEST_CASE("ENTRYPOINT scripts: the program a script execs is a root", "[validate][roots]") {
    SECTION("exec from a shebang script: the error names the script and the program") {
        CudaImage img;
        broken_program(img, "/opt/app/bin/server");
        script(img, "/docker-entrypoint.sh", entrypoint_sh);
        img.entrypoint = {"/docker-entrypoint.sh"};
        img.cmd = {"--port", "8000"};
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        const auto* f = error_for_engine(findings);
        REQUIRE(f != nullptr);
        CHECK(loaded_by(*f).find("ENTRYPOINT /docker-entrypoint.sh") == 0);
        CHECK(loaded_by(*f).find("/opt/app/bin/server") != std::string::npos);
    }
    SECTION("the same program when the script runs something else: no error") {
        CudaImage img;
        broken_program(img, "/opt/app/bin/server");
        script(img, "/docker-entrypoint.sh", "#!/bin/sh\nexec /opt/app/bin/healthcheck \"$@\"\n");
        img.entrypoint = {"/docker-entrypoint.sh"};
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        CHECK(error_for_engine(findings) == nullptr);
    }
}

TEST_CASE("ENTRYPOINT scripts: neighbours in WORKDIR, sourced files, `sh file` and tini",
          "[validate][roots]") {
    SECTION(
        "`exec ./server` from WORKDIR: the scan reads the script's neighbours though no bin dir "
        "holds them") {
        CudaImage img;
        broken_program(img, "/srv/model/server");
        script(img, "/srv/model/run.sh", "#!/usr/bin/env bash\nexec ./server --threads 4\n");
        img.working_dir = "/srv/model";
        img.cmd = {"./run.sh"};
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        const auto* f = error_for_engine(findings);
        REQUIRE(f != nullptr);
        CHECK(loaded_by(*f).find("CMD ./run.sh") == 0);
    }
    SECTION("CMD [\"bash\", \"start.sh\"] without a shebang, `. env.sh`, then `tini -- server`") {
        CudaImage img;
        broken_program(img, "/opt/app/bin/server");
        script(img, "/opt/app/env.sh", "#!/bin/sh\nexport MODEL_DIR=/models\n", false);
        script(img, "/opt/app/start.sh",
               ". /opt/app/env.sh\n/usr/bin/tini -s -- /opt/app/launch.sh\n", false);
        script(img, "/opt/app/launch.sh", "#!/bin/bash\nexec gosu app /opt/app/bin/server\n");
        img.cmd = {"bash", "/opt/app/start.sh"};
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        const auto* f = error_for_engine(findings);
        REQUIRE(f != nullptr);
        CHECK(loaded_by(*f).find("/opt/app/launch.sh") != std::string::npos);
    }
}

TEST_CASE("ENTRYPOINT scripts: what the script surely exports is the workload's environment",
          "[validate][roots]") {
    auto image_with = [](CudaImage& img, const std::string& exports) {
        img.glibc();
        img.fs().lib("/opt/engine/lib/libinfer_engine.so.1", "libinfer_engine.so.1");
        img.fs().exe("/opt/app/bin/server", {"/opt/engine/lib/libinfer_engine.so.1"});
        script(img, "/docker-entrypoint.sh",
               "#!/bin/sh\nset -e\nif [ -n \"$DEBUG\" ]; then\n  export "
               "LD_LIBRARY_PATH=/opt/engine/lib\nfi\n" +
                   exports + "exec /opt/app/bin/server \"$@\"\n");
        img.entrypoint = {"/docker-entrypoint.sh"};
        REQUIRE(img.fs().error().empty());
    };
    SECTION("an unconditional `export LD_LIBRARY_PATH=…` finds the engine") {
        CudaImage img;
        image_with(img, "export LD_LIBRARY_PATH=/opt/engine/lib:$LD_LIBRARY_PATH\n");
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        CHECK(error_for_engine(findings) == nullptr);
    }
    SECTION("an export only under `if` may not run: the engine is not found") {
        CudaImage img;
        image_with(img, "");
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        CHECK(error_for_engine(findings) != nullptr);
    }
}

TEST_CASE("Python entry scripts: the packages they import are loaded by the entry",
          "[validate][roots]") {
    const std::string site = "/usr/local/lib/python3.11/site-packages";
    auto image_with_engine = [&](CudaImage& img) {
        img.glibc();
        // An extension module linked to a library the image then lacks: `import myengine` fails.
        img.fs().lib("/opt/stage/libinfer_engine.so.1", "libinfer_engine.so.1");
        img.fs().lib(site + "/myengine/_core.cpython-311-x86_64-linux-gnu.so",
                     "_core.cpython-311-x86_64-linux-gnu.so", {"/opt/stage/libinfer_engine.so.1"});
        fs::remove_all(img.fs().host("/opt/stage"));
    };
    const std::string serve =
        "import os, sys\nfrom myengine._core import run  # the engine\n\nrun(sys.argv)\n";
    SECTION("`python serve.py` from WORKDIR") {
        CudaImage img;
        image_with_engine(img);
        script(img, "/app/serve.py", serve, false);
        img.working_dir = "/app";
        img.cmd = {"python3", "-u", "serve.py", "--port", "8000"};
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        const auto* f = error_for_engine(findings);
        REQUIRE(f != nullptr);
        CHECK(loaded_by(*f) == "CMD python3 -u serve.py --port 8000 → import myengine");
    }
    SECTION("a script with a python shebang as ENTRYPOINT") {
        CudaImage img;
        image_with_engine(img);
        script(img, "/opt/app/serve", "#!/usr/bin/env python3\n" + serve);
        img.entrypoint = {"/opt/app/serve"};
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        const auto* f = error_for_engine(findings);
        REQUIRE(f != nullptr);
        CHECK(loaded_by(*f) == "ENTRYPOINT /opt/app/serve → import myengine");
    }
    SECTION("a script that does not import it: the package is still a root of its own") {
        CudaImage img;
        image_with_engine(img);
        script(img, "/app/serve.py", "import json\nprint(json.dumps({}))\n", false);
        img.cmd = {"python3", "/app/serve.py"};
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        const auto* f = error_for_engine(findings);
        REQUIRE(f != nullptr);
        CHECK(loaded_by(*f) == "imported by myengine");
    }
}
