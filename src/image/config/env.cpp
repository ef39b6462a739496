#include "cuvet/image/env.hpp"

#include <algorithm>

#include "cuvet/core/error.hpp"

namespace cuvet::image {

std::vector<std::string> with_env_overrides(std::vector<std::string> env,
                                            const std::vector<std::string>& overrides) {
    for (const std::string& entry : overrides) {
        const auto equals = entry.find('=');
        if (equals == std::string::npos || equals == 0)
            fail_usage("--env " + entry + ": expected KEY=VALUE");
        const std::string key = entry.substr(0, equals + 1);
        std::erase_if(env,
                      [&](const std::string& existing) { return existing.rfind(key, 0) == 0; });
        env.push_back(entry);
    }
    return env;
}

}  // namespace cuvet::image
