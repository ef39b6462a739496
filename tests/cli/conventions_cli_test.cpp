// What users of hadolint, trivy and git expect, run as the real binary:
// suggestions for typos, version, flags from CUVET_*, -o and --no-color for
// lint, progress, completions, the man page and the generated check docs.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cuvet/checks/registry.hpp"
#include "support/process.hpp"
#include "support/sample_image.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet;

namespace {

// A Dockerfile with one warning finding: torch installed without a version (CUVL03).
const char* const broken_dockerfile =
    "FROM nvidia/cuda:12.2.0-runtime-ubuntu22.04\n"
    "RUN pip install torch\n";

test::ProcessResult cuvet_env(const std::string& assignments, const std::vector<std::string>& args,
                              const std::string& cwd = "") {
    std::string command = cwd.empty() ? "" : "cd " + test::shell_quote(cwd) + " && ";
    command += "env " + assignments + " " + test::shell_quote(CUVET_BINARY_PATH);
    for (const auto& arg : args) command += " " + test::shell_quote(arg);
    return test::run_shell(command);
}

}  // namespace

TEST_CASE("a misspelt command gets a suggestion and exit 2", "[cli][conventions]") {
    auto typo = test::run_cuvet({"valdate", "x.tar"});
    CHECK(typo.exit_code == 2);
    CHECK(typo.err == "cuvet: error: unknown command 'valdate'; did you mean 'validate'?\n");
    auto far = test::run_cuvet({"frobnicate"});
    CHECK(far.exit_code == 2);
    CHECK(far.err.find("unknown command 'frobnicate' (cuvet --help lists the commands)") !=
          std::string::npos);
    CHECK(test::run_cuvet({"lnit"}).err.find("did you mean 'lint'?") != std::string::npos);
}

TEST_CASE("cuvet version, -V and --version print the same line", "[cli][conventions]") {
    auto version = test::run_cuvet({"version"});
    REQUIRE(version.exit_code == 0);
    CHECK(version.out == std::string("cuvet ") + CUVET_VERSION + "\n");
    CHECK(test::run_cuvet({"-V"}).out == version.out);
    CHECK(test::run_cuvet({"--version"}).out == version.out);
}

TEST_CASE("an unknown option is named as an option of its command", "[cli][conventions]") {
    auto unknown = test::run_cuvet({"validate", "--bogus", "x.tar"});
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.err.find("unknown option '--bogus' for 'cuvet validate'") != std::string::npos);
    auto typo = test::run_cuvet({"lint", "--fial-on", "warning", "Dockerfile"});
    CHECK(typo.exit_code == 2);
    CHECK(typo.err.find("unknown option '--fial-on' for 'cuvet lint'; did you mean '--fail-on'?") !=
          std::string::npos);
    auto nested = test::run_cuvet({"cache", "prune", "--everything"});
    CHECK(nested.err.find("unknown option '--everything' for 'cuvet cache prune'") !=
          std::string::npos);
}

TEST_CASE("every option of lint and validate comes from CUVET_<FLAG>, the command line wins",
          "[cli][conventions]") {
    test::TempDir dir;
    test::write_file(dir / "Dockerfile", broken_dockerfile);
    // The Dockerfile has a warning: exit 0 by default, 1 from --fail-on warning.
    auto plain = cuvet_env("", {"lint", "Dockerfile"}, dir.path().string());
    INFO(plain.out << plain.err);
    REQUIRE(plain.exit_code == 0);
    REQUIRE(plain.out.find("warning") != std::string::npos);

    auto json = cuvet_env("CUVET_FORMAT=json", {"lint", "Dockerfile"}, dir.path().string());
    CHECK(nlohmann::json::parse(json.out)["command"] == "lint");
    CHECK(
        cuvet_env("CUVET_FAIL_ON=warning", {"lint", "Dockerfile"}, dir.path().string()).exit_code ==
        1);
    CHECK(cuvet_env("CUVET_FAIL_ON=warning", {"lint", "--fail-on", "error", "Dockerfile"},
                    dir.path().string())
              .exit_code == 0);
    auto bad = cuvet_env("CUVET_FAIL_ON=sometimes", {"lint", "Dockerfile"}, dir.path().string());
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("sometimes") != std::string::npos);

    // Lists take commas; each id is ignored.
    auto all = nlohmann::json::parse(
        cuvet_env("CUVET_FORMAT=json", {"lint", "Dockerfile"}, dir.path().string()).out);
    std::string ids;
    for (const auto& finding : all["findings"])
        ids += (ids.empty() ? "" : ",") + finding["id"].get<std::string>();
    auto ignored = cuvet_env("CUVET_FORMAT=json CUVET_IGNORE=" + test::shell_quote(ids),
                             {"lint", "Dockerfile"}, dir.path().string());
    CHECK(nlohmann::json::parse(ignored.out)["findings"].empty());

    // Validate: the output file from the environment.
    auto out = cuvet_env(
        "CUVET_OUTPUT=" + test::shell_quote((dir / "env.json").string()) + " CUVET_FORMAT=json",
        {"validate", (dir / "missing.tar").string()});
    CHECK(out.exit_code == 3);  // the image is missing: the env options parsed
}

