#include "cuvet/report/finding.hpp"

namespace cuvet::report {

std::string_view to_string(Severity severity) {
    switch (severity) {
        case Severity::info:
            return "info";
        case Severity::warning:
            return "warning";
        case Severity::error:
            return "error";
    }
    return "warning";
}

std::optional<Severity> parse_severity(std::string_view text) {
    if (text == "info") return Severity::info;
    if (text == "warning") return Severity::warning;
    if (text == "error") return Severity::error;
    return std::nullopt;
}

}  // namespace cuvet::report
