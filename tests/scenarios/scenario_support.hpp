#pragma once
// Runs the real `cuvet validate` on a scenario image and reads its JSON report.
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace cuvet::test {

struct CliReport {
    int exit_code = -1;
    std::multiset<std::string> ids;
    nlohmann::json json;
    std::string err;
};

inline CliReport validate_cli(const std::string& image, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"validate", image, "--format", "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto result = run_cuvet(args);
    CliReport report;
    report.exit_code = result.exit_code;
    report.err = result.err;
    report.json = nlohmann::json::parse(result.out, nullptr, false);
    if (report.json.is_object())
        for (const auto& f : report.json["findings"]) report.ids.insert(f["id"].get<std::string>());
    return report;
}

inline std::string dump(const CliReport& report) {
    return "exit " + std::to_string(report.exit_code) + "\nstderr: " + report.err + "\n" +
           (report.json.is_object() ? report.json.dump(1) : std::string("(no JSON)"));
}

}  // namespace cuvet::test
