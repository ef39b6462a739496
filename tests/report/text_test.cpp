#include <catch2/catch.hpp>

#include "cuvet/core/error.hpp"
#include "report_fixture.hpp"

using namespace cuvet;

TEST_CASE("text report groups by severity, errors first", "[report][text]") {
    std::string out = test::render("text", test::sample_findings(), test::sample_context());
    CHECK(out.rfind("cuvet validate image.tar: 3 findings (1 error, 1 warning, 1 info)\n", 0) == 0);
    auto errors = out.find("\nerrors\n");
    auto warnings = out.find("\nwarnings\n");
    auto info = out.find("\ninfo\n");
    REQUIRE(errors != std::string::npos);
    REQUIRE(warnings != std::string::npos);
    REQUIRE(info != std::string::npos);
    CHECK(errors < warnings);
    CHECK(warnings < info);
    CHECK(out.find("  CUV001  A needed library") != std::string::npos);
    CHECK(out.find("          tried /etc/ld.so.cache: no entry\n") != std::string::npos);
    CHECK(out.find("        at Dockerfile:7\n") != std::string::npos);
    CHECK(out.find("        fix: Install libcudnn8") != std::string::npos);
    CHECK(out.find("        second line\n") != std::string::npos);
    CHECK(out.find('\033') == std::string::npos);  // no colour unless asked
}

TEST_CASE("text report colours only when asked", "[report][text]") {
    auto context = test::sample_context();
    context.color = true;
    std::string out = test::render("text", test::sample_findings(), context);
    CHECK(out.find("\033[31mCUV001\033[0m") != std::string::npos);
}

TEST_CASE("colour follows the terminal and NO_COLOR", "[report][text]") {
    CHECK(report::want_color(true, nullptr));
    CHECK(report::want_color(true, ""));  // no-color.org: only a non-empty value disables
    CHECK_FALSE(report::want_color(true, "1"));
    CHECK_FALSE(report::want_color(false, nullptr));
}

TEST_CASE("a clean report says so", "[report][text]") {
    std::string out = test::render("text", {}, test::sample_context());
    CHECK(out == "cuvet validate image.tar: no findings\n");
}

TEST_CASE("an unknown format is a usage error", "[report]") {
    try {
        report::make_renderer("yaml");
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::usage);
        CHECK(std::string(e.what()).find("sarif") != std::string::npos);
    }
}

TEST_CASE("compact text report: summary line, then message, root and fix per finding",
          "[report][text]") {
    auto findings = test::sample_findings();
    findings.back().loaded_by = "ENTRYPOINT /opt/app/bin/infer";
    auto context = test::sample_context();
    context.verbose = false;
    context.summary = "runs ENTRYPOINT /opt/app/bin/infer; CUDA 12.x (libcudart.so.12); no cuDNN";
    std::string out = test::render("text", findings, context);
    INFO(out);
    CHECK(out.rfind("cuvet validate image.tar: runs ENTRYPOINT /opt/app/bin/infer; CUDA 12.x "
                    "(libcudart.so.12); no cuDNN; "
                    "verdict: it breaks — 3 findings (1 error, 1 warning, 1 info)\n",
                    0) == 0);
    CHECK(out.find("  CUV001  libcudnn.so.8 needed by /opt/app/lib tf/libtf.so: not found\n"
                   "        root: ENTRYPOINT /opt/app/bin/infer\n"
                   "        fix: Install libcudnn8") != std::string::npos);
    CHECK(out.find("        at Dockerfile:7\n") != std::string::npos);  // Dockerfile lines stay
    CHECK(out.find("tried") == std::string::npos);  // evidence only with --verbose
    CHECK(out.find("A needed library") == std::string::npos);
    CHECK(out.find("at /opt/app") == std::string::npos);
}

TEST_CASE("text report: thousands of findings of one check are summarised, JSON keeps them all",
          "[report][text]") {
    // 2000 libraries each missing the same library, and one other finding.
    auto findings = test::sample_findings();
    const report::Finding model = findings.back();  // CUV001
    REQUIRE(model.id == "CUV001");
    findings.pop_back();
    for (int i = 0; i < 2000; ++i) {
        report::Finding missing = model;
        const std::string name =
            "/opt/lib" + std::to_string(10000 + i) + ".so";  // sorted as numbered
        missing.message = "libcudnn.so.8 needed by " + name + ": not found";
        missing.locations = {{name, 0, 0}};
        findings.push_back(missing);
    }
    for (bool verbose : {false, true}) {
        INFO("verbose " << verbose);
        auto context = test::sample_context();
        context.verbose = verbose;
        const std::string text = test::render("text", findings, context);
        CHECK(text.find("2002 findings (2000 errors, 1 warning, 1 info)") != std::string::npos);
        // The first 20 CUV001 findings in full, then one line for the rest.
        CHECK(text.find("/opt/lib10019.so") != std::string::npos);
        CHECK(text.find("/opt/lib10020.so") == std::string::npos);
        CHECK(text.find("  CUV001  … and 1980 more CUV001 findings (every one is in --format json "
                        "or sarif)\n") != std::string::npos);
        CHECK(text.find("CUV003") != std::string::npos);  // other checks unaffected
        CHECK(text.find("CUV014") != std::string::npos);
        CHECK(text.size() < 20000);
    }
    const std::string json = test::render("json", findings, test::sample_context());
    CHECK(json.find("/opt/lib11999.so") != std::string::npos);
}

TEST_CASE("text report: a check with exactly the shown number of findings gets no summary line",
          "[report][text]") {
    auto findings = test::sample_findings();
    const report::Finding model = findings.back();
    for (int i = 1; i < 20; ++i) findings.push_back(model);  // 20 CUV001 in all
    const std::string text = test::render("text", findings, test::sample_context());
    CHECK(text.find("more CUV001") == std::string::npos);
    findings.push_back(model);
    CHECK(test::render("text", findings, test::sample_context())
              .find("… and 1 more CUV001 finding (") != std::string::npos);
}
