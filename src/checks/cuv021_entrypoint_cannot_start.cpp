// CUV021 entrypoint-cannot-start
#include "checks.hpp"

namespace cuvet::checks {

namespace cuv021 {

std::vector<report::Finding> run(const Stack& stack, const rules::Database&) {
    const auto& start = stack.entry_start;
    if (start.problem.empty()) return {};
    report::Finding f;
    f.message = start.source + " " + start.program + " cannot start: " + start.problem +
                "; the container fails before anything it would run is loaded";
    if (!start.path.empty()) f.locations.push_back({start.path});
    f.evidence.push_back(start.source + "[0]: " + start.program);
    if (!start.path.empty() && start.path != start.program)
        f.evidence.push_back("looked up as " + start.path);
    f.fix = "Make " + start.source +
            " name a program the image has, as a regular file the image's USER may execute "
            "(chmod +x, or chown it), or remove the layer or whiteout that deletes it.";
    return {std::move(f)};
}

}  // namespace cuv021

const ValidateCheck cuv021_entrypoint_cannot_start{
    CheckInfo{
        .id = "CUV021",
        .severity = report::Severity::error,
        .name = "entrypoint-cannot-start",
    },
    &cuv021::run,
};

}  // namespace cuvet::checks
