// CUVL12: the shipped image installs NVIDIA driver packages, which clash with the
// driver the container runtime mounts from the host (validate's CUV013, seen
// from the Dockerfile).
#include <algorithm>
#include <cctype>
#include <map>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace cuvl12 {

bool all_digits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
}

// "cuda-12-2" → true: the versioned form of the `cuda` metapackage.
bool cuda_version_suffix(std::string_view rest) {
    auto dash = rest.find('-');
    return dash != std::string_view::npos && all_digits(rest.substr(0, dash)) &&
           all_digits(rest.substr(dash + 1));
}

// "cuda-12.1" → true. A '.' makes apt-get read the name as a regular expression, so it
// installs every package whose name contains cuda-12<any>1: the cuda-12-1 and
// cuda-runtime-12-1 metapackages among them, which depend on cuda-drivers.
bool cuda_dotted_version(std::string_view rest) {
    auto dot = rest.find('.');
    return dot != std::string_view::npos && all_digits(rest.substr(0, dot)) &&
           all_digits(rest.substr(dot + 1));
}

// The package, or what it pulls in, is the driver. Empty when it is not.
std::string driver_reason(const std::string& n) {
    if (n.starts_with("nvidia-driver") || n.starts_with("libnvidia-compute-") ||
        n.starts_with("nvidia-kernel-") || n.starts_with("kmod-nvidia") ||
        n.starts_with("nvidia-dkms-") || n.starts_with("libnvidia-gl-") ||
        n.starts_with("nvidia-utils-") || n == "libcuda1" || n.starts_with("libcuda1-") ||
        n == "nvidia-cuda-driver" || n.starts_with("xserver-xorg-video-nvidia")) {
        return "a driver package";
    }
    // NVENC/NVDEC libraries of one driver branch (libnvidia-encode-535); they depend on
    // libnvidia-compute of that branch, which is libcuda. A glob (`libnvidia-encode-*`)
    // installs every branch's.
    if (n.starts_with("libnvidia-encode-") || n.starts_with("libnvidia-decode-"))
        return "a driver library package";
    if (n == "cuda-drivers" || n.starts_with("cuda-drivers-")) return "the driver metapackage";
    if (n == "cuda" ||
        (n.starts_with("cuda-") && cuda_version_suffix(std::string_view(n).substr(5))) ||
        (n.starts_with("cuda-runtime-") && cuda_version_suffix(std::string_view(n).substr(13)))) {
        return "depends on cuda-drivers";
    }
    if (n.starts_with("cuda-") && cuda_dotted_version(std::string_view(n).substr(5)))
        return "a pattern to apt-get, which installs the cuda-X-Y metapackages that depend on "
               "cuda-drivers";
    return {};
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database&) {
    std::vector<report::Finding> out;
    // One finding per install command: one decision to undo.
    std::map<int, std::vector<const dockerfile::Package*>> by_line;
    for (std::size_t stage : lint::shipped_stages(facts)) {
        for (const auto& p : facts.stages.at(stage).packages) {
            if (p.inherited || p.manager != dockerfile::Manager::apt) continue;
            if (!driver_reason(p.name).empty()) by_line[p.line].push_back(&p);
        }
    }
    for (const auto& [line, packages] : by_line) {
        std::vector<std::string> names;
        for (const auto* p : packages) {
            if (std::find(names.begin(), names.end(), p->name) == names.end())
                names.push_back(p->name);
        }
        auto f = lint::finding(facts, "CUVL12", line, packages.front()->end_line);
        f.severity = report::Severity::error;
        f.message = "apt installs " + lint::join(names, ", ") +
                    ", which puts a driver (libcuda, libnvidia-ml) into the image; it clashes with "
                    "the host "
                    "driver the container runtime mounts: 'Driver/library version mismatch' or "
                    "CUDA error 803.";
        for (const auto* p : packages)
            f.evidence.push_back(p->name + ": " + driver_reason(p->name));
        const bool metapackage = std::any_of(packages.begin(), packages.end(), [](const auto* p) {
            return driver_reason(p->name).find("cuda-drivers") != std::string::npos;
        });
        f.fix =
            metapackage
                ? "Install the toolkit without the driver (cuda-toolkit-X-Y, or cuda-libraries-X-Y "
                  "for run time) and let the container runtime provide the driver."
                : "Remove the driver packages; the NVIDIA container runtime provides the host's "
                  "driver.";
        out.push_back(std::move(f));
    }
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL12";
    i.name = "driver-packages";
    i.severity = report::Severity::error;
    return i;
}

}  // namespace cuvl12

extern const LintCheck cuvl12_driver_packages;
const LintCheck cuvl12_driver_packages{cuvl12::info(), &cuvl12::run};

}  // namespace cuvet::checks
