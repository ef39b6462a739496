#pragma once
// What a framework's own judging (its CUV015/CUV016 hooks, src/frameworks/*_findings.cpp)
// shares with the checks: how a resolution and a tool search read as evidence, the words a
// framework prints for a failure at its release (rules error_texts), the NVIDIA wheel that
// ships a CUDA library. src/checks reads them through its check_util.hpp.
#include <optional>
#include <string>
#include <string_view>

#include "cuvet/report/finding.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/stack/stack.hpp"

namespace cuvet::frameworks {

// Every evidence line of a resolution: how it was found, then the trace.
void add_trace(report::Finding& finding, const stack::Resolution& resolution,
               std::size_t max_lines = 24);
// "  looked for ptxas at /usr/local/cuda/bin/ptxas", one line per candidate the tool searched.
void add_searched(report::Finding& finding, const stack::FrameworkTool& tool);

// The tool a framework model found under `name` ("ptxas for Triton"); nullptr when not modelled.
const stack::FrameworkTool* framework_tool(const stack::FrameworkInstall& fw,
                                           std::string_view name);
// The first DT_NEEDED ld.so cannot find in its breadth-first walk from `root`, the name
// dlerror() reports; "" when every one resolves.
std::string first_unresolved(const stack::Stack& stack, const stack::ElfObject& root);
// A library the framework opens itself that does not load (not found, an error, or a
// DT_NEEDED under it that does not resolve); the host driver's libraries always load.
bool fails_to_load(const stack::FrameworkLoad& load);

// What the framework itself prints for a failure `kind` at its release (rules error_texts),
// with `values` and the two versions filled in the way that release prints them (8.6.0,
// (8, 6, 0) or 8600; a digit the finding does not know shows as "x"; a hint the framework
// appends when LD_LIBRARY_PATH is set, worded by the path, shows as " …"). nullopt when the rules
// do not record that release's wording, or a placeholder has no value: a quote is the
// framework's words or absent, never a guess.
struct FrameworkWords {
    std::string text;
    const rules::FrameworkErrorText* row = nullptr;
};
std::optional<FrameworkWords> framework_says(const rules::Database& db,
                                             const stack::FrameworkInstall& fw,
                                             std::string_view kind, rules::MessageValues values,
                                             const std::optional<rules::Version>& built = {},
                                             const std::optional<rules::Version>& runtime = {},
                                             bool ld_library_path_set = false);

// "libcublasLt.so.12" → "cublas", "libcudnn_ops.so.9" → "cudnn": the family a soname's wheel ships.
std::string cuda_family_of(const std::string& soname);
// The pip package that ships a family for a CUDA major ("nvidia-cudnn-cu12"), for fixes.
std::string pip_package(std::string_view family, std::optional<int> cuda_major);

}  // namespace cuvet::frameworks
