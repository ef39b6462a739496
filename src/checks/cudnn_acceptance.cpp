#include "cudnn_acceptance.hpp"

namespace cuvet::checks::util {

std::optional<stack::BuiltCudnnFact> built_cudnn(const rules::Database& db,
                                                 const FrameworkInstall& fw) {
    auto built = stack::built_cudnn_of(db, fw);
    if (built && built->from.empty())
        built->from =
            "the install's own metadata (a wheel's Requires-Dist cuDNN pin, TensorFlow's "
            "build_info.py)";
    return built;
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
