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
        .title = "The ENTRYPOINT/CMD program cannot be started",
        .rationale =
            "The runtime execve()s the ENTRYPOINT's first word (the CMD's when there is no "
            "ENTRYPOINT): a name with '/' from WORKDIR, any other name from the directories of "
            "PATH. When that file is not in the merged file system (never added, zero layers, "
            "removed by a whiteout), is a directory, is no regular file, is not executable for "
            "the image's USER (mode and owner from the layer, uid and groups from /etc/passwd "
            "and /etc/group), is a script whose \"#!\" interpreter is missing, or the USER "
            "itself is unknown, the container exits at once (\"exec: no such file or "
            "directory\", \"permission denied\", exit 126 or 127) and none of the libraries "
            "the other checks judge is ever loaded: \"nothing it runs breaks\" would be a lie. "
            "An image that names no program at all is given one at `docker run` and is not "
            "judged.",
        .failing_example = "FROM ubuntu:22.04\nCOPY app /usr/local/bin/app\nRUN chmod 0644 "
                           "/usr/local/bin/app\nENTRYPOINT [\"/usr/local/bin/app\"]\n# → CUV021 "
                           "/usr/local/bin/app is not executable for root (mode 0644)",
        .passing_example = "FROM ubuntu:22.04\nCOPY --chmod=0755 app /usr/local/bin/app\n"
                           "ENTRYPOINT [\"/usr/local/bin/app\"]",
        .fix = "Make the ENTRYPOINT/CMD name a program the image has, as a regular file its "
               "USER may execute; remove the layer or whiteout that deletes it.",
        .name = "entrypoint-cannot-start",
    },
    &cuv021::run,
};

}  // namespace cuvet::checks
