#include "cudnn_acceptance.hpp"

namespace cuvet::checks::util {

std::optional<stack::BuiltCudnnFact> built_cudnn(const rules::Database& db,
                                                 const FrameworkInstall& fw) {
    auto built = stack::built_cudnn_of(db, fw);
    if (built && built->from.empty())
        built->from =
            "the install's own metadata (a wheel's Requires-Dist cuDNN pin, or the version file "
            "the framework writes its build into)";
    return built;
}

std::optional<FrameworkWords> refusal(const rules::Database& db, const Stack& stack,
                                      const FrameworkInstall& fw, const rules::Version& built,
                                      const rules::Version& runtime) {
    rules::MessageValues values;
    values.cudnn_major = std::to_string(built.major());
    if (fw.built_cuda) values.cuda_major = std::to_string(fw.built_cuda->major());
    // Its own words for another major where it has them, else for the version; a framework
    // with neither gives up its whole CUDA provider instead and says that (ONNX Runtime's EP).
    std::string kind = "cudnn_version_mismatch";
    if (built.major() != runtime.major() &&
        db.framework_error_text(fw.name, "cudnn_major_mismatch", fw.version))
        kind = "cudnn_major_mismatch";
    else if (!db.framework_error_text(fw.name, kind, fw.version) &&
             db.framework_error_text(fw.name, "cuda_ep_unavailable", fw.version))
        kind = "cuda_ep_unavailable";
    return framework_says(db, fw, kind, values, built, runtime,
                          stack.env.count("LD_LIBRARY_PATH") > 0);
}

}  // namespace cuvet::checks::util
