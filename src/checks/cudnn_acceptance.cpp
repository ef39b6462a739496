#include "cudnn_acceptance.hpp"

#include "cuvet/checks/stack_facts.hpp"

namespace cuvet::checks::util {

std::optional<BuiltCudnn> built_cudnn(const rules::Database& db, const FrameworkInstall& fw) {
    const auto* row = build_row(db, fw);
    auto built = fw.built_cudnn;
    std::string from =
        "the install's own metadata (a wheel's Requires-Dist cuDNN pin, TensorFlow's "
        "build_info.py)";
    // TensorFlow's build_info says only the major ("8"); the rules row knows the minor it was built
    // with.
    bool row_is_finer =
        row && row->cudnn &&
        (!built || (built->size() < row->cudnn->size() && built->major() == row->cudnn->major()));
    if (row_is_finer) built = row->cudnn, from = cite(row->provenance);
    if (!built) return std::nullopt;  // unknown stays unknown
    return BuiltCudnn{*built, from};
}

bool refuses(const rules::Version& loaded, const rules::Version& built, const std::string& rule) {
    if (loaded.major() != built.major()) return true;
    // A loaded version known only by its major ("libcudnn.so.9" with no package, header or
    // version in the binary) is unknown, not older: no verdict.
    if (rule == "same_major_minor_at_least" && built.size() >= 2 && loaded.size() >= 2)
        return loaded.minor() < built.minor();
    return false;
}

std::optional<FrameworkWords> refusal(const rules::Database& db, const Stack& stack,
                                      const FrameworkInstall& fw, const rules::Version& built,
                                      const rules::Version& runtime) {
    rules::MessageValues values;
    values.cudnn_major = std::to_string(built.major());
    if (fw.built_cuda) values.cuda_major = std::to_string(fw.built_cuda->major());
    std::string kind = "cudnn_version_mismatch";
    if (fw.name == "onnxruntime")
        kind = "cuda_ep_unavailable";
    else if (built.major() != runtime.major() &&
             db.framework_error_text(fw.name, "cudnn_major_mismatch", fw.version))
        kind = "cudnn_major_mismatch";
    return framework_says(db, fw, kind, values, built, runtime,
                          stack.env.count("LD_LIBRARY_PATH") > 0);
}

}  // namespace cuvet::checks::util

namespace cuvet::checks {

// The public face of the helpers above (cuvet/checks/stack_facts.hpp), for `cuvet freeze` and
// `cuvet diff`.
std::optional<BuiltCudnnFact> built_cudnn_of(const rules::Database& db,
                                             const FrameworkInstall& fw) {
    auto built = util::built_cudnn(db, fw);
    if (!built) return std::nullopt;
    return BuiltCudnnFact{std::move(built->version), std::move(built->from)};
}

bool cudnn_refused(const rules::Version& loaded, const rules::Version& built,
                   const std::string& rule) {
    return util::refuses(loaded, built, rule);
}

std::vector<const ElfObject*> framework_objects(const Stack& stack, const FrameworkInstall& fw) {
    return util::objects_of(stack, fw);
}

}  // namespace cuvet::checks
