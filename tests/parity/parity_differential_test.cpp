// The runtime-differential harness (issue 33): generated hostile docker archives are loaded
// into podman's overlay store and read by cuvet; both must see the same merged tree and the
// same Entrypoint, Cmd, Env, User and WorkingDir, or both must refuse the image. A mismatch
// prints the seed, the case and its mutations: enough to rebuild the exact bytes.
//
// CI runs a fixed number of cases (about a minute here). For a longer campaign:
//   CUVET_DIFF_CASES=2000 CUVET_DIFF_SEED=7 build/tests/cuvet_tests "[differential]"
// CUVET_DIFF_FIRST starts at another case; CUVET_DIFF_KEEP=DIR keeps each mismatching archive.
#include <cstdlib>
#include <string>
#include <vector>

#include "parity/hostile_case_generator.hpp"
#include "parity/runtime_oracle.hpp"
#include "support/skip.hpp"

using namespace cuvet::test;
using namespace cuvet::test::parity;
using nlohmann::json;

namespace parity_differential {

constexpr std::uint64_t ci_cases = 120;
constexpr std::uint64_t ci_seed = 33;

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
    const char* text = std::getenv(name);
    return text != nullptr && *text != '\0' ? std::strtoull(text, nullptr, 10) : fallback;
}

// Refusals cuvet makes on purpose where podman loads the image; docs/parity.md says why.
// Each is a reading on which two tar readers the runtimes use (Go's, and libarchive in
// other tools) disagree, or a layout no runtime writes: cuvet fails closed rather than pick.
const std::vector<std::string> deliberate_refusals{
    "Go's archive/tar names an entry",
    " to Go's archive/tar and ",  // "'x/' is a file to Go's archive/tar and a directory to ..."
    "where Go's archive/tar reads none",
    "that libarchive does not",
    "the archive holds it more than once",
    // An absolute name or one with "..": podman's extraction keeps it under the root;
    // cuvet refuses it as path traversal.
    "(path traversal)",
    // A Docker 25 archive whose index.json names another image than manifest.json: podman
    // runs index.json's, docker load manifest.json's; cuvet judges neither.
    "(podman runs index.json's image, docker load manifest.json's)",
};

// Differences found and not yet fixed: a case made with such a mutation is counted, not failed.
// docs/parity.md keeps the list and what fixing each needs.
const std::vector<std::string> known_differences{};

bool known_difference(const HostileImage& image) {
    for (const auto& mutation : image.mutations)
        for (const auto& known : known_differences)
            if (mutation == known) return true;
    return false;
}

bool deliberate(const std::string& error) {
    for (const auto& reason : deliberate_refusals)
        if (error.find(reason) != std::string::npos) return true;
    return false;
}

// podman's Config as cuvet's `image --format json` spells it; absent fields are empty.
json runtime_run_config(const json& config) {
    auto list = [&](const char* key) {
        return config.contains(key) && config[key].is_array() ? config[key] : json::array();
    };
    auto text = [&](const char* key) {
        return config.contains(key) && config[key].is_string() ? config[key] : json("");
    };
    return {{"entrypoint", list("Entrypoint")},
            {"cmd", list("Cmd")},
            {"env", list("Env")},
            {"user", text("User")},
            {"working_dir", text("WorkingDir")}};
}

json cuvet_run_config(const json& summary) {
    json out;
    for (const char* key : {"entrypoint", "cmd", "env"})
        out[key] = summary.contains(key) && summary[key].is_array() ? summary[key] : json::array();
    for (const char* key : {"user", "working_dir"})
        out[key] = summary.contains(key) && summary[key].is_string() ? summary[key] : json("");
    return out;
}

struct Tally {
    std::uint64_t cases = 0, agreed = 0, both_refused = 0, deliberate = 0, known = 0,
                  mismatches = 0, cannot_start = 0;
};

// The entry at `path` in podman's tree, symlinks followed inside the root as the kernel follows
// them there (absolute targets from the root, ".." stops at it, 40 links at most).
const ListedFile* resolve_in(const std::map<std::string, ListedFile>& files, std::string path) {
    std::string done;
    for (int links = 0; links <= 40;) {
        if (path.empty()) return done.empty() ? nullptr : &files.at(done);
        auto start = path.find_first_not_of('/');
        if (start == std::string::npos) return done.empty() ? nullptr : &files.at(done);
        auto end = path.find('/', start);
        std::string name = path.substr(start, end - start);
        path = end == std::string::npos ? "" : path.substr(end);
        if (name == ".") continue;
        if (name == "..") {
            done = done.substr(0, done.rfind('/'));
            continue;
        }
        auto it = files.find(done + "/" + name);
        if (it == files.end()) return nullptr;
        if (it->second.type == "symlink") {
            ++links;
            const std::string& target = it->second.link_target;
            if (!target.empty() && target[0] == '/') done.clear();
            path = target + path;
            continue;
        }
        done += "/" + name;
        if (it->second.type != "dir" && !path.empty() &&
            path.find_first_not_of('/') != std::string::npos)
            return nullptr;
    }
    return nullptr;
}

// Why the container podman would start from this view cannot run its program: an absolute
// ENTRYPOINT (or CMD when there is none) that is missing, not a file, or has no execute bit
// for anyone. Empty when it can, or when the program is looked up on PATH.
std::string cannot_start(const RuntimeView& runtime) {
    const json config = runtime_run_config(runtime.run_config);
    const json& argv = config["entrypoint"].empty() ? config["cmd"] : config["entrypoint"];
    if (argv.empty() || !argv[0].is_string()) return {};
    const std::string program = argv[0].get<std::string>();
    if (program.empty() || program[0] != '/') return {};
    const ListedFile* file = resolve_in(runtime.files, program);
    if (!file) return program + " is missing in podman's tree";
    if (file->type != "file") return program + " is a " + file->type + " in podman's tree";
    if ((std::stoul(file->mode, nullptr, 8) & 0111) == 0)
        return program + " is mode " + file->mode + " in podman's tree";
    return {};
}

