// The single scan: one pass over the layers that keeps ELF facts of shared
// objects and the bytes of small version-bearing files, never whole big
// libraries (libcublasLt is 500 MB; its facts are a few KB). What to read is
// decided here; collecting it is scan_collector's job. The entry point stays
// inventory::analyze (cuvet/inventory/analysis.hpp): its result, the Analysis,
// carries the inventory built from what the scan kept.
#include <cctype>
#include <optional>

#include "cuvet/inventory/analysis.hpp"
#include "cuvet/rules/framework_catalog.hpp"
#include "inventory/facts.hpp"
#include "scan/fact_memo.hpp"
#include "scan/scan_collector.hpp"

namespace cuvet::inventory {

namespace {

constexpr std::uint64_t max_text_size = 8u << 20;  // dpkg status of a big image is ~3 MB

bool ends_with(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

bool starts_with(std::string_view s, std::string_view head) {
    return s.substr(0, head.size()) == head;
}

// dist-info METADATA of the distributions the inventory maps, and of NVIDIA's wheels (a
// big image has thousands of others; their dir names are all it needs).
bool relevant_dist(std::string_view dist_dir) {
    constexpr std::string_view suffix = ".dist-info";
    if (!ends_with(dist_dir, suffix)) return false;
    auto name = dist_dir.substr(0, dist_dir.size() - suffix.size());
    auto dash = name.rfind('-');
    if (dash == std::string_view::npos || dash == 0 || dash + 1 == name.size()) return false;
    name = name.substr(0, dash);
    std::string head(name.substr(0, 7));
    for (auto& c : head) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (head == "nvidia-" || head == "nvidia_") return true;
    return detail::maps_pip_distribution(name);
}

// conda-meta/<name>-<version>-<build>.json of the packages the inventory maps.
bool relevant_conda(std::string_view file) {
    if (!ends_with(file, ".json")) return false;
    auto stem = file.substr(0, file.size() - 5);
    auto build_dash = stem.rfind('-');
    if (build_dash == std::string_view::npos || build_dash == 0) return false;
    auto version_dash = stem.rfind('-', build_dash - 1);
    if (version_dash == std::string_view::npos || version_dash == 0) return false;
    return detail::maps_conda_package(stem.substr(0, version_dash));
}

constexpr std::uint64_t max_program_size = 64u << 20;
constexpr std::uint64_t max_entry_text_size = 256u << 10;

// Beyond the defaults, per analysis: the entry programs (read as ELF, or
// kept whole when they are scripts, shebang or not: `sh /entrypoint.sh`)
// and the executables in the directories they live in.
struct Selection {
    std::set<std::string, std::less<>> extra_elf;
    std::set<std::string, std::less<>> exec_dirs;

    bool text(const image::FileEntry& e) const {
        return wants_text(e) || (e.size <= max_entry_text_size && extra_elf.count(e.path) != 0);
    }
    bool elf(const image::FileEntry& e) const {
        return wants_elf(e) || extra_elf.count(e.path) != 0 || in_exec_dir(e);
    }

private:
    bool in_exec_dir(const image::FileEntry& e) const {
        if (exec_dirs.empty() || e.type != image::FileType::regular || (e.mode & 0111) == 0 ||
            e.size > max_program_size)
            return false;
        return exec_dirs.count(detail::dir_of(e.path)) != 0;
    }
};

}  // namespace

bool wants_text(const image::FileEntry& entry) {
    if (entry.type != image::FileType::regular || entry.size > max_text_size) return false;
    const std::string& p = entry.path;
    static const std::set<std::string, std::less<>> exact = {
        "/etc/os-release",      "/usr/lib/os-release", "/etc/ld.so.cache",    "/etc/ld.so.conf",
        "/var/lib/dpkg/status", "/etc/debian_version", "/etc/redhat-release", "/etc/ld.so.preload",
        "/etc/passwd",          "/etc/group"};
    if (exact.count(p) != 0) return true;
    if (starts_with(p, "/etc/ld.so.conf.d/") || starts_with(p, "/var/lib/dpkg/status.d/"))
        return true;
    auto base = detail::base_of(p);
    if (ends_with(p, ".h")) {
        static const std::set<std::string, std::less<>> headers = {
            "cudnn.h", "nccl.h",   "NvInferVersion.h", "cuda_runtime_api.h", "cublas_api.h",
            "cufft.h", "curand.h", "cusparse.h",       "cusolver_common.h",  "nppversion.h"};
        return starts_with(base, "cudnn_version") || headers.count(base) != 0;
    }
    if (base == "version.json" || base == "version.txt") return p.find("cuda") != std::string::npos;
    if (base == "METADATA") return relevant_dist(detail::base_of(detail::dir_of(p)));
    // NVIDIA wheels' file lists say where their libraries went (a toolkit made of wheels).
    if (base == "RECORD") {
        auto dist = detail::base_of(detail::dir_of(p));
        return starts_with(dist, "nvidia_") && relevant_dist(dist);
    }
    if (ends_with(p, ".json") && ends_with(detail::dir_of(p), "/conda-meta"))
        return relevant_conda(base);
    if (ends_with(p, ".py")) return rules::builtin_framework_catalog().version_file(p).has_value();
    return false;
}

bool wants_elf(const image::FileEntry& entry) {
    if (entry.type != image::FileType::regular || entry.size < 64) return false;
    auto base = detail::base_of(entry.path);
    // lib*.so, lib*.so.1.2, python extension modules (*.cpython-311-x86_64-linux-gnu.so).
    auto so = base.find(".so");
    if (so != std::string::npos && (so + 3 == base.size() || base[so + 3] == '.')) return true;
    // Programs in bin dirs (what `cuvet ldd` is asked about, python3 behind
    // its link): small next to the libraries, and read in the same pass.
    const auto& p = entry.path;
    return (entry.mode & 0111) != 0 && entry.size <= max_program_size &&
           (p.find("/bin/") != std::string::npos || p.find("/sbin/") != std::string::npos);
}

loader::ImageFiles Analysis::files() const {
    return {&tree, &elfs, &not_elf, &texts, info.config.env};
}

Analysis analyze(const image::Image& image, const AnalyzeOptions& options) {
    Analysis analysis;
    analysis.info = image.info();
    Selection selection;
    for (const auto& p : options.extra_elf_paths) selection.extra_elf.insert(p);
    for (const auto& d : options.extra_exec_dirs) selection.exec_dirs.insert(d);

    scan::ScanCollector collector(analysis);
    image::ScanOptions scan_options;
    scan_options.workers = options.workers;
    scan_options.on_progress = options.on_progress;
    scan_options.select = [&](const image::FileEntry& e) {
        return selection.elf(e) || selection.text(e);
    };
    scan_options.open_sink = [&](const image::FileEntry& e) {
        return collector.open(e, selection.elf(e), selection.text(e));
    };
    std::optional<scan::FactMemo> memo;
    if (options.layer_cache || options.shared_facts) {
        auto extra = [&](const image::FileEntry& e) {
            return e.type == image::FileType::regular && (selection.elf(e) || selection.text(e)) &&
                   !wants_elf(e) && !wants_text(e);
        };
        if (selection.extra_elf.empty() && selection.exec_dirs.empty())
            memo.emplace(options.layer_cache, options.shared_facts, collector, nullptr);
        else
            memo.emplace(options.layer_cache, options.shared_facts, collector, extra);
        scan_options.memo = &*memo;
    }
    analysis.tree = image.scan(scan_options);
    collector.finish();

    analysis.inventory = build_inventory(analysis);
    return analysis;
}

}  // namespace cuvet::inventory
