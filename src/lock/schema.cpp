#include "schema.hpp"

#include <algorithm>

#include "cuvet/core/error.hpp"

namespace cuvet::lock {

const std::vector<KindSchema>& kinds() {
    static const std::vector<KindSchema> list = {
        {"image", {"name", "config-digest", "platform"}, 0},
        {"runtime-start", {"mode", "driver", "ld-library-path"}, 1},
        {"env", {"name", "value"}, 1},
        {"entry", {"label"}, 1},
        {"cuda", {"version", "source"}, 1},
        {"driver-floor", {"version", "full", "cuda"}, 1},
        {"framework",
         {"name", "version", "variant", "cuda", "cudnn", "cudnn-rule", "gpu-package", "root"},
         2},
        {"framework-arch", {"framework", "file", "sass", "ptx"}, 2},
        {"framework-load", {"framework", "component", "path"}, 2},
        {"library", {"family", "path", "soname", "version", "cuda-major", "owner", "loaded-by"}, 2},
        {"compat", {"path", "version"}, 1},
        {"driver-lib", {"path"}, 1},
    };
    return list;
}

const KindSchema* kind_schema(std::string_view kind) {
    for (const auto& k : kinds())
        if (k.kind == kind) return &k;
    return nullptr;
}

namespace {

std::size_t kind_index(std::string_view kind) {
    const auto& list = kinds();
    for (std::size_t i = 0; i < list.size(); ++i)
        if (list[i].kind == kind) return i;
    return list.size();
}

}  // namespace

void sort_records(std::vector<Record>& records) {
    std::stable_sort(records.begin(), records.end(), [](const Record& a, const Record& b) {
        const auto ka = kind_index(a.kind), kb = kind_index(b.kind);
        if (ka != kb) return ka < kb;
        const auto* schema = kind_schema(a.kind);
        if (schema == nullptr) return false;
        for (auto field : schema->fields) {
            const auto& va = a.get(field);
            const auto& vb = b.get(field);
            if (va != vb) return va < vb;
        }
        return false;
    });
    records.erase(std::unique(records.begin(), records.end(),
                              [](const Record& a, const Record& b) {
                                  return a.kind == b.kind && a.fields == b.fields;
                              }),
                  records.end());
}

Record checked(Record record, const std::string& where) {
    const auto* schema = kind_schema(record.kind);
    if (schema == nullptr)
        fail_input(where + ": unknown record kind '" + record.kind +
                   "' (docs/freeze.md lists them)");
    Record out;
    out.kind = record.kind;
    for (std::size_t i = 0; i < schema->fields.size(); ++i) {
        const auto field = schema->fields[i];
        std::size_t seen = 0;
        for (const auto& [key, value] : record.fields)
            if (key == field) {
                if (++seen == 1) out.fields.emplace_back(key, value);
            }
        if (seen > 1) fail_input(where + ": field '" + std::string(field) + "' given twice");
        if (seen == 0 && i < schema->required)
            fail_input(where + ": " + record.kind + " record without its '" + std::string(field) +
                       "' field");
    }
    for (const auto& [key, value] : record.fields)
        if (std::find(schema->fields.begin(), schema->fields.end(), key) == schema->fields.end())
            fail_input(where + ": " + record.kind + " record has no field '" + key + "'");
    return out;
}

const std::string& Record::get(std::string_view key) const {
    static const std::string none;
    for (const auto& [k, v] : fields)
        if (k == key) return v;
    return none;
}

std::vector<const Record*> Lock::all(std::string_view kind) const {
    std::vector<const Record*> out;
    for (const auto& r : records)
        if (r.kind == kind) out.push_back(&r);
    return out;
}

const Record* Lock::first(std::string_view kind) const {
    for (const auto& r : records)
        if (r.kind == kind) return &r;
    return nullptr;
}

}  // namespace cuvet::lock
