#pragma once
// Whether a framework accepts the cuDNN it loads (rules cudnn_load_rules), and
// what its release prints when it does not (rules error_texts). Shared by
// CUV004 (an older cuDNN is loaded) and CUV005 (a mix answers with the older
// sub-libraries' version).
#include <optional>
#include <string>

#include "check_util.hpp"

namespace cuvet::checks::util {

// The cuDNN a framework was built with and where that is known from; nullopt when unknown.
struct BuiltCudnn {
    rules::Version version;
    std::string from;
};
std::optional<BuiltCudnn> built_cudnn(const rules::Database& db, const FrameworkInstall& fw);

// The framework refuses `loaded` under its load rule ("same_major_minor_at_least", "same_major").
bool refuses(const rules::Version& loaded, const rules::Version& built, const std::string& rule);

// What this release of the framework prints when it refuses the cuDNN it loaded: ONNX Runtime
// names only majors; PyTorch once had its own text for another major.
std::optional<FrameworkWords> refusal(const rules::Database& db, const Stack& stack,
                                      const FrameworkInstall& fw, const rules::Version& built,
                                      const rules::Version& runtime);

}  // namespace cuvet::checks::util
