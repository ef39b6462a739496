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
        .name = "stack-drift",
    },
    &cuv018::run,
};

}  // namespace cuvet::checks
