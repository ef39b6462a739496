// The cuDNN a framework was built with and whether it accepts the one it loads (CUV004,
// CUV005, freeze, diff).
#include "cuvet/stack/stack_facts.hpp"

namespace cuvet::stack {

const rules::FrameworkBuild* build_row(const rules::Database& db, const FrameworkInstall& fw) {
    return db.framework_build(fw.name, fw.version, fw.variant);
}

std::optional<BuiltCudnnFact> built_cudnn_of(const rules::Database& db,
                                             const FrameworkInstall& fw) {
    const auto* row = build_row(db, fw);
    auto built = fw.built_cudnn;
    std::string from;  // "": the install's own metadata, which the reporter words (checks: CUV004)
    // TensorFlow's build_info says only the major ("8"); the rules row knows the minor it was built
    // with.
    bool row_is_finer =
        row && row->cudnn &&
        (!built || (built->size() < row->cudnn->size() && built->major() == row->cudnn->major()));
    if (row_is_finer) built = row->cudnn, from = rules::cite(row->provenance);
    if (!built) return std::nullopt;  // unknown stays unknown
    return BuiltCudnnFact{*built, from};
}

bool cudnn_refused(const rules::Version& loaded, const rules::Version& built,
                   const std::string& rule) {
    if (loaded.major() != built.major()) return true;
    // A loaded version known only by its major ("libcudnn.so.9" with no package, header or
    // version in the binary) is unknown, not older: no verdict.
    if (rule == "same_major_minor_at_least" && built.size() >= 2 && loaded.size() >= 2)
        return loaded.minor() < built.minor();
    return false;
}

}  // namespace cuvet::stack
