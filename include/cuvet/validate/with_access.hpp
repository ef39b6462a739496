#pragma once
// validate() for an image reached with credentials (a private registry).
#include "cuvet/image/access.hpp"
#include "cuvet/validate/validate.hpp"

namespace cuvet::validate {

Result validate(const std::string& image_path, const Options& options, const image::Access& access,
                const rules::Database& db, const config::Config& config);

}  // namespace cuvet::validate
