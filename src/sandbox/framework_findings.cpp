#include "cuvet/sandbox/framework_findings.hpp"

#include <algorithm>
#include <filesystem>

#include "cuvet/frameworks/framework.hpp"
#include "cuvet/sandbox/probe_report.hpp"
#include "live_finding.hpp"

namespace cuvet::sandbox {
namespace {

using report::Finding;
using report::Severity;

bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

std::string name_of(const SmokeResult& result) {
    return result.target.framework +
           (result.version.empty() ? std::string() : " " + result.version);
}

// The CUDA libraries the process really mapped, one line each, for the evidence.
void add_loaded(Finding& finding, const SmokeResult& result) {
    for (const std::string& message : result.framework_messages)
        finding.evidence.push_back("stderr: " + message);
    for (const std::string& path : result.loaded) finding.evidence.push_back("loaded: " + path);
    finding.evidence.push_back("interpreter: " + result.target.interpreter);
}

// "cuDNN 9.14.0 from /usr/lib/x86_64-linux-gnu" when the process mapped cuDNN.
std::string loaded_cudnn(const SmokeResult& result) {
    std::string dir;
    for (const std::string& path : result.loaded) {
        const std::filesystem::path p(path);
        if (p.filename().string().rfind("libcudnn.so", 0) == 0) dir = p.parent_path().string();
    }
    if (dir.empty() && !result.cudnn_version) return {};
    std::string text = "cuDNN";
    if (result.cudnn_version) text += " " + cudnn_version_string(*result.cudnn_version);
    if (!dir.empty()) text += " from " + dir;
    return text;
}

// The concrete change, from the framework's own words.
std::string fix_for(const SmokeResult& result) {
    const std::string all = result.error + "\n" + [&] {
        std::string joined;
        for (const std::string& line : result.framework_messages) joined += line + "\n";
        return joined;
    }();
    const frameworks::Framework* framework = frameworks::find(result.target.framework);
    const frameworks::SmokeWords said{all, result.verdict};
    if (contains(all, "cuDNN version incompatibility"))
        return "make the loader find the cuDNN " + result.target.framework +
               " was built against: reinstall its nvidia-cudnn wheel at the pinned version, and "
               "remove "
               "LD_LIBRARY_PATH or ld.so.conf entries that put another cuDNN first";
    if (framework != nullptr && framework->fix_first != nullptr)
        if (auto fix = framework->fix_first(said); !fix.empty()) return fix;
    if (contains(all, "Failure finding") || contains(all, "cannot open shared object file") ||
        contains(all, "not found in the system path"))
        return "install the library named above in the image (its nvidia-* wheel or the CUDA/cuDNN "
               "package), "
               "where the framework looks for it";
    if (framework != nullptr && framework->fix_last != nullptr)
        if (auto fix = framework->fix_last(said); !fix.empty()) return fix;
    return "make the CUDA libraries the framework reports loadable in the image";
}

Finding import_failed(const SmokeResult& result) {
    Finding finding =
        live_finding("CUVG10",
                     "import " + result.target.framework + " (" + result.target.package_dir +
                         ") failed inside the image: " + result.error,
                     fix_for(result));
    finding.locations.push_back({result.target.package_dir, 0, 0});
    add_loaded(finding, result);
    return finding;
}

Finding cpu_fallback(const SmokeResult& result) {
    const frameworks::Framework* framework = frameworks::find(result.target.framework);
    const std::string what = framework != nullptr && !framework->cpu_fallback.empty()
                                 ? std::string(framework->cpu_fallback)
                                 : "no GPU device";
    std::string message = name_of(result) + " silently fell back to the CPU: " + what;
    if (!result.framework_messages.empty())
        message += "; it said: " + result.framework_messages.front();
    Finding finding = live_finding("CUVG11", message, fix_for(result));
    finding.locations.push_back({result.target.package_dir, 0, 0});
    add_loaded(finding, result);
    return finding;
}

Finding compute_failed(const SmokeResult& result) {
    std::string message = name_of(result) + " imported but failed at its " + result.stage +
                          " step on the GPU: " + result.error;
    for (const std::string& line : result.framework_messages) {
        if (!contains(message, line) &&
            (contains(line, "libdevice") || contains(line, "ptxas") || contains(line, "PTX"))) {
            message += "; " + line;
            break;
        }
    }
    if (const std::string cudnn = loaded_cudnn(result); !cudnn.empty())
        message += " (loaded " + cudnn + ")";
    Finding finding = live_finding("CUVG12", message, fix_for(result));
    finding.locations.push_back({result.target.package_dir, 0, 0});
    add_loaded(finding, result);
    return finding;
}

std::string stderr_tail(const std::string& err) {
    std::string tail = err.size() > 400 ? err.substr(err.size() - 400) : err;
    std::replace(tail.begin(), tail.end(), '\n', ' ');
    return tail;
}

Finding did_not_finish(const SmokeResult& result) {
    const ProcessResult& process = result.process;
    std::string how;
    if (!process.setup_error.empty()) {
        how = "could not start: " + process.setup_error;
    } else if (process.output_truncated) {
        how =
            "printed more than its output limit and was killed (the output was truncated; no "
            "result is "
            "believed)";
    } else if (process.timed_out) {
        how = "was killed after " + std::to_string(static_cast<int>(process.seconds)) +
              " s (the framework probe's timeout)";
    } else if (process.signal != 0) {
        how = "died of signal " + std::to_string(process.signal);
    } else {
        how = "exited with code " + std::to_string(process.exit_code) + " without a result";
    }
    Finding finding = live_finding(
        "CUVG14",
        result.target.interpreter + " running the " + result.target.framework + " probe " + how +
            (process.err.empty() ? std::string() : "; stderr: " + stderr_tail(process.err)),
        "run the image's python by hand in the container and look at its error; "
        "raise --framework-timeout when the first import is just slow");
    finding.locations.push_back({result.target.package_dir, 0, 0});
    add_loaded(finding, result);
    return finding;
}

Finding worked(const SmokeResult& result) {
    std::string message;
    if (result.verdict == "cpu_only_build") {
        message = name_of(result) +
                  " is a CPU-only build (no CUDAExecutionProvider); it ran the Conv on the CPU";
    } else {
        message = name_of(result) + " ran its GPU check and matched the CPU answer";
        if (const std::string cudnn = loaded_cudnn(result); !cudnn.empty())
            message += "; loaded " + cudnn;
    }
    Finding finding = live_finding("CUVG16", message, {});
    finding.locations.push_back({result.target.package_dir, 0, 0});
    for (const std::string& path : result.loaded) finding.evidence.push_back("loaded: " + path);
    return finding;
}

bool mentions(const Finding& finding, const std::string& needle) {
    if (contains(finding.message, needle) || contains(finding.title, needle)) return true;
    for (const auto& location : finding.locations) {
        if (contains(location.file, needle)) return true;
    }
    return std::any_of(finding.evidence.begin(), finding.evidence.end(),
                       [&](const std::string& line) { return contains(line, needle); });
}

// `needle` starting a word: at the start of a line or after a space or '('.
bool word_in(const std::string& text, const std::string& needle) {
    for (std::size_t at = text.find(needle); at != std::string::npos;
         at = text.find(needle, at + 1)) {
        const std::size_t end = at + needle.size();
        const bool starts =
            at == 0 || text[at - 1] == ' ' || text[at - 1] == '(' || text[at - 1] == '\n';
        const bool ends = needle.back() == ' ' || end == text.size() || text[end] == ' ' ||
                          text[end] == ')' || text[end] == ':' || text[end] == ',';
        if (starts && ends) return true;
    }
    return false;
}

bool mentions_word(const Finding& finding, const std::string& needle) {
    if (word_in(finding.message, needle)) return true;
    for (const auto& location : finding.locations) {
        if (location.file == needle || word_in(location.file, needle)) return true;
    }
    return false;
}

}  // namespace

std::string live_verdict(const SmokeResult& result) {
    if (!result.parsed) return "fails";
    if (result.verdict == "ok") return "works";
    if (result.verdict == "cpu_only_build") return "cpu_only_build";
    if (result.verdict == "cpu_fallback") return "cpu";
    return "fails";
}

std::vector<Finding> smoke_findings(const SmokeResult& result) {
    if (!result.parsed) return {did_not_finish(result)};
    if (result.verdict == "ok" || result.verdict == "cpu_only_build") return {worked(result)};
    if (result.verdict == "cpu_fallback") return {cpu_fallback(result)};
    if (result.verdict == "wrong_result") {
        Finding finding = live_finding(
            "CUVG13",
            name_of(result) + "'s GPU convolution differs from the CPU answer (max abs error " +
                std::to_string(result.max_abs_error) + ")",
            "check the GPU and driver, and that the libraries the framework loaded are the ones "
            "it was built with");
        finding.locations.push_back({result.target.package_dir, 0, 0});
        add_loaded(finding, result);
        return {finding};
    }
    if (result.stage == "import") return {import_failed(result)};
    return {compute_failed(result)};
}

std::vector<const Finding*> static_findings_for(const std::vector<Finding>& static_findings,
                                                const SmokeTarget& target) {
    std::vector<const Finding*> out;
    for (const Finding& finding : static_findings) {
        if (finding.id.rfind("CUVG", 0) == 0) continue;
        // The package's own directory, or the framework named as a word ("torch 2.11.0 pins …");
        // never a path that merely contains the name (a venv at /opt/torch/.venv holds jax too).
        if (mentions(finding, target.package_dir + "/") ||
            mentions_word(finding, target.package_dir) ||
            mentions_word(finding, target.framework + " "))
            out.push_back(&finding);
    }
    return out;
}

std::vector<Finding> static_live_disagreements(const std::vector<Finding>& static_findings,
                                               const std::vector<SmokeResult>& results,
                                               const std::optional<std::string>& expected_cudnn,
                                               const std::string& expected_cudnn_source) {
    std::vector<Finding> out;
    for (const SmokeResult& result : results) {
        const std::string live = live_verdict(result);
        std::vector<const Finding*> errors;
        for (const Finding* finding : static_findings_for(static_findings, result.target)) {
            if (finding->severity == Severity::error) errors.push_back(finding);
        }
        const bool live_fails = live == "fails" || live == "cpu";
        if (live_fails && errors.empty()) {
            Finding finding = live_finding(
                "CUVG15",
                "the static check found no error for " + result.target.framework + " (" +
                    result.target.package_dir + "), but live it " +
                    (live == "cpu" ? "fell back to the CPU" : "failed") +
                    (result.error.empty() ? std::string() : ": " + result.error),
                "a missing rule in cuvet: report it with this image's findings in json");
            finding.locations.push_back({result.target.package_dir, 0, 0});
            out.push_back(std::move(finding));
        } else if (live == "works" && !errors.empty()) {
            std::string ids;
            for (const Finding* error : errors) {
                if (!contains(ids, error->id)) ids += (ids.empty() ? "" : ", ") + error->id;
            }
            Finding finding = live_finding(
                "CUVG15",
                "the static check reports " + ids + " for " + result.target.framework +
                    ", but live it imported, ran its convolution on the GPU and matched the CPU: " +
                    errors.front()->message,
                "a false error in cuvet's static model: report it with this image's findings in "
                "json");
            finding.locations.push_back({result.target.package_dir, 0, 0});
            out.push_back(std::move(finding));
        }
        if (expected_cudnn && result.cudnn_version) {
            const std::string loaded = cudnn_version_string(*result.cudnn_version);
            if (loaded != *expected_cudnn) {
                Finding finding = live_finding(
                    "CUVG15",
                    "the static check says the image loads cuDNN " + *expected_cudnn + " (" +
                        expected_cudnn_source + "); " + result.target.framework + " loaded " +
                        loaded_cudnn(result),
                    "remove the other cuDNN from the loader's path, or report the static model's "
                    "miss with this image's findings in json");
                finding.locations.push_back({result.target.package_dir, 0, 0});
                out.push_back(std::move(finding));
            }
        }
    }
    return out;
}

}  // namespace cuvet::sandbox
