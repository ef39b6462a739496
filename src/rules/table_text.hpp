#pragma once
// The text of one rules table as a Database loaded it: the built-in file or the --rules-dir
// override. Readers of a table's parts that Database does not keep (cuDNN's sub-library sets,
// the by-name loads) read it again from here: the loader has validated it already.
#include <optional>
#include <string>
#include <string_view>

#include "cuvet/rules/database.hpp"

namespace cuvet::rules {

// `table`: "cudnn", "sonames"; nullopt when `db` has no such table or its file cannot be read.
std::optional<std::string> table_text(const Database& db, std::string_view table);

}  // namespace cuvet::rules
