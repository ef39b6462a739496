// TensorFlow: judged from its build facts (rules/frameworks.json); no live smoke test yet.
#include "cuvet/frameworks/framework.hpp"

namespace cuvet::frameworks {

const Framework& tensorflow() {
    static const Framework framework{
        .name = "tensorflow",
        .display = "TensorFlow",
        .component = "tensorflow",
        .error_markers = {"Loaded runtime CuDNN library"},  // XLA/TensorFlow's cuDNN version check
    };
    return framework;
}

}  // namespace cuvet::frameworks
