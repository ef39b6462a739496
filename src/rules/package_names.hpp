#pragma once
// PEP 503 name normalization: "Jax_CUDA12.Plugin" and "jax-cuda12-plugin" name one package.
#include <string>
#include <string_view>

namespace cuvet::rules::detail {

std::string normalize_package_name(std::string_view name);

}  // namespace cuvet::rules::detail
