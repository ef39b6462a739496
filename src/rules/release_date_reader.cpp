// The optional "released" object of a nccl.json or kernel_compilers.json release: the day (or
// month) the release came out, with its own source. The staleness test measures the table's newest
// release against the day its facts were checked (rules/SCHEMA.md, "How current the tables
// are"); the checks themselves never read it.
#include "table_loaders.hpp"

namespace cuvet::rules::detail {

namespace {

bool is_digit_run(std::string_view text) {
    if (text.empty()) return false;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

// "2026-06-04" or "2026-10" (where the source gives only the month).
bool is_release_date(std::string_view date) {
    if (date.size() != 7 && date.size() != 10) return false;
    if (!is_digit_run(date.substr(0, 4)) || date[4] != '-' || !is_digit_run(date.substr(5, 2)))
        return false;
    const int month = (date[5] - '0') * 10 + (date[6] - '0');
    if (month < 1 || month > 12) return false;
    if (date.size() == 7) return true;
    if (date[7] != '-' || !is_digit_run(date.substr(8, 2))) return false;
    const int day = (date[8] - '0') * 10 + (date[9] - '0');
    return day >= 1 && day <= 31;
}

}  // namespace

void check_release_date(const JsonNode& row, const ProvenanceReader& provenance) {
    auto released = row.get("released");
    if (!released) return;
    released->expect_object({"date", "source", "confidence", "note"});
    const JsonNode date = released->at("date");
    if (!is_release_date(date.string())) date.fail("expected a date \"YYYY-MM-DD\" or \"YYYY-MM\"");
    // A date is a fact like any other: its source must name an entry of the table's sources.
    (void)provenance(*released);
}

}  // namespace cuvet::rules::detail
