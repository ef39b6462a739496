// CUVL11: the shipped image puts its own libcuda (the toolkit's link-time stub, or
// the cuda-compat forward-compatibility driver) on the run-time loader path, ahead
// of the driver the NVIDIA container runtime mounts from the host.
#include <algorithm>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace cuvl11 {

enum class Kind { none, stub, compat };

// /usr/local/cuda/lib64/stubs, /usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs
// → stub; /usr/local/cuda/compat, /usr/local/cuda-12.4/compat, and NGC's
// /usr/local/cuda/compat/lib.real (the libraries compat/lib links to only where the host's
// driver is older) → compat.
Kind classify(std::string dir) {
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    const bool cuda = dir.find("cuda") != std::string::npos;
    if (cuda && (dir.ends_with("/stubs") || dir.find("/stubs/") != std::string::npos))
        return Kind::stub;
    if (cuda && (dir.ends_with("/compat") || dir.ends_with("/compat/lib.real")))
        return Kind::compat;
    return Kind::none;
}

bool injects_driver(std::string dir) {
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    return dir == "/usr/lib/x86_64-linux-gnu" || dir == "/usr/lib/aarch64-linux-gnu" ||
           dir == "/usr/lib64";
}

std::vector<std::string> split_path(const std::string& value) {
    std::vector<std::string> dirs;
    std::size_t start = 0;
    while (start <= value.size()) {
        std::size_t colon = value.find(':', start);
        dirs.push_back(
            value.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    return dirs;
}

// The ld.so.conf.d file a RUN writes `dir` into (`echo DIR > /etc/ld.so.conf.d/NAME`),
// empty when the text names none after the directory.
std::string conf_file_for(const std::string& text, const std::string& dir) {
    const auto at = text.find(dir);
    if (at == std::string::npos) return {};
    static const std::string conf_dir = "/etc/ld.so.conf.d/";
    const auto start = text.find(conf_dir, at + dir.size());
    if (start == std::string::npos) return {};
    const auto name_start = start + conf_dir.size();
    const auto name_end = text.find_first_of(" \t\n\"';&|)", name_start);
    return text.substr(name_start,
                       name_end == std::string::npos ? std::string::npos : name_end - name_start);
}

// On Debian and Ubuntu, ld.so.conf includes /etc/ld.so.conf.d/*.conf in name order and
// ldconfig keeps the first directory that has a soname: a file that sorts after the
// multiarch one (TensorFlow's z-cuda-stubs.conf after x86_64-linux-gnu.conf) lists its
// directory after the one the NVIDIA container toolkit injects the host's libcuda.so.1
// into, so the stub answers only where there is no driver (a build without a GPU).
bool listed_after_multiarch(const std::string& conf_file, const dockerfile::BaseFacts& base) {
    const std::string os = base.distro + " " + base.reference;
    const bool debian_family =
        os.find("ubuntu") != std::string::npos || os.find("debian") != std::string::npos;
    return debian_family && conf_file > "x86_64-linux-gnu.conf";
}

struct Hit {
    Kind kind = Kind::none;
    int line = 0;
    int end_line = 0;
    std::string how;        // for the message: "LD_LIBRARY_PATH lists /usr/local/cuda/lib64/stubs"
    std::string made = {};  // the file a RUN linked or copied, which a later `rm` can take away
};

// A later RUN of the shipped stages deletes the file (ln -s …/stubs/libcuda.so libcuda.so.1 for
// a build step, then rm -f …/libcuda.so.1): the image ships without it.
bool removed_later(const dockerfile::Facts& facts, const std::vector<std::size_t>& stages,
                   const Hit& hit) {
    for (std::size_t stage : stages) {
        for (const auto& run : facts.build.stages.at(stage).runs) {
            if (run.start_line <= hit.line) continue;
            for (const auto& command : run.commands) {
                const auto& w = command.words;
                if (w.empty() || !(w[0] == "rm" || w[0].ends_with("/rm"))) continue;
                if (std::find(w.begin() + 1, w.end(), hit.made) != w.end()) return true;
            }
        }
    }
    return false;
}

// RUN commands that make the loader see the stub or compat libcuda system-wide:
// `ln -s …/stubs/libcuda.so …/libcuda.so.1` outside the stub directory, `echo DIR >
// /etc/ld.so.conf.d/…`. Not `ldconfig DIR` alone: a directory named only on
// ldconfig's command line lives in /etc/ld.so.cache until the next ldconfig, and
// the NVIDIA container toolkit runs ldconfig from the image's ld.so.conf at every
// container start (docs/loader.md), so production never sees it.
void scan_runs(const dockerfile::Facts& facts, std::size_t stage, std::vector<Hit>& hits) {
    const dockerfile::BaseFacts& base = facts.stages.at(stage).base;
    for (const auto& run : facts.build.stages.at(stage).runs) {
        const std::string text = lint::run_text(facts, run);
        const bool conf = text.find("ld.so.conf") != std::string::npos;
        for (const auto& command : run.commands) {
            const auto& w = command.words;
            if (w.empty()) continue;
            const std::string program =
                w[0].substr(w[0].rfind('/') == std::string::npos ? 0 : w[0].rfind('/') + 1);
            for (std::size_t i = 1; i < w.size(); ++i) {
                const Kind kind = classify(w[i]);
                if (kind == Kind::none) continue;
                if (program == "echo" && conf) {
                    if (listed_after_multiarch(conf_file_for(text, w[i]), base)) break;
                    hits.push_back(
                        {kind, run.start_line, run.end_line, "ld.so.conf.d lists " + w[i]});
                    break;
                }
            }
            if ((program == "ln" || program == "cp") && w.size() >= 3) {
                const std::string& source = w[w.size() - 2];
                const std::string& target = w.back();
                const bool stub_source = source.find("stubs/libcuda.so") != std::string::npos;
                const bool into_stubs = target.find("/stubs") != std::string::npos;
                if (stub_source && !into_stubs && target.find("libcuda.so") != std::string::npos) {
                    hits.push_back({Kind::stub, run.start_line, run.end_line,
                                    program + " " + source + " " + target, target});
                }
            }
        }
    }
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database&) {
    std::vector<Hit> hits;
    const std::size_t final_stage = facts.build.final_stage;
    if (const auto* v = facts.env_variable(final_stage, "LD_LIBRARY_PATH")) {
        bool driver_first = false;
        for (const auto& dir : split_path(v->value)) {
            // The NVIDIA container toolkit injects the host's libcuda.so.1 into the
            // multiarch library directory: listed first, it wins over a later stub or
            // compat directory, which then never answers.
            driver_first = driver_first || injects_driver(dir);
            const Kind kind = classify(dir);
            if (kind != Kind::none && !driver_first)
                hits.push_back({kind, v->line, v->line, "LD_LIBRARY_PATH lists " + dir});
        }
    }
    const auto shipped = lint::shipped_stages(facts);
    for (std::size_t stage : shipped) scan_runs(facts, stage, hits);
    std::erase_if(hits, [&](const Hit& hit) {
        return !hit.made.empty() && removed_later(facts, shipped, hit);
    });
    std::vector<report::Finding> out;
    for (Kind kind : {Kind::stub, Kind::compat}) {
        auto first =
            std::find_if(hits.begin(), hits.end(), [&](const Hit& h) { return h.kind == kind; });
        if (first == hits.end()) continue;
        auto f = lint::finding(facts, "CUVL11", first->line, first->end_line);
        for (const auto& h : hits) {
            if (h.kind == kind)
                f.evidence.push_back(h.how + " (line " + std::to_string(h.line) + ")");
        }
        if (kind == Kind::stub) {
            f.severity = report::Severity::error;
            f.message = first->how +
                        ": at run time the loader finds the toolkit's stub libcuda instead of the "
                        "host driver, and CUDA calls fail with CUDA_ERROR_STUB_LIBRARY.";
            f.fix =
                "Keep the stub directory for linking only (LIBRARY_PATH or -L at build time); "
                "never put it "
                "on LD_LIBRARY_PATH or in ld.so.conf of the shipped image.";
        } else {
            f.severity = report::Severity::warning;
            f.message = first->how +
                        ": the image's forward-compatibility libcuda replaces the host driver for "
                        "every process; on a host with a newer driver CUDA fails with error 803 "
                        "(unsupported display driver / cuda driver combination).";
            f.fix =
                "Leave cuda-compat off the default loader path; enable it only on hosts whose "
                "driver is older "
                "than the image's CUDA (LD_LIBRARY_PATH at docker run).";
        }
        out.push_back(std::move(f));
    }
    return out;
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL11";
    i.name = "libcuda-from-image";
    i.severity = report::Severity::error;
    return i;
}

}  // namespace cuvl11

extern const LintCheck cuvl11_libcuda_from_image;
const LintCheck cuvl11_libcuda_from_image{cuvl11::info(), &cuvl11::run};

}  // namespace cuvet::checks
