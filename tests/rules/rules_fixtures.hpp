#pragma once
// The compiled-in rules tables, as the rules tests read them: the database, one table's JSON,
// and the error the loader gives when one table is replaced.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cuvet/core/error.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/rules/embedded.hpp"
#include "support/builtin_rules.hpp"

namespace cuvet::test {

inline rules::Version v(const char* text) { return *rules::Version::parse(text); }

// A built-in table file ("nccl.json") as JSON.
inline nlohmann::json builtin_table(const std::string& file) {
    for (const auto& [name, text] : rules::embedded_rule_files()) {
        if (name == file) return nlohmann::json::parse(text);
    }
    FAIL("no built-in " << file);
    return {};
}

// The input error loading the built-in tables with `file` replaced by `text`; "" when it loads.
inline std::string load_error_with(const std::string& file, const std::string& text) {
    std::vector<rules::Database::File> files;
    for (const auto& [name, contents] : rules::embedded_rule_files()) {
        files.push_back({std::string(name), name == file ? text : std::string(contents),
                         "rules/" + std::string(name)});
    }
    try {
        rules::Database::from_files(files);
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::input);
        return e.what();
    }
    return "";
}

inline std::string load_error_with(const std::string& file, const nlohmann::json& table) {
    return load_error_with(file, table.dump());
}

}  // namespace cuvet::test
