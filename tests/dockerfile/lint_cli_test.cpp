// `cuvet lint` end to end: the real binary, real files, exit codes, formats.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

const char* bad_dockerfile =
    "FROM nvidia/cuda:12.4.1-cudnn8-runtime-ubuntu22.04\n"
    "RUN pip install torch\n";
const char* clean_dockerfile =
    "FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04\n"
    "RUN pip install torch==2.5.1\n";

}  // namespace

TEST_CASE("cuvet lint: findings, exit codes and --fail-on", "[lint][cli]") {
    TempDir dir;
    write_file(dir / "Dockerfile.bad", bad_dockerfile);
    write_file(dir / "Dockerfile.ok", clean_dockerfile);
    auto r = run_cuvet({"lint", (dir / "Dockerfile.bad").string()});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains("CUVL09") && Catch::Contains("CUVL03"));
    CHECK_THAT(r.out, Catch::Contains("Dockerfile.bad:1"));

    r = run_cuvet({"lint", (dir / "Dockerfile.ok").string()});
    CHECK(r.exit_code == 0);
    r = run_cuvet({"lint", "--fail-on", "never", (dir / "Dockerfile.bad").string()});
    CHECK(r.exit_code == 0);
    r = run_cuvet({"lint", "--fail-on", "bogus", (dir / "Dockerfile.bad").string()});
    CHECK(r.exit_code == 2);
    r = run_cuvet({"lint", "--ignore", "CUVL09", (dir / "Dockerfile.bad").string()});
    CHECK(r.exit_code == 0);  // only the CUVL03 warning is left; default threshold is error
    r = run_cuvet(
        {"lint", "--fail-on", "warning", "--ignore", "CUVL09", (dir / "Dockerfile.bad").string()});
    CHECK(r.exit_code == 1);
}

TEST_CASE("cuvet lint: several files, stdin, formats", "[lint][cli]") {
    TempDir dir;
    write_file(dir / "a", bad_dockerfile);
    write_file(dir / "b", clean_dockerfile);
    auto r = run_cuvet({"lint", "--format", "json", (dir / "a").string(), (dir / "b").string()});
    CHECK(r.exit_code == 1);
    auto json = nlohmann::json::parse(r.out, nullptr, false);
    REQUIRE_FALSE(json.is_discarded());
    CHECK_THAT(r.out, Catch::Contains("CUVL09"));

    r = run_shell("printf 'FROM nvidia/cuda:12.4.1-cudnn8-devel-ubuntu22.04\\n' | " +
                  shell_quote(CUVET_BINARY_PATH) + " lint --format gnu -");
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains("<stdin>:1"));

    for (std::string format : {"sarif", "junit", "checkstyle", "text"}) {
        r = run_cuvet({"lint", "--format", format, (dir / "a").string()});
        INFO(format << ": " << r.err);
        CHECK(r.exit_code == 1);
        CHECK_THAT(r.out, Catch::Contains("CUVL09"));
    }
    r = run_cuvet({"lint", "--format", "yaml", (dir / "a").string()});
    CHECK(r.exit_code == 2);
    // -f, as every other command spells it.
    r = run_cuvet({"lint", "-f", "json", (dir / "a").string()});
    CHECK(r.exit_code == 1);
    CHECK_FALSE(nlohmann::json::parse(r.out, nullptr, false).is_discarded());
}

TEST_CASE("cuvet lint: .cuvet.yaml drivers and ignores", "[lint][cli]") {
    TempDir dir;
    write_file(dir / "Dockerfile", "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n");
    write_file(dir / "cuvet.yaml", "targets:\n  drivers: [\"470.82.01\"]\n");
    auto r = run_cuvet(
        {"lint", "--config", (dir / "cuvet.yaml").string(), (dir / "Dockerfile").string()});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains("CUVL08"));
    write_file(dir / "cuvet.yaml", "targets:\n  drivers: [\"470.82.01\"]\nignore: [CUVL08]\n");
    r = run_cuvet(
        {"lint", "--config", (dir / "cuvet.yaml").string(), (dir / "Dockerfile").string()});
    CHECK(r.exit_code == 0);
    r = run_cuvet({"lint", "--driver", "550.54.15", (dir / "Dockerfile").string()});
    CHECK(r.exit_code == 0);
}

TEST_CASE("cuvet lint: malformed Dockerfiles are input errors with the line, never crashes",
          "[lint][cli]") {
    TempDir dir;
    struct Case {
        std::string name, text, expect;
    };
    std::vector<Case> cases = {
        {"heredoc", "FROM ubuntu\nRUN <<EOF\napt-get update\n", ":2-3: unterminated heredoc"},
        {"quotes", "FROM ubuntu\nRUN pip install \"torch==2.1\n", ":2: unbalanced \""},
        {"junk",
         std::string("\x7f"
                     "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0",
                     16),
         ":1: NUL byte"},
        {"junk2", "\xff\xfe garbage \x80\x81\n", ":1: unknown instruction"},
        {"long", "FROM ubuntu\nRUN echo " + std::string(10 * 1024 * 1024, 'a') + "\n",
         ":2: line is"},
        {"empty", "", "no instructions"},
    };
    for (const auto& c : cases) {
        write_file(dir / c.name, c.text);
        auto r = run_cuvet({"lint", (dir / c.name).string()});
        INFO(c.name << ": " << r.err);
        CHECK(r.exit_code == 3);
        CHECK_THAT(r.err, Catch::Contains(c.expect));
    }
    // A bad file does not hide the findings of a good one, but decides the exit code.
    write_file(dir / "good", bad_dockerfile);
    auto r = run_cuvet({"lint", (dir / "heredoc").string(), (dir / "good").string()});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.out, Catch::Contains("CUVL09"));
    r = run_cuvet({"lint", (dir / "missing").string()});
    CHECK(r.exit_code == 3);
}

