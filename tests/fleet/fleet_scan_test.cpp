// `cuvet fleet scan` and `cuvet fleet report` end to end: 12 images over 3 bases in a real
// docker-registry, 3 workers, one of them killed mid-way and rerun; and bad input.
#include <signal.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <set>
#include <thread>

#include "fleet/fleet_fixtures.hpp"
#include "image/registry_fixtures.hpp"

using namespace cuvet::test;
using nlohmann::json;
namespace fs = std::filesystem;

TEST_CASE("fleet scan: 12 images over 3 bases, 3 workers, one killed mid-way and rerun",
          "[fleet][integration]") {
    REQUIRE_REGISTRY_TOOLS();
    RegistryServer registry;
    TempDir tmp;
    // Base 0 holds CUDA 12.4 (no 470 driver runs it), base 1 CUDA 11.8, base 2 no CUDA.
    const std::vector<Layer> bases = {cuda_base("12.4.1"), cuda_base("11.8.0"), cuda_base("")};
    std::set<std::string> top_layers;  // each image's own layer: never in a cache
    for (int i = 0; i < 12; ++i) {
        ImageSpec spec;
        spec.layers = {bases[static_cast<std::size_t>(i % 3)]};
        Layer own;
        own.entries = {dir("app/"), file("app/id", std::to_string(i) + "\n")};
        spec.layers.push_back(own);
        top_layers.insert(encode_image(spec).layers.back().digest);
        push_image(registry, tmp, spec, "team/img" + std::to_string(i) + ":1",
                   "oci" + std::to_string(i));
    }
    // One image under a second tag: one result naming both.
    REQUIRE(registry.push("oci:" + (tmp / "oci0").string() + ":t", "team/img0:stable").exit_code ==
            0);

    // Workers reach the registry through a proxy that can hold a layer download: the kill
    // below then lands while an image is being read, never between two images by luck.
    const fs::path out = tmp / "out";
    std::atomic<bool> hold{false};
    std::atomic<bool> held{false};
    HttpTestServer proxy(
        [&](const HttpRequestHead& request) {
            const auto blob = request.target.find("/blobs/");
            // Held: the first layer of its own a worker asks for once 10 results exist.
            if (hold && blob != std::string::npos && result_files(out) >= 10 &&
                top_layers.count(request.target.substr(blob + 7))) {
                held = true;
                for (int i = 0; i < 1000 && hold; ++i)
                    std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            return HttpAction{};
        },
        registry.port());
    const std::string host = "127.0.0.1:" + std::to_string(proxy.port());
    std::string list = "# the fleet\n";
    for (int i = 0; i < 12; ++i)
        list += "docker://" + host + "/team/img" + std::to_string(i) + ":1\n";
    list += "docker://" + host + "/team/img0:stable\n";
    write_file(tmp / "fleet.txt", list);
    write_file(tmp / "nodes.json", two_pools());

    auto worker = [&](const std::vector<std::string>& env, const std::string& shard_args) {
        std::string command = "env";
        for (const auto& assignment : env) command += " " + shell_quote(assignment);
        return command + " " + shell_quote(CUVET_BINARY_PATH) + " fleet scan --insecure --list " +
               shell_quote((tmp / "fleet.txt").string()) + " --nodes " +
               shell_quote((tmp / "nodes.json").string()) + " --out " + shell_quote(out.string()) +
               " " + shard_args;
    };
    auto first = run_shell(worker({"XDG_CACHE_HOME=" + (tmp / "c0").string()}, "--shard 0/3"));
    INFO(first.err);
    REQUIRE(first.exit_code == 0);
    CHECK(first.err.find("cuvet fleet: shard 0/3: 4 of 12 images") != std::string::npos);
    // The way an Indexed Job starts a worker: the index from Kubernetes, the count from the Job.
    auto third = run_shell(worker(
        {"XDG_CACHE_HOME=" + (tmp / "c2").string(), "JOB_COMPLETION_INDEX=2", "CUVET_SHARDS=3"},
        ""));
    INFO(third.err);
    REQUIRE(third.exit_code == 0);
    REQUIRE(result_files(out) == 8);
    std::map<std::string, fs::file_time_type> written;
    for (const auto& entry : fs::directory_iterator(out))
        written[entry.path().filename().string()] = fs::last_write_time(entry.path());

    // Worker 1 is killed (SIGKILL) while it reads its third image.
    hold = true;
    std::thread killed_run([&] {
        run_shell(worker({"XDG_CACHE_HOME=" + (tmp / "c1").string()}, "--shard 1/3") +
                  " & echo $! > " + shell_quote((tmp / "pid").string()) + "; wait");
    });
    for (int i = 0; i < 3000 && !(held && result_files(out) == 10); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const bool killed_mid_image = held && result_files(out) == 10;
    if (killed_mid_image) ::kill(std::stoi(read_file(tmp / "pid")), SIGKILL);
    hold = false;
    killed_run.join();
    REQUIRE(killed_mid_image);
    CHECK(result_files(out) == 10);

    auto rerun = run_shell(worker({"XDG_CACHE_HOME=" + (tmp / "c1").string()}, "--shard 1/3"));
    INFO(rerun.err);
    REQUIRE(rerun.exit_code == 0);
    CHECK(rerun.err.find("finished: 2 checked, 2 done before, 0 unreadable") != std::string::npos);

    // Every image once, by digest; the other workers' results untouched; one base a shard.
    const auto results = results_in(out);
    REQUIRE(results.size() == 12);
    std::set<std::string> digests;
    std::map<std::string, std::set<std::string>> shards_of_base;
    for (const auto& result : results) {
        digests.insert(result["digest"].get<std::string>());
        shards_of_base[result["base_layer"]].insert(result["shard"]);
        CHECK(result["report"]["schema"] == "cuvet-report");
        if (result["references"].size() == 2)
            CHECK(result["references"][1] == "docker://" + host + "/team/img0:stable");
    }
    CHECK(digests.size() == 12);
    CHECK(shards_of_base.size() == 3);
    for (const auto& [base, shards] : shards_of_base) CHECK(shards.size() == 1);
    for (const auto& [name, time] : written) CHECK(fs::last_write_time(out / name) == time);

    // The report: the 470 pool cannot run the four CUDA 12.4 images, the 550 pool runs all.
    auto merged = run_cuvet({"fleet", "report", out.string(), "--format", "json"});
    INFO(merged.err);
    CHECK(merged.exit_code == 1);
    const json report = json::parse(merged.out);
    CHECK(report["counts"]["images"] == 12);
    REQUIRE(report["pools"].size() == 2);
    const json& h100 = report["pools"][0];
    const json& t4 = report["pools"][1];
    CHECK(h100["name"] == "h100");
    CHECK(h100["cannot_run"] == 0);
    CHECK(t4["name"] == "t4-legacy");
    CHECK(t4["driver"] == "470.57.02");
    CHECK(t4["images"] == 12);
    CHECK(t4["cannot_run"] == 4);
    CHECK(t4["checks"] == json{{"CUV009", 4}});
    for (const auto& reference : t4["cannot_run_images"]) {
        const std::string name = reference;
        const int index = std::stoi(name.substr(name.find("/img") + 4));
        CHECK(index % 3 == 0);  // the images on the CUDA 12.4 base
    }
    CHECK(report["bytes"]["inflated"].get<std::uint64_t>() > 0);
    // The same registry by its catalog: repositories team/img1, team/img10, team/img11.
    auto catalog = run_cuvet({"fleet", "scan", "--insecure", "--no-cache", "--registry", host,
                              "--prefix", "team/img1", "--out", (tmp / "by-catalog").string()});
    INFO(catalog.err);
    CHECK(catalog.exit_code == 0);
    CHECK(catalog.err.find("shard 0/1: 3 of 3 images") != std::string::npos);
    CHECK(result_files(tmp / "by-catalog") == 3);
    auto markdown = run_cuvet({"fleet", "report", out.string(), "--fail-on", "never"});
    CHECK(markdown.exit_code == 0);
    CHECK(markdown.out.find("| t4-legacy | 470.57.02 | 7.5 | 12 | 4 | CUV009 (4) |") !=
          std::string::npos);
}
