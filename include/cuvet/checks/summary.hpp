#pragma once
// The first line of a validate report: what the image runs and with which
// CUDA and cuDNN ("runs ENTRYPOINT /opt/app/bin/infer, pytorch 2.1.0+cu121;
// CUDA 12.1.105 (the libcudart torch loads); cuDNN 8.9.2.26").
#include <string>

#include "cuvet/stack/stack.hpp"

namespace cuvet::checks {

std::string stack_summary(const stack::Stack& stack);

}  // namespace cuvet::checks