TEST_CASE("cuvet lint --dump-ast prints BuildKit's normalised parse", "[lint][cli]") {
    TempDir dir;
    write_file(dir / "Dockerfile", "FROM a AS b\nCOPY --from=b [\"x\", \"y\"]\n");
    auto r = run_cuvet({"lint", "--dump-ast", (dir / "Dockerfile").string()});
    CHECK(r.exit_code == 0);
    CHECK(r.out == "(from \"a\" \"AS\" \"b\")\n(copy [\"--from=b\"] \"x\" \"y\")\n");
}

TEST_CASE("cuvet lint: an input it cannot read is one error line, not an empty report",
          "[lint][cli]") {
    TempDir dir;
    std::filesystem::create_directories(dir / "a-directory");
    write_file(dir / "Dockerfile", bad_dockerfile);
    auto r = run_cuvet({"lint", (dir / "a-directory").string()});
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    CHECK(r.err == "cuvet: error: " + (dir / "a-directory").string() +
                       ": is a directory, not a Dockerfile\n");
    // Beside a readable file, the report covers that file only; the bad input still decides the
    // exit.
    r = run_cuvet(
        {"lint", "-f", "json", (dir / "a-directory").string(), (dir / "Dockerfile").string()});
    CHECK(r.exit_code == 3);
    auto report = nlohmann::json::parse(r.out);
    CHECK(report["targets"] == nlohmann::json::array({(dir / "Dockerfile").string()}));
    CHECK_FALSE(report["findings"].empty());
}

TEST_CASE("cuvet lint: a FIFO, a device, endless stdin: exit 3, one line", "[lint][cli][limits]") {
    TempDir dir;
    const std::string fifo = (dir / "Dockerfile").string();
    REQUIRE(run_shell("mkfifo " + shell_quote(fifo)).exit_code == 0);
    auto r = run_cuvet({"lint", fifo});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("not a regular file"));
    r = run_cuvet({"lint", "/dev/zero"});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("not a regular file"));
    // `yes` never ends: only the cap ends the read.
    r = run_shell("yes 'RUN echo aaaaaaaaaaaaaaaa' | " +
                  shell_quote(std::string(CUVET_BINARY_PATH)) + " lint --limit input-bytes=64K -");
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("<stdin>: more than 65536 bytes (limit input-bytes=64K"));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    // .cuvet.yaml as a FIFO in the working directory: refused, not waited on.
    write_file(dir / "Dockerfile.ok", clean_dockerfile);
    REQUIRE(run_shell("mkfifo " + shell_quote((dir / ".cuvet.yaml").string())).exit_code == 0);
    r = run_shell("cd " + shell_quote(dir.path().string()) + " && " +
                  shell_quote(std::string(CUVET_BINARY_PATH)) + " lint Dockerfile.ok");
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains(".cuvet.yaml: not a regular file"));
}

TEST_CASE("cuvet lint: a Dockerfile or .cuvet.yaml linked out of the working tree is not read",
          "[lint][cli]") {
    TempDir dir;
    fs::create_directories(dir / "checkout");
    write_file(dir / "secret", "root:$6$SECRET-HASH-VALUE:19000:0:99999:7:::\n");
    fs::create_symlink(dir / "secret", dir / "checkout" / "Dockerfile");
    write_file(dir / "checkout" / "Dockerfile.ok", clean_dockerfile);
    fs::create_symlink("Dockerfile.ok", dir / "checkout" / "Dockerfile.link");
    const std::string cd = "cd " + shell_quote((dir / "checkout").string()) + " && " +
                           shell_quote(std::string(CUVET_BINARY_PATH));
    auto r = run_shell(cd + " lint Dockerfile");
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("Dockerfile: a symbolic link out of the working tree"));
    CHECK(r.err.find("SECRET") == std::string::npos);
    CHECK(r.out.find("SECRET") == std::string::npos);
    // A link inside the tree is followed.
    CHECK(run_shell(cd + " lint Dockerfile.link").exit_code == 0);
    fs::remove(dir / "checkout" / "Dockerfile");
    fs::create_symlink(dir / "secret", dir / "checkout" / ".cuvet.yaml");
    r = run_shell(cd + " lint Dockerfile.ok");
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains(".cuvet.yaml: a symbolic link out of the working tree"));
    CHECK(r.err.find("SECRET") == std::string::npos);
}
