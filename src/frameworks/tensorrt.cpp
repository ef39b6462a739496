// TensorRT's Python package: judged from its build facts (rules/frameworks.json).
#include "cuvet/frameworks/framework.hpp"

namespace cuvet::frameworks {

const Framework& tensorrt() {
    static const Framework framework{
        .name = "tensorrt",
        .display = "TensorRT",
        .component = "tensorrt-python",
    };
    return framework;
}

}  // namespace cuvet::frameworks
