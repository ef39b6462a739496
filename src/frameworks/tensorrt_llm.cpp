// TensorRT-LLM: judged from its build facts (rules/frameworks.json).
#include "cuvet/frameworks/framework.hpp"

namespace cuvet::frameworks {

const Framework& tensorrt_llm() {
    static const Framework framework{
        .name = "tensorrt-llm",
        .display = "TensorRT-LLM",
        .component = "tensorrt-llm",
    };
    return framework;
}

}  // namespace cuvet::frameworks
