#pragma once
// A stack lock: the CUDA stack of one image as `cuvet validate` sees it, frozen
// into records a release pipeline can commit and compare (docs/freeze.md).
// One record per fact, each a kind and fields in the schema's order, so the
// text form diffs line by line and two freezes of one image are byte-identical.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuvet/image/image.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/stack/stack.hpp"

namespace cuvet::lock {

inline constexpr int schema_version = 1;

struct Record {
    std::string kind;  // "framework", "library", … (docs/freeze.md)
    std::vector<std::pair<std::string, std::string>>
        fields;  // schema order; absent fields left out
    // The field's value, "" when absent.
    const std::string& get(std::string_view key) const;
};

struct Lock {
    int schema = schema_version;
    std::vector<Record> records;  // canonical order (sort_records)
    std::string source;           // the file it was read from; "" when frozen here
    std::vector<const Record*> all(std::string_view kind) const;
    const Record* first(std::string_view kind) const;
};

// What names the image in a lock; the rest comes from the Stack.
struct FreezeContext {
    std::string image_name;     // what the user named
    std::string config_digest;  // "" when unknown (drift checks compare stacks, not images)
};

// The records of a built Stack, sorted.
Lock freeze(const stack::Stack& stack, const rules::Database& db, const FreezeContext& context);

// Text: "# comment" lines, then "lock-schema 1", then one "kind key=value …" line per record.
std::string to_text(const Lock& lock);
nlohmann::json to_json(const Lock& lock);
// Either form (JSON when the first non-blank character is '{'). Throws
// cuvet::Error(input) with one line naming `name` and the line at fault.
Lock parse(std::string_view text, const std::string& name);
// True when `head` (a file's first bytes) is a lock file rather than an image.
bool looks_like_lock(std::string_view head);

// What changed from `before` to `after`, grouped by what it breaks.
enum class Impact { breaks, may_break, changes };
std::string_view impact_name(Impact impact);  // "breaks", "may-break", "changes"

struct Change {
    Impact impact = Impact::changes;
    std::string kind;  // "cudnn-downgrade", "driver-floor-up", "arch-dropped", "library-moved", …
    std::string subject;  // what breaks: "pytorch 2.1.0", "libcudnn.so.8", "driver"
    std::string message;  // one sentence
    std::string before, after;
};

// Sorted: breaks first, then may-break, then changes; within, by kind and subject.
std::vector<Change> diff(const Lock& before, const Lock& after);
nlohmann::json to_json(const std::vector<Change>& changes);

}  // namespace cuvet::lock