TEST_CASE("lint -o writes the report to a file, an unwritable one is exit 3 naming it",
          "[cli][conventions]") {
    test::TempDir dir;
    test::write_file(dir / "Dockerfile", broken_dockerfile);
    const std::string report = (dir / "lint.sarif").string();
    auto written =
        test::run_cuvet({"lint", "-o", report, "--format", "sarif", (dir / "Dockerfile").string()});
    CHECK(written.exit_code == 0);
    CHECK(written.out.empty());
    CHECK(nlohmann::json::parse(test::read_file(report))["version"] == "2.1.0");
    const std::string nowhere = (dir / "no/such/dir/out.txt").string();
    auto unwritable = test::run_cuvet({"lint", "--output", nowhere, (dir / "Dockerfile").string()});
    CHECK(unwritable.exit_code == 3);
    CHECK(unwritable.err.find(nowhere + ": cannot write") != std::string::npos);
}

TEST_CASE("lint --no-color turns colours off on a terminal, as NO_COLOR does",
          "[cli][conventions]") {
    if (!test::have_program("script")) {
        CUVET_SKIP("no script(1) to give cuvet a terminal");
    }
    test::TempDir dir;
    test::write_file(dir / "Dockerfile", broken_dockerfile);
    auto on_tty = [&](const std::string& env, const std::string& flags) {
        std::string inner = "env -u NO_COLOR " + env + " " + test::shell_quote(CUVET_BINARY_PATH) +
                            " lint " + flags + " " +
                            test::shell_quote((dir / "Dockerfile").string());
        return test::run_shell("script -qec " + test::shell_quote(inner) + " /dev/null").out;
    };
    CHECK(on_tty("", "").find("\033[") !=
          std::string::npos);  // the control: a terminal gets colour
    CHECK(on_tty("", "--no-color").find("\033[") == std::string::npos);
    CHECK(on_tty("NO_COLOR=1", "").find("\033[") == std::string::npos);
    CHECK(on_tty("CUVET_NO_COLOR=1", "").find("\033[") == std::string::npos);
}

TEST_CASE("validate --progress shows layers and bytes read on stderr", "[cli][conventions]") {
    auto sample = test::built_sample_image();
    if (sample.empty()) {
        CUVET_SKIP("no sample image built");
    }
    auto quiet = test::run_cuvet({"validate", "--no-cache", sample.string()});
    CHECK(quiet.err.empty());  // not a terminal: nothing unless asked
    auto shown = test::run_cuvet({"validate", "--no-cache", "--progress", sample.string()});
    INFO(shown.err);
    CHECK(shown.err.find("layers, ") != std::string::npos);
    CHECK(shown.err.find(" read, ") != std::string::npos);
    CHECK(shown.err.find("(done)") != std::string::npos);
    CHECK(shown.out == quiet.out);
}

TEST_CASE("bash completion is valid and completes commands, options and formats",
          "[cli][completion]") {
    test::TempDir dir;
    auto script = test::run_cuvet({"completion", "bash"});
    REQUIRE(script.exit_code == 0);
    test::write_file(dir / "cuvet.bash", script.out);
    auto complete = [&](const std::string& words, int current) {
        std::string program = "source " + test::shell_quote((dir / "cuvet.bash").string()) +
                              "; COMP_WORDS=(" + words +
                              "); COMP_CWORD=" + std::to_string(current) +
                              "; _cuvet; echo \"${COMPREPLY[*]}\"";
        return test::run_shell("bash -c " + test::shell_quote(program)).out;
    };
    CHECK(complete("cuvet val", 1) == "validate\n");
    CHECK(complete("cuvet validate --fail", 2) == "--fail-on\n");
    CHECK(complete("cuvet validate --format ''", 3).find("codeclimate") != std::string::npos);
    CHECK(complete("cuvet cache pr", 2) == "prune\n");
    CHECK(complete("cuvet cache prune --", 3).find("--max-size") != std::string::npos);
    // Every option validate has is offered.
    auto offered = complete("cuvet validate --", 2);
    for (const char* option : {"--dockerfile", "--probe-timeout", "--no-color", "--progress",
                               "--output", "--no-cache"}) {
        INFO(option);
        CHECK(offered.find(option) != std::string::npos);
    }
}

