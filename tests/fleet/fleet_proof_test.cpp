// Issue 38's proof: a fleet of images over 3 bases in a real docker-registry, checked by 4
// workers the way a Kubernetes Indexed Job runs them (JOB_COMPLETION_INDEX 0..3, each its own
// local cache, one fact store in the registry), one killed mid-image and rerun on a fresh
// cache as a replaced pod would be. A proxy in front of the registry counts every layer blob
// the fleet downloads. 24 images by default (CI time); CUVET_FLEET_PROOF_IMAGES=200 runs the
// full proof and also times 1 worker against 4 (docs/fleet.md has the numbers).
#include <signal.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "cuvet/fleet/shard.hpp"
#include "fleet/fleet_fixtures.hpp"
#include "image/registry_fixtures.hpp"
#include "support/tar_writer.hpp"

using namespace cuvet;
using namespace cuvet::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string proof_key = "fleet-secret-0123456789abcdef";
constexpr unsigned workers = 4;
constexpr unsigned victim = 1;  // the worker killed mid-image

std::size_t proof_images() {
    const char* text = std::getenv("CUVET_FLEET_PROOF_IMAGES");
    return text && *text ? std::max<std::size_t>(12, std::stoul(text)) : 24;
}

struct Fleet {
    std::vector<EncodedImage> images;
    std::vector<unsigned> shard_of;  // as every worker computes it
    std::uint64_t naive_bytes = 0;   // each image's layer blobs, summed image by image
    // The same in uncompressed tar bytes, what a worker inflates: summed per image, and once.
    std::uint64_t naive_tar_bytes = 0;
    std::uint64_t distinct_tar_bytes = 0;
    std::set<std::string> layer_blobs;
};

Fleet push_fleet(const RegistryServer& registry, std::size_t count) {
    // Base 0 holds CUDA 12.4 (no 470 driver runs it), base 1 CUDA 11.8, base 2 no CUDA.
    const std::vector<Layer> bases = {cuda_base("12.4.1"), cuda_base("11.8.0"), cuda_base("")};
    Fleet fleet;
    std::vector<fleet::ShardItem> items;
    for (std::size_t i = 0; i < count; ++i) {
        ImageSpec spec;
        Layer own;
        own.entries = {dir("app/"), file("app/id", std::to_string(i) + "\n")};
        spec.layers = {bases[i % 3], own};
        fleet.images.push_back(encode_image(spec));
        const auto& encoded = fleet.images.back();
        push_encoded(registry.host(), "fleet/img" + std::to_string(i) + ":1", encoded);
        items.push_back({encoded.manifest.digest, encoded.layers[0].digest});
        for (std::size_t l = 0; l < encoded.layers.size(); ++l) {
            const std::uint64_t tar_bytes = make_tar(spec.layers[l].entries).size();
            fleet.naive_bytes += encoded.layers[l].bytes.size();
            fleet.naive_tar_bytes += tar_bytes;
            if (fleet.layer_blobs.insert(encoded.layers[l].digest).second)
                fleet.distinct_tar_bytes += tar_bytes;
        }
    }
    fleet.shard_of = fleet::assign_shards(items, workers);
    return fleet;
}

fs::path result_path(const fs::path& out, const EncodedImage& image) {
    return out / ("sha256-" + image.manifest.digest.substr(7) + ".json");
}

struct Command {
    const TempDir& tmp;
    std::string store_host;  // the registry itself: the proxy relays no request body (a push)
    // One worker of an Indexed Job of `count` completions, its own cache, the shared store.
    std::string worker(unsigned index, unsigned count, const std::string& cache,
                       const std::string& out, const std::string& store) const {
        return "env XDG_CACHE_HOME=" + shell_quote((tmp / cache).string()) +
               " JOB_COMPLETION_INDEX=" + std::to_string(index) +
               " CUVET_SHARDS=" + std::to_string(count) + " CUVET_FACT_STORE_KEY=" + proof_key +
               " " + shell_quote(CUVET_BINARY_PATH) + " fleet scan --insecure --workers 1 --list " +
               shell_quote((tmp / "fleet.txt").string()) + " --nodes " +
               shell_quote((tmp / "nodes.json").string()) + " --out " +
               shell_quote((tmp / out).string()) + " --fact-store " + store_host + "/" + store;
    }
};

