// CUV017 scan-incomplete
#include "checks.hpp"

namespace cuvet::checks {

namespace cuv017 {

constexpr std::size_t listed = 10;  // paths named in the message; the rest are evidence

std::vector<report::Finding> run(const Stack& stack, const rules::Database&) {
    std::vector<report::Finding> out;
    const auto& paths = stack.unreadable_paths;
    if (paths.empty()) return out;
    report::Finding f;
    std::string names;
    for (std::size_t i = 0; i < paths.size() && i < listed; ++i)
        names += (i ? ", " : "") + paths[i];
    if (paths.size() > listed) names += " and " + std::to_string(paths.size() - listed) + " more";
    f.message = "The scan is partial: " + std::to_string(paths.size()) +
                (paths.size() == 1 ? " path" : " paths") +
                " of the root file system could not be read (" + names +
                "); libraries and programs there are unknown, so no other finding (or their "
                "absence) is complete";
    for (std::size_t i = 0; i < paths.size() && i < listed; ++i) f.locations.push_back({paths[i]});
    for (const auto& path : paths) f.evidence.push_back(path + ": permission denied");
    out.push_back(std::move(f));
    return out;
}

}  // namespace cuv017

const ValidateCheck cuv017_scan_incomplete{
    CheckInfo{
        .id = "CUV017",
        .severity = report::Severity::error,
        .name = "scan-incomplete",
    },
    &cuv017::run,
};

}  // namespace cuvet::checks
