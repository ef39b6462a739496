// A .cuvet.yaml in the checkout is the pull request's to edit: what it
// silenced is said on stderr naming the file, and --config none reads none.
#include <catch2/catch.hpp>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet::test;

TEST_CASE("what a config file silenced is shown, and --config none reads no file",
          "[cli][config]") {
    TempDir dir;
    write_file(dir / "Dockerfile",
               "FROM nvidia/cuda:12.4.1-cudnn8-runtime-ubuntu22.04\nRUN pip install torch\n");
    write_file(dir / ".cuvet.yaml", "ignore: [CUVL09]\nfail_on: never\n");
    const std::string cuvet = "cd " + shell_quote(dir.path().string()) + " && " +
                              shell_quote(std::string(CUVET_BINARY_PATH));
    auto silenced = run_shell(cuvet + " lint Dockerfile");
    INFO(silenced.err);
    CHECK(silenced.exit_code == 0);
    CHECK_THAT(silenced.err, Catch::Contains("cuvet: note: " + dir.path().string() +
                                             "/.cuvet.yaml silenced 1 finding: CUVL09"));
    CHECK_THAT(silenced.err, Catch::Contains("/.cuvet.yaml sets fail_on: never"));
    // An id silenced on the command line is the caller's, not the file's.
    auto cli = run_shell(cuvet + " lint --config none --ignore CUVL09 Dockerfile");
    CHECK(cli.err.find("note:") == std::string::npos);
    // The checkout's file unread: the finding fails the run again.
    auto none = run_shell(cuvet + " lint --config none Dockerfile");
    CHECK(none.exit_code == 1);
    CHECK_THAT(none.out, Catch::Contains("CUVL09"));
    CHECK(none.err.find("note:") == std::string::npos);
    // As CI sets it, through the environment.
    CHECK(run_shell("cd " + shell_quote(dir.path().string()) + " && CUVET_CONFIG=none " +
                    shell_quote(std::string(CUVET_BINARY_PATH)) + " lint Dockerfile")
              .exit_code == 1);
}
