// Lookups over kernel_compilers.json. Unknown stays unknown: nullptr, never the nearest row.
#include "cuvet/rules/database.hpp"

namespace cuvet::rules {

const KernelCompiler* Database::kernel_compiler(std::string_view framework) const {
    for (const auto& compiler : kernel_compilers_) {
        if (compiler.framework == framework) return &compiler;
    }
    return nullptr;
}

const KernelCompilerRelease* KernelCompiler::release(const Version& version) const {
    for (const auto& row : releases) {
        if (row.version == version) return &row;
    }
    return nullptr;
}

const KernelCompilerRelease* KernelCompiler::pinned_by_release(const Version& pinner) const {
    const KernelCompilerRelease* best = nullptr;
    std::size_t best_precision = 0;
    for (const auto& row : releases) {
        for (const auto& pin : row.pinned_by) {
            if (!pin.covers(pinner) && pin != pinner) continue;
            // "2.12.1" says more about 2.12.1 than "2.12" does.
            if (!best || pin.size() > best_precision) {
                best = &row;
                best_precision = pin.size();
            }
        }
    }
    return best;
}

}  // namespace cuvet::rules
