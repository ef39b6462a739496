#include <catch2/catch.hpp>
#include <filesystem>

#include "cuvet/rules/by_name_loads.hpp"
#include "cuvet/rules/cudnn_sub_libraries.hpp"
#include "cuvet/rules/database.hpp"
#include "rules/rules_fixtures.hpp"
#include "support/temp_dir.hpp"

using cuvet::rules::Database;
using cuvet::test::TempDir;

// Checks ask for cuDNN's sub-libraries and the by-name loads once per image and per check: the
// tables' text is parsed on the first ask only. An override read from --rules-dir shows it: once
// read, removing the file changes nothing.
TEST_CASE("the cudnn and sonames parts read again are parsed once and kept in the Database",
          "[rules][on-demand]") {
    TempDir dir;
    cuvet::test::write_file(dir / "cudnn.json", cuvet::test::builtin_table("cudnn.json").dump());
    cuvet::test::write_file(dir / "sonames.json",
                            cuvet::test::builtin_table("sonames.json").dump());
    const auto db = Database::load(dir.path());

    const auto& sets = cuvet::rules::cudnn_sub_libraries(db);
    const auto& loads = cuvet::rules::by_name_loads(db);
    REQUIRE_FALSE(sets.empty());
    REQUIRE_FALSE(loads.empty());
    std::filesystem::remove(dir / "cudnn.json");
    std::filesystem::remove(dir / "sonames.json");

    CHECK(&cuvet::rules::cudnn_sub_libraries(db) == &sets);
    CHECK(&cuvet::rules::by_name_loads(db) == &loads);
    CHECK(cuvet::rules::cudnn_sub_libraries(db).size() == sets.size());
    CHECK(cuvet::rules::by_name_loads(db).size() == loads.size());

    // A copy shares what was read: the tables never change after loading.
    const Database copy = db;  // NOLINT(performance-unnecessary-copy-initialization)
    CHECK(&cuvet::rules::cudnn_sub_libraries(copy) == &sets);
}
