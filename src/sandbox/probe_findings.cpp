#include "cuvet/sandbox/probe_findings.hpp"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>

#include "live_finding.hpp"

namespace cuvet::sandbox {
namespace {

using report::Finding;

void add_evidence(Finding& finding, const ProbeReport& report) {
    for (const std::string& error : report.errors) finding.evidence.push_back("probe: " + error);
    for (const std::string& object : report.loaded_objects)
        finding.evidence.push_back("loaded: " + object);
}

std::string last_lines(const std::string& text, std::size_t count) {
    std::vector<std::string> lines;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        if (end > at) lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    std::string tail;
    for (std::size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i)
        tail += (tail.empty() ? "" : " | ") + lines[i];
    return tail;
}

void load_failures(const ProbeReport& report, std::vector<Finding>& out) {
    for (const ProbeLibrary& lib : report.libraries) {
        if (lib.role == "libcuda") continue;  // no driver is "no GPU visible", not a broken image
        if (!lib.loaded) {
            Finding finding = live_finding(
                "CUVG01",
                lib.role + " (" + lib.requested + ") failed to load inside the image: " + lib.error,
                "ship the missing library in the image, or fix the search path that should find "
                "it");
            finding.locations.push_back({lib.requested, 0, 0});
            add_evidence(finding, report);
            out.push_back(std::move(finding));
        } else if (!lib.missing_symbols.empty()) {
            std::string names;
            for (const std::string& name : lib.missing_symbols)
                names += (names.empty() ? "" : ", ") + name;
            Finding finding = live_finding(
                "CUVG01",
                lib.path + " loaded but lacks " + names + " (wrong library or major version)",
                "make the loader find a matching " + lib.role + " library");
            finding.locations.push_back({lib.path, 0, 0});
            out.push_back(std::move(finding));
        }
    }
}

// Directories the cuDNN objects were mapped from. cuDNN 9's libcudnn.so.9 is
// a shim that dlopen()s its sub-libraries through its RUNPATH ($ORIGIN), and
// LD_LIBRARY_PATH comes before RUNPATH: a shim from one copy can end up
// running the sub-libraries of another.
std::vector<std::string> cudnn_dirs(const ProbeReport& report) {
    std::vector<std::string> dirs;
    for (const std::string& object : report.loaded_objects) {
        const std::filesystem::path path = std::filesystem::path(object).lexically_normal();
        if (path.filename().string().rfind("libcudnn", 0) != 0) continue;
        const std::string dir = path.parent_path().string();
        if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
    }
    return dirs;
}

void version_mismatch(const ProbeReport& report, const ProbePlan& plan, std::vector<Finding>& out) {
    if (!report.cudnn_version || !plan.expect.cudnn_version) return;
    const std::string loaded = cudnn_version_string(*report.cudnn_version);
    if (loaded == *plan.expect.cudnn_version) return;
    const ProbeLibrary* lib = report.library("cudnn");
    const std::string path = lib != nullptr ? lib->path : std::string("libcudnn");
    Finding finding = live_finding(
        "CUVG02",
        "cuDNN " + loaded + " was loaded from " + path + ", but the image's inventory says " +
            *plan.expect.cudnn_version + " (" + plan.expect.cudnn_source + ")",
        "remove the other cuDNN copy from the loader's path (LD_LIBRARY_PATH, ld.so.conf), "
        "or install the cuDNN version the framework was built against");
    const std::vector<std::string> dirs = cudnn_dirs(report);
    if (dirs.size() > 1) {
        std::string list;
        for (const std::string& dir : dirs) list += (list.empty() ? "" : ", ") + dir;
        finding.message +=
            "; cuDNN's libraries were mixed from " + list +
            " (LD_LIBRARY_PATH comes before libcudnn.so's RUNPATH when it loads its sub-libraries)";
    }
    finding.locations.push_back({path, 0, 0});
    add_evidence(finding, report);
    out.push_back(std::move(finding));
}

// cuInit's answer from the toolkit's stub libcuda (CUresult 34; the stub may not name it).
bool is_stub_driver(const ProbeReport& report) {
    return report.cu_init == "CUDA_ERROR_STUB_LIBRARY" || report.cu_init == "CUresult 34";
}

}  // namespace

std::vector<Finding> probe_findings(const ProbeReport& report, const ProbePlan& plan) {
    std::vector<Finding> out;
    if (report.verdict == "no_device" && is_stub_driver(report)) {
        // The stub answers cuInit with CUDA_ERROR_STUB_LIBRARY: the image's loader path reaches
        // the toolkit's link-time stub before the driver the container runtime mounts.
        const ProbeLibrary* lib = report.library("libcuda");
        const std::string path =
            lib != nullptr && !lib->path.empty() ? lib->path : std::string("libcuda.so.1");
        Finding finding = live_finding(
            "CUVG03",
            "cuInit failed with CUDA_ERROR_STUB_LIBRARY: the image loaded the CUDA toolkit's "
            "stub " +
                path + " instead of the host driver's libcuda.so.1; every CUDA call fails",
            "keep the stubs directory off LD_LIBRARY_PATH and RPATH (it is for linking only); the "
            "NVIDIA container toolkit mounts the real libcuda.so.1");
        finding.locations.push_back({path, 0, 0});
        add_evidence(finding, report);
        out.push_back(std::move(finding));
        return out;
    }
    if (report.verdict == "no_device") {
        Finding finding = live_finding(
            "CUVG05",
            "the probe saw no usable GPU inside the image" +
                (report.cu_init.empty() ? std::string() : " (cuInit: " + report.cu_init + ")"),
            "run on a host with an NVIDIA GPU and driver; check /dev/nvidia* and the driver "
            "libraries");
        add_evidence(finding, report);
        out.push_back(std::move(finding));
        return out;
    }
    load_failures(report, out);
    version_mismatch(report, plan, out);
    if (report.verdict == "init_failed") {
        std::string message = "CUDA/cuDNN initialisation failed inside the image";
        if (!report.errors.empty()) message += ": " + report.errors.back();
        Finding finding =
            live_finding("CUVG03", message,
                         "match the CUDA runtime to the host driver (or ship cuda-compat), "
                         "and cuDNN to the runtime");
        add_evidence(finding, report);
        out.push_back(std::move(finding));
    }
    for (const ProbeConv& conv : report.convs) {
        if (!conv.ran) {
            Finding finding = live_finding(
                "CUVG06",
                conv.dtype + " convolution failed at " + conv.failed_stage + ": " + conv.status,
                "check that cuDNN's kernels support this GPU (its compute capability) and the "
                "sub-libraries (libcudnn_cnn, libcudnn_engines_*) are present");
            add_evidence(finding, report);
            out.push_back(std::move(finding));
        } else if (!conv.ok) {
            Finding finding = live_finding(
                "CUVG04",
                conv.dtype + " convolution (algo " + std::to_string(conv.algo) +
                    ") differs from the CPU "
                    "reference: " +
                    std::to_string(conv.mismatches) + " elements outside atol " +
                    std::to_string(conv.atol) + " + rtol " + std::to_string(conv.rtol) +
                    ", max abs error " + std::to_string(conv.max_abs_error),
                "the GPU stack computes wrong results: check driver, cuDNN and GPU health");
            add_evidence(finding, report);
            out.push_back(std::move(finding));
        }
    }
    return out;
}

Finding probe_failed_finding(const ProcessResult& process, const std::string& runtime) {
    std::string why;
    if (process.output_truncated) {
        why =
            "printed more than its output limit and was killed (the output was truncated; no "
            "result is believed)";
    } else if (process.timed_out) {
        why = "was killed after its timeout (" + std::to_string(static_cast<int>(process.seconds)) +
              " s)";
    } else if (!process.setup_error.empty()) {
        why = "could not start: " + process.setup_error;
    } else if (process.signal != 0) {
        why = std::string("crashed with signal ") + std::to_string(process.signal) + " (" +
              strsignal(process.signal) + ")";
    } else {
        why = "exited with code " + std::to_string(process.exit_code) + " and printed no result";
    }
    Finding finding = live_finding(
        "CUVG07", "the probe (" + runtime + " runtime) " + why,
        "see the evidence: the probe's last stage names the call that hung or crashed");
    const std::string tail = last_lines(process.err, 6);
    if (!tail.empty()) finding.evidence.push_back("stderr: " + tail);
    return finding;
}

}  // namespace cuvet::sandbox