std::string first_line(const std::string& text) {
    auto lines = lines_of(text);
    return lines.empty() ? "" : lines.front();
}

// Empty when cuvet and podman agree on case `index`; otherwise what differs.
std::string compare_case(const PodmanStore& store, const std::filesystem::path& archive,
                         Tally& tally) {
    std::string why;
    auto ref = store.load(archive, why);
    auto listing = list_files(archive);
    if (!ref) {
        if (listing.result.exit_code == 3) {
            ++tally.both_refused;
            return "";
        }
        return "podman refuses (" + why + "), cuvet files exits " +
               std::to_string(listing.result.exit_code) + " " + first_line(listing.result.err);
    }
    auto runtime = store.view(*ref, why);
    store.remove(*ref);
    if (!runtime) return "podman loaded the image but " + why;
    if (listing.result.exit_code != 0) {
        if (listing.result.exit_code == 3 && deliberate(listing.result.err)) {
            ++tally.deliberate;
            return "";
        }
        return "podman loads it, cuvet files exits " + std::to_string(listing.result.exit_code) +
               ": " + first_line(listing.result.err);
    }
    std::string differences = diff_views(runtime->files, comparable(listing));
    auto summary = run_cuvet({"image", "--format", "json", archive.string()});
    if (summary.exit_code != 0) {
        differences += "cuvet image exits " + std::to_string(summary.exit_code) + ": " +
                       first_line(summary.err) + "\n";
    } else {
        auto podman_config = runtime_run_config(runtime->run_config);
        auto cuvet_config = cuvet_run_config(json::parse(summary.out));
        if (podman_config != cuvet_config)
            differences += "run config: podman " + podman_config.dump() + ", cuvet " +
                           cuvet_config.dump() + "\n";
    }
    if (!differences.empty()) return differences;
    ++tally.agreed;
    // What cannot start is an error (issue 33): the same reading must not pass the gate.
    if (std::string why = cannot_start(*runtime); !why.empty()) {
        ++tally.cannot_start;
        auto verdict = run_cuvet({"validate", archive.string()});
        if (verdict.exit_code == 0) return "false clean: " + why + ", cuvet validate exits 0\n";
    }
    return {};
}

std::string reproducer(std::uint64_t seed, std::uint64_t index, const HostileImage& image) {
    std::string text = "case " + std::to_string(index) + " of seed " + std::to_string(seed) +
                       " (CUVET_DIFF_SEED=" + std::to_string(seed) +
                       " CUVET_DIFF_FIRST=" + std::to_string(index) + " CUVET_DIFF_CASES=1)";
    for (const auto& mutation : image.mutations) text += "\n  mutation: " + mutation;
    return text;
}

}  // namespace parity_differential

TEST_CASE("generated hostile images: cuvet reads what podman runs, or both refuse",
          "[integration][differential][parity]") {
    using namespace parity_differential;
    if (!have_program("podman") || !have_program("runc"))
        CUVET_SKIP("skipped: podman or runc is not installed");
    const std::uint64_t seed = env_number("CUVET_DIFF_SEED", ci_seed);
    const std::uint64_t first = env_number("CUVET_DIFF_FIRST", 0);
    const std::uint64_t count = env_number("CUVET_DIFF_CASES", ci_cases);
    const char* keep = std::getenv("CUVET_DIFF_KEEP");
    TempDir tmp;
    PodmanStore store(tmp / "store");

    // The base image unchanged: podman refusing it means podman cannot work here.
    {
        HostileImage base = generator_detail::base_image();
        auto archive = write_hostile_archive(base, tmp / "base.tar", "localhost/parity:base");
        std::string why;
        auto ref = store.load(archive, why);
        if (!ref) CUVET_SKIP("skipped: podman cannot load images here: " << why);
        auto view = store.view(*ref, why);
        store.remove(*ref);
        if (!view) CUVET_SKIP("skipped: podman cannot mount overlay storage here: " << why);
    }

    Tally tally;
    for (std::uint64_t index = first; index < first + count; ++index) {
        HostileImage image = generate_case(seed, index);
        auto archive = write_hostile_archive(image, tmp / "case.tar",
                                             "localhost/parity:" + std::to_string(index));
        ++tally.cases;
        std::string differences = compare_case(store, archive, tally);
        if (differences.empty()) continue;
        if (known_difference(image)) {
            ++tally.known;
            continue;
        }
        ++tally.mismatches;
        if (keep != nullptr) {
            std::filesystem::create_directories(keep);
            std::filesystem::copy_file(
                archive, std::filesystem::path(keep) / ("case-" + std::to_string(index) + ".tar"),
                std::filesystem::copy_options::overwrite_existing);
        }
        FAIL_CHECK(reproducer(seed, index, image) << "\n" << differences);
    }
    WARN("parity: seed " << seed << ", " << tally.cases << " cases: " << tally.agreed
                         << " read alike, " << tally.both_refused << " refused by both, "
                         << tally.deliberate << " refused by cuvet on purpose, " << tally.known
                         << " known differences, " << tally.mismatches << " mismatches; "
                         << tally.cannot_start << " read alike cannot start (validate fails)");
    CHECK(tally.agreed + tally.both_refused > 0);
}
