#pragma once
// Whether a framework accepts the cuDNN it loads (rules cudnn_load_rules), and
// what its release prints when it does not (rules error_texts). Shared by
// CUV004 (an older cuDNN is loaded) and CUV005 (a mix answers with the older
// sub-libraries' version).
#include <optional>
#include <string>

#include "check_util.hpp"

namespace cuvet::checks::util {

// The cuDNN a framework was built with, and whether it refuses the one it loads: Stack facts
// that freeze and diff record too (cuvet/stack/stack_facts.hpp).
// Evidence words the install's own pin here, where the checks word their evidence.
std::optional<stack::BuiltCudnnFact> built_cudnn(const rules::Database& db,
                                                 const FrameworkInstall& fw);
inline bool refuses(const rules::Version& loaded, const rules::Version& built,
                    const std::string& rule) {
    return stack::cudnn_refused(loaded, built, rule);
}

// What this release of the framework prints when it refuses the cuDNN it loaded: ONNX Runtime
// names only majors; PyTorch once had its own text for another major.
std::optional<FrameworkWords> refusal(const rules::Database& db, const Stack& stack,
                                      const FrameworkInstall& fw, const rules::Version& built,
                                      const rules::Version& runtime);

}  // namespace cuvet::checks::util
