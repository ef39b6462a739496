// CUV018 stack-drift
#include "checks.hpp"
#include "cuvet/lock/lock.hpp"

namespace cuvet::checks {

namespace cuv018 {

constexpr std::string_view frozen_here = "the frozen stack";

std::vector<report::Finding> run(const Stack& stack, const rules::Database& db) {
    std::vector<report::Finding> out;
    const lock::Lock* frozen = stack.targets.against;
    if (frozen == nullptr) return out;
    // The same records `cuvet freeze` writes, from the Stack every other check reads.
    const lock::Lock now = lock::freeze(stack, db, {stack.image, ""});
    const std::string name = frozen->source.empty() ? std::string(frozen_here) : frozen->source;
    for (const auto& change : lock::diff(*frozen, now)) {
        if (change.kind == "image") continue;  // another build of the same stack is no drift
        if (change.impact == lock::Impact::changes && !stack.targets.against_exact) continue;
        report::Finding f;
        f.severity = change.impact == lock::Impact::breaks || stack.targets.against_exact
                         ? report::Severity::error
                         : report::Severity::warning;
        f.message = "The image drifted from " + name + " (" +
                    std::string(lock::impact_name(change.impact)) + ", " + change.kind +
                    "): " + change.message;
        f.evidence.push_back("locked: " +
                             (change.before.empty() ? std::string("(none)") : change.before));
        f.evidence.push_back("image:  " +
                             (change.after.empty() ? std::string("(none)") : change.after));
        f.evidence.push_back("mode: " +
                             std::string(stack.targets.against_exact ? "exact" : "compatible"));
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace cuv018

const ValidateCheck cuv018_stack_drift{
    CheckInfo{
        .id = "CUV018",
        .severity = report::Severity::error,
        .title = "The image's CUDA stack drifted from its lock file",
        .rationale = "A stack that passed staging is frozen with `cuvet freeze IMAGE > "
                     "cuda-stack.lock`; a rebuild "
                     "that pulls another cuDNN wheel, a base image whose CUDA moved, or an "
                     "LD_LIBRARY_PATH that now "
                     "finds another copy runs a different stack under the same tag. With "
                     "`--against cuda-stack.lock` "
                     "validate compares the image with the lock (the comparison `cuvet diff` "
                     "makes) and reports each "
                     "change that breaks (error: a cuDNN older than a framework's pin, a higher "
                     "driver floor, a "
                     "dropped GPU architecture, a framework gone) or may break (warning: a library "
                     "loaded from "
                     "another copy, a lower library version, another runtime start). "
                     "`--against-mode exact` makes "
                     "every change in the stack an error, also the harmless ones; another build of "
                     "the same stack "
                     "(only the image digest differs) is never drift.",
        .failing_example = "cuvet freeze good.tar > cuda-stack.lock\ncuvet validate rebuilt.tar "
                           "--against cuda-stack.lock\n"
                           "# rebuilt.tar loads cuDNN 8.6.0 where the lock has 8.9.2 under torch "
                           "built with 8.9.2\n# → CUV018",
        .passing_example = "cuvet validate good.tar --against cuda-stack.lock   # same stack",
        .fix = "Restore the locked component (pin the wheel or package version the lock records), "
               "or, when the "
               "change is intended and validated, freeze the new stack again.",
        .name = "stack-drift",
    },
    &cuv018::run,
};

}  // namespace cuvet::checks
