#include "checks/lint/stage_built_wheel.hpp"

#include "checks/lint/lint_support.hpp"
#include "cuvet/core/path_text.hpp"

namespace cuvet::checks::lint {
namespace {

using dockerfile::Manager;

struct WheelFile {
    std::string path;
    int line = 0;
    int end_line = 0;
};

// The last component of a COPY path; a trailing slash (/wheels/) still names the folder.
std::string last_component(std::string_view path) {
    while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
    return std::string(base_name(path));
}

// The wheel files a stage's own pip commands install: read as packages when the file name
// says which (torch-2.1.0-….whl), kept as opaque local wheels when it does not (ort_custom.whl).
std::vector<WheelFile> installed_wheel_files(const dockerfile::StageFacts& stage) {
    std::vector<WheelFile> out;
    for (const auto& p : stage.packages) {
        if (!p.inherited && is_wheel_file(p)) out.push_back({p.word, p.line, p.end_line});
    }
    for (const auto& r : stage.requirements) {
        if (r.kind == "local wheel") out.push_back({r.path, r.line, r.line});
    }
    return out;
}

// The stage a COPY --from of this stage took the wheel from: the copied file itself
// (/opt/ort_custom.whl) or the folder it sits in (/tensorflow-wheel → /tmp/tensorflow-wheel/*.whl).
std::optional<std::size_t> wheel_source_stage(const dockerfile::Facts& facts,
                                              const dockerfile::StageFacts& stage,
                                              const WheelFile& wheel) {
    const std::string file = last_component(wheel.path);
    for (const auto& copy : facts.build.stages.at(stage.stage).copy_from) {
        for (const auto& source : copy.sources) {
            const std::string copied = last_component(source);
            if (copied != file && wheel.path.find("/" + copied + "/") == std::string::npos)
                continue;
            for (const auto& built : facts.build.stages) {
                if (built.index < stage.stage &&
                    (built.name == copy.from || std::to_string(built.index) == copy.from))
                    return built.index;
            }
        }
    }
    return std::nullopt;
}

// The cuDNN a stage compiles against: its headers from apt (libcudnn8-dev), the one sign
// that a build there links cuDNN (a cudnn-devel base alone may build a wheel that never does).
const dockerfile::Package* cudnn_headers(const dockerfile::StageFacts& stage) {
    for (const auto& p : stage.packages) {
        if (p.manager == Manager::apt && is_cudnn_package(p) &&
            p.name.find("-dev") != std::string::npos && cudnn_major(p))
            return &p;
    }
    return nullptr;
}

}  // namespace

std::vector<report::Finding> stage_built_wheel_mismatches(const dockerfile::Facts& facts,
                                                          const rules::Database& db) {
    std::vector<report::Finding> out;
    for (const auto& stage : facts.stages) {
        for (const auto& wheel : installed_wheel_files(stage)) {
            const auto builder = wheel_source_stage(facts, stage, wheel);
            if (!builder) continue;
            const dockerfile::Package* headers = cudnn_headers(facts.stages.at(*builder));
            if (!headers) continue;
            const int built_with = *cudnn_major(*headers);
            // The installing stage's cuDNN: its base's, else what its own apt adds.
            std::optional<int> present = base_stack(stage.base, db).cudnn_major;
            std::string present_from = "the base image " + stage.base.reference;
            bool has_builders = false;
            for (const auto& p : stage.packages) {
                if (p.inherited || p.manager != Manager::apt || !is_cudnn_package(p)) continue;
                const auto major = cudnn_major(p);
                if (major == built_with) has_builders = true;
                if (!present && major) {
                    present = major;
                    present_from = "apt " + p.word;
                }
            }
            if (!present || *present == built_with || has_builders) continue;
            const std::string builder_name = facts.build.stages.at(*builder).name;
            auto f = finding(facts, "CUVL01", wheel.line, wheel.end_line);
            f.severity = report::Severity::error;
            f.message = "the wheel " + wheel.path + " was built in stage " +
                        (builder_name.empty() ? std::to_string(*builder) : builder_name) +
                        " against cuDNN " + std::to_string(built_with) + ", but " + present_from +
                        " brings cuDNN " + std::to_string(*present) + ": libcudnn.so." +
                        std::to_string(built_with) + " is missing, so its GPU code fails to load.";
            f.evidence.push_back("line " + std::to_string(headers->line) + ": apt " +
                                 headers->word + " in the build stage");
            f.evidence.push_back("cuDNN " + std::to_string(*present) + " from " + present_from);
            f.fix = "Build the wheel against cuDNN " + std::to_string(*present) +
                    " (the installing stage's), or install cuDNN " + std::to_string(built_with) +
                    " in the stage that installs it.";
            out.push_back(std::move(f));
        }
    }
    return out;
}

}  // namespace cuvet::checks::lint
