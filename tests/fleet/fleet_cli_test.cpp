// `cuvet fleet` on bad input: one error line, a distinct exit code, nothing written.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

using namespace cuvet::test;

TEST_CASE("fleet scan: an unreadable list, a bad shard, no images are one line and an exit code",
          "[fleet][cli]") {
    TempDir tmp;
    const std::string out = (tmp / "out").string();
    auto missing =
        run_cuvet({"fleet", "scan", "--list", (tmp / "none.txt").string(), "--out", out});
    CHECK(missing.exit_code == 3);
    CHECK(missing.err == "cuvet: error: " + (tmp / "none.txt").string() +
                             ": cannot open the image list: No such file or directory\n");

    // A directory or a FIFO where the list should be: one line, never a hang or an empty fleet.
    std::filesystem::create_directory(tmp / "dir");
    auto directory = run_cuvet({"fleet", "scan", "--list", (tmp / "dir").string(), "--out", out});
    CHECK(directory.exit_code == 3);
    CHECK(directory.err == "cuvet: error: " + (tmp / "dir").string() + ": is a directory\n");
    REQUIRE(run_shell("mkfifo " + shell_quote((tmp / "fifo").string())).exit_code == 0);
    auto fifo = run_cuvet({"fleet", "scan", "--list", (tmp / "fifo").string(), "--out", out});
    CHECK(fifo.exit_code == 3);

    write_file(tmp / "two.txt", "a:1 b:1\n");
    auto two = run_cuvet({"fleet", "scan", "--list", (tmp / "two.txt").string(), "--out", out});
    CHECK(two.exit_code == 3);
    CHECK(two.err == "cuvet: error: " + (tmp / "two.txt").string() +
                         ":1: 'a:1 b:1' is more than one image reference (one reference a line)\n");

    write_file(tmp / "pods.json", "{\"kind\": \"Pod\"");
    auto pods = run_cuvet({"fleet", "scan", "--pods", (tmp / "pods.json").string(), "--out", out});
    CHECK(pods.exit_code == 3);
    CHECK(pods.err == "cuvet: error: " + (tmp / "pods.json").string() + ": not valid JSON\n");

    // Only comments: an empty fleet is a mistake to say, not a clean scan (exit 0).
    write_file(tmp / "empty.txt", "# nothing yet\n\n");
    auto empty = run_cuvet({"fleet", "scan", "--list", (tmp / "empty.txt").string(), "--out", out});
    CHECK(empty.exit_code == 3);
    CHECK(empty.err ==
          "cuvet: error: no images: the given --list, --pods and --registry name none\n");

    write_file(tmp / "fleet.txt", "docker://127.0.0.1:1/a:1\n");
    const std::string list = (tmp / "fleet.txt").string();
    auto shard = run_cuvet({"fleet", "scan", "--list", list, "--out", out, "--shard", "3/3"});
    CHECK(shard.exit_code == 2);
    CHECK(
        shard.err ==
        "cuvet: error: --shard 3/3: expected I/N with 0 <= I < N (the first of 3 shards is 0/3)\n");
    auto no_count =
        run_shell("JOB_COMPLETION_INDEX=1 " + shell_quote(CUVET_BINARY_PATH) +
                  " fleet scan --list " + shell_quote(list) + " --out " + shell_quote(out));
    CHECK(no_count.exit_code == 2);
    CHECK(no_count.err.find("JOB_COMPLETION_INDEX is set but not the shard count") !=
          std::string::npos);
    auto nothing = run_cuvet({"fleet", "scan", "--out", out});
    CHECK(nothing.exit_code == 2);
    CHECK(nothing.err ==
          "cuvet: error: fleet scan needs images: --list FILE, --pods FILE or --registry HOST\n");
    CHECK_FALSE(std::filesystem::exists(out));

    auto report = run_cuvet({"fleet", "report", out});
    CHECK(report.exit_code == 3);
    CHECK(report.err == "cuvet: error: " + out + ": not a folder of fleet results\n");
}

TEST_CASE("fleet scan: an image that cannot be read is an error result, and a rerun skips it",
          "[fleet][cli]") {
    TempDir tmp;
    write_file(tmp / "fleet.txt", (tmp / "gone.tar").string() + "\n");
    const std::string out = (tmp / "out").string();
    const std::vector<std::string> scan = {
        "fleet", "scan", "--list", (tmp / "fleet.txt").string(), "--out", out, "--no-cache"};
    auto first = run_cuvet(scan);
    INFO(first.err);
    CHECK(first.exit_code == 0);
    CHECK(first.err.find("finished: 1 checked, 0 done before, 1 unreadable") != std::string::npos);
    auto again = run_cuvet(scan);
    CHECK(again.err.find("finished: 0 checked, 1 done before, 0 unreadable") != std::string::npos);
    auto report = run_cuvet({"fleet", "report", out, "--format", "json"});
    CHECK(report.exit_code == 1);
    const auto merged = nlohmann::json::parse(report.out);
    CHECK(merged["counts"]["error"] == 1);
    CHECK(merged["images"][0]["error"] ==
          (tmp / "gone.tar").string() + ": no such file or directory");
    CHECK(run_cuvet({"fleet", "report", out, "--fail-on", "never"}).exit_code == 0);
}
