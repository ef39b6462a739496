#include "cuvet/checks/registry.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "cuvet/rules/database.hpp"
#include "cuvet/stack/stack.hpp"

using namespace cuvet;

TEST_CASE("the registry holds the 14 validate checks of issue 4", "[checks][registry]") {
    const auto& validate = checks::validate_checks();
    REQUIRE(validate.size() >= 14);
    for (int i = 1; i <= 14; ++i) {
        char id[8];
        std::snprintf(id, sizeof id, "CUV%03d", i);
        INFO(id);
        CHECK(checks::find_check(id) != nullptr);
    }
}

TEST_CASE("every check has complete metadata and its own file", "[checks][registry]") {
    std::set<std::string> ids;
    for (const auto& entry : checks::all_checks()) {
        const checks::CheckInfo& info = *entry.info;
        INFO(info.id);
        CHECK(ids.insert(info.id).second);  // unique
        CHECK_FALSE(info.title.empty());
        CHECK_FALSE(info.name.empty());
        CHECK(info.rationale.size() >= 40);
        CHECK_FALSE(info.failing_example.empty());
        CHECK_FALSE(info.passing_example.empty());
        CHECK_FALSE(info.fix.empty());
        CHECK(info.title.find('\n') == std::string::npos);
        // One check, one file: src/checks/[lint/|live/]<id>_<short_name>.cpp (hadolint model).
        std::string prefix = info.id + "_";
        for (char& c : prefix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        int files = 0;
        for (const auto& file : std::filesystem::recursive_directory_iterator(
                 std::string(CUVET_SOURCE_DIR) + "/src/checks")) {
            files += file.path().filename().string().rfind(prefix, 0) == 0;
        }
        CHECK(files == 1);
    }
}

TEST_CASE("find_check ignores case and refuses unknown ids", "[checks][registry]") {
    REQUIRE(checks::find_check("cuv009"));
    CHECK(checks::find_check("cuv009")->info->name == "driver-too-old");
    CHECK(checks::find_check("CUV009")->kind == checks::CheckKind::validate);
    CHECK_FALSE(checks::find_check("CUV999"));
    CHECK_FALSE(checks::find_check(""));
}

TEST_CASE("running the checks stamps registry metadata and runs only implemented ones",
          "[checks][registry]") {
    stack::Stack stack;
    auto db = rules::Database::load();
    auto findings = checks::run_validate_checks(stack, db);
    std::size_t implemented = 0;
    for (const auto* check : checks::validate_checks()) implemented += check->run != nullptr;
    if (implemented == 0) CHECK(findings.empty());
    for (const auto& finding : findings) {
        CHECK_FALSE(finding.id.empty());
        CHECK_FALSE(finding.title.empty());
    }
}