double seconds_of(const std::function<void()>& run) {
    const auto start = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Runs `count` workers at once into `out`; their exit codes.
std::vector<int> run_workers(const Command& command, unsigned count, const std::string& out,
                             const std::string& store) {
    std::vector<int> codes(count, -1);
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < count; ++i)
        threads.emplace_back([&, i] {
            codes[i] =
                run_shell(command.worker(i, count, "t-" + out + std::to_string(i), out, store))
                    .exit_code;
        });
    for (auto& thread : threads) thread.join();
    return codes;
}

}  // namespace

TEST_CASE("fleet proof: 3 bases, 4 workers of an Indexed Job, one fact store, a worker killed",
          "[fleet][integration]") {
    REQUIRE_REGISTRY_TOOLS();
    const std::size_t count = proof_images();
    RegistryServer registry;
    TempDir tmp;
    const Fleet fleet = push_fleet(registry, count);
    const fs::path out = tmp / "out";
    std::set<std::string> victim_tops;
    std::size_t victim_share = 0;
    for (std::size_t i = 0; i < count; ++i)
        if (fleet.shard_of[i] == victim) {
            victim_tops.insert(fleet.images[i].layers[1].digest);
            ++victim_share;
        }
    REQUIRE(victim_share >= 3);
    auto victim_done = [&] {
        std::size_t done = 0;
        for (std::size_t i = 0; i < count; ++i)
            done += fleet.shard_of[i] == victim && fs::exists(result_path(out, fleet.images[i]));
        return done;
    };

    // Every layer blob download the fleet makes passes here. Once the victim has two results,
    // its next own layer is held: the kill lands while it reads an image.
    std::mutex mutex;
    std::map<std::string, int> downloads;
    std::atomic<bool> hold{false}, held{false};
    HttpTestServer proxy(
        [&](const HttpRequestHead& request) {
            const auto blob = request.target.find("/blobs/");
            if (request.method != "GET" || blob == std::string::npos) return HttpAction{};
            const std::string digest = request.target.substr(blob + 7);
            if (!fleet.layer_blobs.count(digest)) return HttpAction{};
            if (!held && hold && victim_tops.count(digest) && victim_done() >= 2) {
                held = true;
                for (int i = 0; i < 1000 && hold; ++i)
                    std::this_thread::sleep_for(std::chrono::milliseconds(10));
                return HttpAction{};  // its worker is dead: never read
            }
            std::lock_guard lock(mutex);
            ++downloads[digest];
            return HttpAction{};
        },
        registry.port());
    const std::string host = "127.0.0.1:" + std::to_string(proxy.port());
    std::string list;
    for (std::size_t i = 0; i < count; ++i)
        list += "docker://" + host + "/fleet/img" + std::to_string(i) + ":1\n";
    write_file(tmp / "fleet.txt", list);
    write_file(tmp / "nodes.json", two_pools());
    const Command command{tmp, registry.host()};

    hold = true;
    std::vector<ProcessResult> runs(workers);
    std::vector<std::thread> threads;
    const double four_seconds = seconds_of([&] {
        for (unsigned i = 0; i < workers; ++i)
            threads.emplace_back([&, i] {
                std::string line =
                    command.worker(i, workers, "cache" + std::to_string(i), "out", "cuvet/facts");
                if (i == victim)
                    line += " & echo $! > " + shell_quote((tmp / "pid").string()) + "; wait";
                runs[i] = run_shell(line);
            });
        for (int i = 0; i < 6000 && !held; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (held) ::kill(std::stoi(read_file(tmp / "pid")), SIGKILL);
        hold = false;
        for (auto& thread : threads) thread.join();
    });
    REQUIRE(held);
    for (unsigned i = 0; i < workers; ++i) {
        INFO("worker " << i << ": " << runs[i].err);
        if (i != victim) REQUIRE(runs[i].exit_code == 0);
    }
    const std::size_t victim_before = victim_done();
    CHECK(victim_before >= 2);
    CHECK(victim_before < victim_share);

    // The replaced pod: the same index, a fresh local cache (an emptyDir dies with its pod).
    auto rerun = run_shell(command.worker(victim, workers, "cache-rerun", "out", "cuvet/facts"));
    INFO(rerun.err);
    REQUIRE(rerun.exit_code == 0);
    CHECK(rerun.err.find("finished: " + std::to_string(victim_share - victim_before) +
                         " checked, " + std::to_string(victim_before) + " done before") !=
          std::string::npos);

    // Every image checked exactly once, by the shard every worker agreed on.
    const auto results = results_in(out);
    REQUIRE(results.size() == count);
    std::map<std::string, std::string> shard_of_key;
    for (std::size_t i = 0; i < count; ++i)
        shard_of_key[fleet.images[i].manifest.digest] =
            std::to_string(fleet.shard_of[i]) + "/" + std::to_string(workers);
    std::set<std::string> digests;
    for (const auto& result : results) {
        digests.insert(result["digest"].get<std::string>());
        CHECK(result["shard"] == shard_of_key[result["digest"]]);
        CHECK(result["verdict"] != "error");
    }
    CHECK(digests.size() == count);

    // Each distinct layer downloaded once fleet-wide, as the proxy saw it and the workers say.
    CHECK(downloads.size() == fleet.layer_blobs.size());
    for (const auto& [digest, times] : downloads) {
        INFO(digest);
        CHECK(times == 1);
    }
    auto merged = run_cuvet({"fleet", "report", out.string(), "--format", "json"});
    REQUIRE(merged.exit_code == 1);
    const json report = json::parse(merged.out);
    CHECK(report["bytes"]["layer_reads"] == fleet.layer_blobs.size());
    CHECK(report["bytes"]["distinct_layers_read"] == fleet.layer_blobs.size());
    CHECK(report["bytes"]["image_sizes"] == fleet.naive_bytes);
    const auto inflated = report["bytes"]["inflated"].get<std::uint64_t>();
    // Each distinct layer's tar inflated once (the reader may stop before a tar's last padding).
    CHECK(inflated <= fleet.distinct_tar_bytes);
    CHECK(inflated * 10 >= fleet.distinct_tar_bytes * 9);

    // The pool table: the 470 pool cannot run the CUDA 12.4 images, the 550 pool runs all.
    REQUIRE(report["pools"].size() == 2);
    CHECK(report["pools"][0]["name"] == "h100");
    CHECK(report["pools"][0]["cannot_run"] == 0);
    const json& t4 = report["pools"][1];
    CHECK(t4["name"] == "t4-legacy");
    CHECK(t4["driver"] == "470.57.02");
    CHECK(t4["images"] == count);
    CHECK(t4["cannot_run"] == (count + 2) / 3);
    CHECK(t4["checks"] == json{{"CUV009", (count + 2) / 3}});

    if (std::getenv("CUVET_FLEET_PROOF_IMAGES") == nullptr) return;
    // The full proof also times the fleet on clean caches and a fresh store: 1 worker, then 4.
    const double one = seconds_of([&] { run_workers(command, 1, "one", "cuvet/facts-one"); });
    const double four = seconds_of([&] { run_workers(command, 4, "four", "cuvet/facts-four"); });
    CHECK(result_files(tmp / "one") == count);
    CHECK(result_files(tmp / "four") == count);
    std::cerr << "fleet proof: " << count << " images, " << fleet.layer_blobs.size()
              << " distinct layers; bytes inflated " << inflated << " against "
              << fleet.naive_tar_bytes << " (tar) and " << fleet.naive_bytes
              << " (blobs) summed per image; 4 workers with a kill and rerun " << four_seconds
              << " s (+ rerun); clean: 1 worker " << one << " s, 4 workers " << four << " s\n";
}
