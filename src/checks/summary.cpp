#include "cuvet/checks/summary.hpp"

#include "check_util.hpp"

namespace cuvet::checks {

namespace {

// The main cuDNN a root loads, else any copy the image holds.
std::string cudnn_text(const Stack& stack) {
    const LibraryCopy* present = nullptr;
    for (const auto& copy : stack.libraries) {
        if (copy.family != "cudnn") continue;
        if (stack.root_of(copy.path) != nullptr)
            return "cuDNN " + util::version_text(copy.version) + " (" + copy.path + ")";
        if (present == nullptr) present = &copy;
    }
    if (present != nullptr)
        return "cuDNN " + util::version_text(present->version) + " (" + present->path +
               ", nothing loads it)";
    return "no cuDNN";
}

}  // namespace

std::string stack_summary(const Stack& stack) {
    std::string runs;
    for (const auto& root : stack.roots)
        if (util::starts_with(root.label, "ENTRYPOINT ") || util::starts_with(root.label, "CMD ")) {
            runs = root.label;
            break;
        }
    for (const auto& fw : stack.frameworks)
        runs += (runs.empty() ? "" : ", ") + fw.name + " " + fw.version_text();
    std::string out =
        "runs " + (runs.empty() ? std::string("no known framework or ENTRYPOINT") : runs);
    if (auto cuda = util::runtime_cuda(stack))
        out += "; CUDA " +
               (cuda->major_only ? std::to_string(cuda->version.major()) + ".x"
                                 : cuda->version.str()) +
               " (" + cuda->source + ")";
    else
        out += "; no CUDA runtime";
    return out + "; " + cudnn_text(stack);
}

}  // namespace cuvet::checks
