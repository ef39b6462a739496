#pragma once
// Where a fact of rules/*.json comes from (rules/SCHEMA.md, "Common shape").
#include <string>

namespace cuvet::rules {

struct Source {
    std::string url;
    std::string title;
};

// Where a fact comes from and how far it was checked.
struct Provenance {
    std::string table;       // "cudnn"
    std::string source_key;  // key in the file's "sources" map
    Source source;
    std::string confidence;  // "" (checked against the primary), "secondary", "observed", "B", "C"
    std::string note;

    bool verified() const {
        return confidence.empty() || confidence == "secondary" || confidence == "observed";
    }
};

// How evidence cites a fact: "rules/frameworks.json: <title> <url> (confidence B)".
inline std::string cite(const Provenance& p) {
    std::string out = "rules/" + p.table + ".json: " + p.source.title;
    if (!p.source.url.empty()) out += " <" + p.source.url + ">";
    if (!p.confidence.empty()) out += " (confidence " + p.confidence + ")";
    return out;
}

}  // namespace cuvet::rules