TEST_CASE("zsh and fish completions parse in their shells", "[cli][completion]") {
    for (const char* shell : {"zsh", "fish"}) {
        auto script = test::run_cuvet({"completion", shell});
        REQUIRE(script.exit_code == 0);
        CHECK(script.out.find("validate") != std::string::npos);
        CHECK(script.out.find("fail-on") != std::string::npos);
        if (!test::have_program(shell)) {
            WARN("skipped parsing: no " << shell);
            continue;
        }
        test::TempDir dir;
        test::write_file(dir / "completion", script.out);
        auto parsed = test::run_shell(std::string(shell) + " -n " +
                                      test::shell_quote((dir / "completion").string()));
        INFO(parsed.err);
        CHECK(parsed.exit_code == 0);
    }
    CHECK(test::run_cuvet({"completion", "tcsh"}).exit_code == 2);
}

TEST_CASE("the man page documents every command, option and its environment variable",
          "[cli][man]") {
    auto man = test::run_cuvet({"man"});
    REQUIRE(man.exit_code == 0);
    CHECK(man.out.rfind(".TH CUVET 1", 0) == 0);
    for (const char* text :
         {"cuvet validate IMAGE", "cuvet lint", "cuvet cache prune", "\\-\\-fail\\-on",
          "CUVET_FAIL_ON", "CUVET_FORMAT", "REGISTRY_AUTH_FILE", "EXIT STATUS"}) {
        INFO(text);
        CHECK(man.out.find(text) != std::string::npos);
    }
    CHECK(man.out.find("cuvet docs") == std::string::npos);  // hidden commands stay hidden
    if (!test::have_program("groff")) return;
    test::TempDir dir;
    test::write_file(dir / "cuvet.1", man.out);
    auto rendered = test::run_shell("groff -man -Tutf8 -ww -z " +
                                    test::shell_quote((dir / "cuvet.1").string()));
    INFO(rendered.err);
    CHECK(rendered.exit_code == 0);
    CHECK(rendered.err.empty());
}

TEST_CASE("docs/checks equals what `cuvet docs checks` generates from the checks", "[cli][docs]") {
    test::TempDir dir;
    auto generated = test::run_cuvet({"docs", "checks", dir.path().string()});
    REQUIRE(generated.exit_code == 0);
    const std::filesystem::path committed = std::filesystem::path(CUVET_SOURCE_DIR) / "docs/checks";
    std::size_t pages = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        const auto name = entry.path().filename();
        INFO(name << ": regenerate with `build/cuvet docs checks docs/checks`");
        REQUIRE(std::filesystem::exists(committed / name));
        CHECK(test::read_file(committed / name) == test::read_file(entry.path()));
        ++pages;
    }
    CHECK(pages == checks::all_checks().size() + 1);  // and README.md
    std::size_t committed_pages = 0;
    for (const auto& entry : std::filesystem::directory_iterator(committed))
        committed_pages += entry.is_regular_file();
    CHECK(committed_pages == pages);  // no page of a check that is gone
}

TEST_CASE("cmake --install puts cuvet, cuvet-probe, completions, man page and docs in place",
          "[cli][install]") {
    if (!test::have_program("cmake")) return;
    test::TempDir prefix;
    auto installed = test::run_shell("cmake --install " + test::shell_quote(CUVET_BUILD_DIR) +
                                     " --prefix " + test::shell_quote(prefix.path().string()));
    INFO(installed.out << installed.err);
    REQUIRE(installed.exit_code == 0);
    for (const char* file :
         {"bin/cuvet", "libexec/cuvet/cuvet-probe", "share/bash-completion/completions/cuvet",
          "share/zsh/vendor-completions/_cuvet", "share/fish/vendor_completions.d/cuvet.fish",
          "share/man/man1/cuvet.1", "share/doc/cuvet/ci.md", "share/doc/cuvet/checks/CUV001.md"}) {
        INFO(file);
        CHECK(std::filesystem::exists(prefix / file));
    }
    // The installed cuvet finds its probe in ../libexec/cuvet.
    auto self_test =
        test::run_shell(test::shell_quote((prefix / "bin/cuvet").string()) + " probe --self-test");
    INFO(self_test.out << self_test.err);
    CHECK(self_test.err.find("cuvet-probe not found") == std::string::npos);
    CHECK(test::read_file(prefix / "share/bash-completion/completions/cuvet") ==
          test::run_cuvet({"completion", "bash"}).out);
}
