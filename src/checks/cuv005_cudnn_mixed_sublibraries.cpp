// CUV005 cudnn-mixed-sublibraries
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace {

// The mix ld.so makes at run time: the main libcudnn.so.N dlopens its
// sub-libraries by name, and with LD_LIBRARY_PATH pointing at another cuDNN
// (it beats the main library's RUNPATH $ORIGIN) they come from that other
// release, though every directory on its own is consistent.
void loaded_mix(const Stack& stack, std::vector<report::Finding>& out) {
    for (const auto& o : stack.objects) {
        const auto* main = stack.library(o.file);
        if (main == nullptr || main->family != "cudnn" || !main->version || main->version->size() < 3) continue;
        std::vector<std::pair<const Resolution*, const LibraryCopy*>> foreign;
        for (const auto& r : o.resolutions) {
            if (r.file.empty() || !util::starts_with(r.name, "libcudnn_")) continue;
            const auto* sub = stack.library(r.file);
            if (sub == nullptr || !sub->version || sub->version->size() < 3) continue;
            if (sub->version->truncated(3) != main->version->truncated(3)) foreign.emplace_back(&r, sub);
        }
        if (foreign.empty()) continue;
        report::Finding f;
        f.message = o.path + " (cuDNN " + main->version->truncated(3).str() + ") loads sub-libraries of another release:";
        for (const auto& [r, sub] : foreign) {
            f.message += " " + r->name + " -> " + sub->path + " (" + sub->version->truncated(3).str() + ", via " + r->rule + ");";
            f.locations.push_back({sub->path});
        }
        f.message.back() = '.';
        f.locations.insert(f.locations.begin(), {o.path});
        for (const auto& [r, sub] : foreign) util::add_trace(f, *r, 6);
        f.fix = "Let " + o.path + " find its own sub-libraries: drop the other cuDNN's directory from LD_LIBRARY_PATH (" +
                util::dir_name(foreign.front().second->path) + "), or remove that cuDNN from the image.";
        out.push_back(std::move(f));
    }
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    // One cuDNN install is one directory; sub-libraries must be from the same release.
    std::map<std::string, std::vector<const LibraryCopy*>> by_dir;
    for (const auto& copy : stack.libraries)
        if (util::starts_with(copy.family, "cudnn") && copy.version && copy.version->size() >= 3)
            by_dir[copy.dir()].push_back(&copy);
    std::vector<report::Finding> out;
    for (const auto& [dir, copies] : by_dir) {
        std::map<int, std::vector<const LibraryCopy*>> by_major;
        for (const auto* c : copies) by_major[c->version->major()].push_back(c);
        for (const auto& [major, group] : by_major) {
            const auto* sonames = db.cudnn_sonames(major);
            if (sonames == nullptr || !sonames->sub_libraries_must_match) continue;
            std::map<std::string, std::vector<const LibraryCopy*>> by_version;
            for (const auto* c : group) by_version[c->version->truncated(3).str()].push_back(c);
            if (by_version.size() < 2) continue;
            report::Finding f;
            f.message = "cuDNN " + std::to_string(major) + " libraries of different releases in " + dir + ":";
            for (const auto& [version, files] : by_version) {
                f.message += " " + version + " (";
                for (std::size_t i = 0; i < files.size(); ++i)
                    f.message += (i ? ", " : "") + util::base_name(files[i]->path);
                f.message += ");";
                for (const auto* c : files) f.locations.push_back({c->path});
            }
            f.message.back() = '.';
            f.evidence.push_back("cuDNN " + std::to_string(major) + " sub-libraries must come from one release: " + util::cite(sonames->provenance));
            auto newest = by_version.rbegin()->first;
            f.fix = "Reinstall every cuDNN " + std::to_string(major) + " library in " + dir + " from one release (e.g. all " + newest +
                    "): install the whole libcudnn" + std::to_string(major) + " package or wheel instead of copying single files.";
            out.push_back(std::move(f));
        }
    }
    loaded_mix(stack, out);
    return out;
}

}  // namespace

const ValidateCheck cuv005_cudnn_mixed_sublibraries{
    CheckInfo{
        .id = "CUV005",
        .severity = report::Severity::error,
        .title = "cuDNN sub-libraries of different versions",
        .rationale = "libcudnn.so.8 and .so.9 load their sub-libraries (libcudnn_ops_infer, libcudnn_cnn_infer, … in 8; libcudnn_graph, libcudnn_engines_*, … in 9) at run time, and require them to be the same release. A partial upgrade or a copied file leaves libcudnn.so.8.9.x next to libcudnn_cnn_infer.so.8.6.x; the first convolution then fails with CUDNN_STATUS_VERSION_MISMATCH or a symbol lookup error. The same mix happens at run time when LD_LIBRARY_PATH names another cuDNN's directory: it beats the main library's RUNPATH, so a pip libcudnn.so.9 loads the system's sub-libraries (seen on the H100 test machine: 9.19 main, 9.14 sub-libraries).",
        .failing_example = "/usr/lib/x86_64-linux-gnu/libcudnn.so.8 -> libcudnn.so.8.9.2\n/usr/lib/x86_64-linux-gnu/libcudnn_cnn_infer.so.8 -> libcudnn_cnn_infer.so.8.6.0\n# → CUV005 libcudnn_cnn_infer.so.8.6.0 is not the release of libcudnn.so.8.9.2",
        .passing_example = "/usr/lib/x86_64-linux-gnu/libcudnn.so.8 -> libcudnn.so.8.9.2\n/usr/lib/x86_64-linux-gnu/libcudnn_cnn_infer.so.8 -> libcudnn_cnn_infer.so.8.9.2",
        .fix = "Install all of cuDNN from one package (apt libcudnn8 or the pip wheel nvidia-cudnn-cuXX), never by copying single files; remove the stray sub-libraries.",
        .name = "cudnn-mixed-sublibraries",
    },
    &run,
};

}  // namespace cuvet::checks
