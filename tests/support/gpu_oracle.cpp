#include "support/gpu_oracle.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

namespace cuvet::test {

std::string recorded_framework_error(const std::string& variant, const std::string& framework) {
    std::ifstream runs(std::string(CUVET_SOURCE_DIR) + "/testdata/gpu/agreement/run5/smoke.jsonl");
    std::string line;
    while (std::getline(runs, line)) {
        auto row = nlohmann::json::parse(line, nullptr, false);
        if (row.is_discarded() || row.value("variant", "") != variant ||
            row.value("framework", "") != framework)
            continue;
        const auto& result = row["result"];
        if (!result.is_object() || !result.contains("error") || !result["error"].is_string())
            return "";
        std::string error = result["error"].get<std::string>();
        if (auto colon = error.find(": "); colon != std::string::npos && colon < 40)
            error.erase(0, colon + 2);
        while (!error.empty() && error.back() == ' ') error.pop_back();
        return error;
    }
    return "";
}

}  // namespace cuvet::test
