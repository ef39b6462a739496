// CUVL09: an nvidia/cuda tag that does not exist in the published scheme.
#include <cctype>
#include <optional>

#include "checks/lint/lint_support.hpp"
#include "cuvet/checks/registry.hpp"

namespace cuvet::checks {
namespace cuvl09 {

// FROM nvidia/11.6.0-runtime-ubuntu20.04: the repository name was left out of the tag.
std::optional<report::Finding> missing_repository(const dockerfile::Facts& facts,
                                                  const dockerfile::StageFacts& stage) {
    const auto& image = stage.base.image;
    if (stage.base.kind != dockerfile::BaseKind::other || image.registry != "docker.io" ||
        !image.repository.starts_with("nvidia/") || image.repository.size() < 8 ||
        !std::isdigit(static_cast<unsigned char>(image.repository[7]))) {
        return std::nullopt;
    }
    const std::string tag = image.repository.substr(7);
    const int line = facts.build.stages.at(stage.stage).from_line;
    auto f = lint::finding(facts, "CUVL09", line, line);
    f.severity = report::Severity::error;
    f.message = stage.base.reference +
                " names no image: NVIDIA publishes CUDA images as nvidia/cuda:<tag>, "
                "so the pull fails ('repository does not exist').";
    f.fix = "Use nvidia/cuda:" + tag + " (check that the tag is still published).";
    return f;
}

void flavour_findings(const dockerfile::Facts& facts, const dockerfile::StageFacts& stage,
                      const rules::Database& db, std::vector<report::Finding>& out);

std::string suggestion_fix(const rules::CudaTagAnswer& answer) {
    return answer.suggestion.empty()
               ? "Use a published CUDA release (see hub.docker.com/r/nvidia/cuda/tags)."
               : "Use nvidia/cuda:" + answer.suggestion + ", the nearest published tag.";
}

report::Finding deleted_tag(const dockerfile::Facts& facts, const dockerfile::StageFacts& stage,
                            const rules::CudaTagAnswer& answer) {
    const int line = facts.build.stages.at(stage.stage).from_line;
    auto f = lint::finding(facts, "CUVL09", line, line);
    f.severity = report::Severity::error;
    const std::string& tag = stage.base.image.tag;
    f.message = tag == "latest" || tag.empty()
                    ? stage.base.reference +
                          " has no tag, and nvidia/cuda publishes no 'latest': the pull fails "
                          "with 'manifest unknown'."
                    : stage.base.reference +
                          " was deleted: NVIDIA removes end-of-life nvidia/cuda tags, so the "
                          "pull fails with 'manifest unknown'.";
    f.evidence.push_back("rules: nvidia_cuda_tags (" + answer.provenance.source.url + ")");
    f.fix = suggestion_fix(answer);
    return f;
}

report::Finding unpublished_tag(const dockerfile::Facts& facts, const dockerfile::StageFacts& stage,
                                const rules::CudaTagAnswer& answer) {
    const int line = facts.build.stages.at(stage.stage).from_line;
    auto f = lint::finding(facts, "CUVL09", line, line);
    f.severity = report::Severity::error;
    f.message = stage.base.reference + " was never published (no such flavour or OS for CUDA " +
                answer.cuda + "): the pull fails with 'manifest unknown'.";
    f.evidence.push_back("rules: nvidia_cuda_tags (" + answer.provenance.source.url + ")");
    f.fix = suggestion_fix(answer);
    return f;
}

std::vector<report::Finding> run(const dockerfile::Facts& facts, const rules::Database& db) {
    std::vector<report::Finding> out;
    for (const auto& stage : facts.stages) {
        if (stage.parent) continue;  // reported at the stage that names the image
        if (auto f = missing_repository(facts, stage)) {
            out.push_back(std::move(*f));
            continue;
        }
        const auto& base = stage.base;
        if (base.kind != dockerfile::BaseKind::nvidia_cuda) continue;
        const auto answer =
            base.image.tag.empty() ? rules::CudaTagAnswer{} : db.nvidia_cuda_tag(base.image.tag);
        if (answer.status == rules::CudaTagStatus::deleted) {
            out.push_back(deleted_tag(facts, stage, answer));
            continue;
        }
        const std::size_t before = out.size();
        flavour_findings(facts, stage, db, out);
        if (out.size() == before && answer.status == rules::CudaTagStatus::not_published) {
            out.push_back(unpublished_tag(facts, stage, answer));
        }
    }
    return out;
}

// nvidia/cuda:<tag> spellings: the flavour and its cuDNN prefix per CUDA release.
void flavour_findings(const dockerfile::Facts& facts, const dockerfile::StageFacts& stage,
                      const rules::Database& db, std::vector<report::Finding>& out) {
    {
        const auto& base = stage.base;
        if (base.cuda.empty()) return;
        auto cuda = rules::Version::parse(base.cuda);
        if (!cuda) return;
        const int line = facts.build.stages.at(stage.stage).from_line;
        auto f = lint::finding(facts, "CUVL09", line, line);
        f.severity = report::Severity::error;
        if (base.flavor != "base" && base.flavor != "runtime" && base.flavor != "devel") {
            f.message = base.reference + ": '" + base.flavor +
                        "' is not an nvidia/cuda flavour "
                        "(base, runtime, devel), so the tag does not exist and the pull fails.";
            f.fix = "Use <cuda>-[cudnn-]runtime-<os> or <cuda>-[cudnn-]devel-<os>.";
            out.push_back(std::move(f));
            return;
        }
        if (base.cudnn_token.empty()) return;
        if (base.flavor == "base") {
            f.message = base.reference +
                        ": cuDNN flavours exist only for runtime and devel images; "
                        "the tag does not exist and the pull fails.";
            f.fix = "Use the " + base.cudnn_token + "-runtime flavour.";
            out.push_back(std::move(f));
            return;
        }
        auto flavors = db.cudnn_flavors_for(*cuda);
        if (flavors.empty()) return;  // a CUDA release the table does not cover: unknown
        std::string spelled;
        bool found = false;
        for (const auto* flavor : flavors) {
            if (flavor->flavor_prefix == base.cudnn_token) found = true;
            spelled += (spelled.empty() ? "" : " or ") + std::string("'") + flavor->flavor_prefix +
                       "' (cuDNN " + std::to_string(flavor->cudnn_major) + ")";
        }
        if (found) return;
        f.message = base.reference + ": nvidia/cuda publishes no '" + base.cudnn_token +
                    "' flavour for CUDA " + cuda->str() +
                    "; for that release the cuDNN flavour is "
                    "spelled " +
                    spelled + ". The pull fails with 'manifest unknown'.";
        f.evidence.push_back("rules: nvidia_cuda_tags cudnn_flavors (" +
                             flavors.front()->provenance.source.url + ")");
        f.fix = "Use " + cuda->str() + "-" + flavors.front()->flavor_prefix + "-" + base.flavor +
                (base.distro.empty() ? "" : "-" + base.distro) +
                ", or a CUDA release that shipped " + base.cudnn_token + ".";
        out.push_back(std::move(f));
    }
}

CheckInfo info() {
    CheckInfo i;
    i.id = "CUVL09";
    i.name = "base-tag-not-published";
    i.severity = report::Severity::error;
    return i;
}

}  // namespace cuvl09

extern const LintCheck cuvl09_base_tag_not_published;
const LintCheck cuvl09_base_tag_not_published{cuvl09::info(), &cuvl09::run};

}  // namespace cuvet::checks
