#pragma once
// A finding: what validate and lint report. Renderers (text, json, sarif,
// junit, …) only ever see these.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::report {

enum class Severity { info, warning, error };
std::string_view to_string(Severity severity);
std::optional<Severity> parse_severity(std::string_view text);

struct Location {
    std::string file;  // image path ("/usr/lib/…") or Dockerfile path
    int line = 0;      // Dockerfile line (1-based), 0 when not a text location
    int end_line = 0;
};

struct Finding {
    std::string id;  // "CUV001"
    Severity severity = Severity::warning;
    std::string title;    // the check's one-line title
    std::string message;  // names the exact files and versions
    std::vector<Location> locations;
    std::vector<std::string> evidence;  // search trace, provenance lines
    std::string fix;                    // the concrete change to make
    // validate: what the image runs that maps the file ("ENTRYPOINT /opt/app/bin/infer",
    // "imported by torch"); empty when nothing does or the finding is not about a file.
    std::string loaded_by;
};

}  // namespace cuvet::report
