#pragma once
// Private to src/lock: the record kinds of schema 1 (docs/freeze.md), in the order
// a lock lists them, each with its fields in the order they are written.
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/lock/lock.hpp"

namespace cuvet::lock {

struct KindSchema {
    std::string_view kind;
    std::vector<std::string_view> fields;
    std::size_t required = 1;  // the first `required` fields must be present
};

const std::vector<KindSchema>& kinds();
const KindSchema* kind_schema(std::string_view kind);
// Canonical order: kinds in schema order, then by field values.
void sort_records(std::vector<Record>& records);
// Puts fields in schema order; throws Error(input) "<where>: …" on an unknown
// kind or field, a repeated field or a missing required one.
Record checked(Record record, const std::string& where);

}  // namespace cuvet::lock
