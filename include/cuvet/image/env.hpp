#pragma once
// The environment a container runs with: the image config's Env, with
// `docker run -e KEY=VALUE` style overrides on top (same key: replaced).
#include <string>
#include <vector>

namespace cuvet::image {

// Throws cuvet::Error(usage) for an override that is not KEY=VALUE.
std::vector<std::string> with_env_overrides(std::vector<std::string> env,
                                            const std::vector<std::string>& overrides);

}  // namespace cuvet::image
