// Every check's documented examples (CheckInfo: what `cuvet explain ID` and
// the SARIF rule help print) are run. A lint check's failing example is a
// Dockerfile that raises it and its passing example one that does not, through
// the call `cuvet lint` makes (with the options its first line names). A validate check's examples
// describe an image (building one needs the network): the failing one names the check it leads to
// ("# → CUV015 …") and the passing one does not.
#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

#include "cuvet/checks/registry.hpp"
#include "cuvet/lint/lint.hpp"
#include "cuvet/rules/database.hpp"
#include "support/builtin_rules.hpp"

using cuvet::test::db;
using namespace cuvet;

namespace {

// An example that needs an option says so in its first line, as the user would
// type it: "# cuvet lint --driver 470.82.01".
lint::Options options_of(const std::string& dockerfile) {
    lint::Options options;
    const std::string line = dockerfile.substr(0, dockerfile.find('\n'));
    if (line.rfind("# cuvet lint", 0) != 0) return options;
    std::istringstream words(line.substr(12));
    for (std::string word; words >> word;)
        if (word == "--driver" && words >> word) options.drivers.push_back(word);
    return options;
}

bool raises(const std::string& dockerfile, const std::string& id) {
    const auto result = lint::lint_text(dockerfile, "Dockerfile", db(), options_of(dockerfile));
    return std::any_of(result.findings.begin(), result.findings.end(),
                       [&](const report::Finding& f) { return f.id == id; });
}

}  // namespace

TEST_CASE("every lint check's failing example raises it and its passing example does not",
          "[lint][examples]") {
    for (const auto* check : checks::lint_checks()) {
        // The examples are the check's page (docs/checks/<ID>.md), read by the registry.
        const auto& info = *checks::find_check(check->info.id)->info;
        if (check->run == nullptr) continue;  // documented, not implemented
        SECTION(info.id) {
            INFO("failing example:\n" << info.failing_example);
            CHECK(raises(info.failing_example, info.id));
            INFO("passing example:\n" << info.passing_example);
            CHECK_FALSE(raises(info.passing_example, info.id));
        }
    }
}

TEST_CASE("every validate check's failing example names the check, its passing example does not",
          "[validate][examples]") {
    for (const auto* check : checks::validate_checks()) {
        const auto& info = *checks::find_check(check->info.id)->info;
        INFO(info.id << " failing example:\n" << info.failing_example);
        CHECK(info.failing_example.find(info.id) != std::string::npos);
        INFO("passing example:\n" << info.passing_example);
        CHECK(info.passing_example.find(info.id) == std::string::npos);
    }
}
