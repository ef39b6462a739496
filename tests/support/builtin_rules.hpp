#pragma once
// The compiled-in rules database, loaded once for the whole test run (loading parses every
// table; a test file's own copy would parse them again and, in a unity batch, clash).
#include "cuvet/rules/database.hpp"

namespace cuvet::test {

inline const rules::Database& db() {
    static const rules::Database database = rules::Database::load();
    return database;
}

}  // namespace cuvet::test
