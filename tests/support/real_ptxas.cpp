#include "support/real_ptxas.hpp"

#include <cstdlib>
#include <string>

namespace cuvet::test {

std::vector<std::filesystem::path> real_ptxas_programs() {
    std::vector<std::filesystem::path> out;
    auto add = [&](const std::filesystem::path& p) {
        std::error_code ec;
        if (!p.empty() && std::filesystem::is_regular_file(p, ec)) out.push_back(p);
    };
    add("/usr/local/cuda/bin/ptxas");
    if (const char* extra = std::getenv("CUVET_TEST_PTXAS")) {
        std::string list = extra;
        std::size_t at = 0;
        while (at <= list.size()) {
            auto colon = list.find(':', at);
            add(list.substr(at, colon == std::string::npos ? std::string::npos : colon - at));
            if (colon == std::string::npos) break;
            at = colon + 1;
        }
    }
    return out;
}

}  // namespace cuvet::test
