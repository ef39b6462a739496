#pragma once
// Findings and context shared by the renderer tests: one of each severity,
// with the awkward bits (multi-line text, XML/JSON metacharacters, a path with
// a space, no location at all).
#include <sstream>
#include <string>
#include <vector>

#include "cuvet/report/renderer.hpp"

namespace cuvet::test {

inline std::vector<report::Finding> sample_findings() {
    using report::Finding;
    using report::Severity;
    Finding missing;
    missing.id = "CUV001";
    missing.severity = Severity::error;
    missing.title = "A needed library that nothing in the image provides";
    missing.message = "libcudnn.so.8 needed by /opt/app/lib tf/libtf.so: not found";
    missing.locations = {{"/opt/app/lib tf/libtf.so", 0, 0}};
    missing.evidence = {"tried /usr/local/cuda/lib64 (LD_LIBRARY_PATH): no such file",
                        "tried /etc/ld.so.cache: no entry"};
    missing.fix = "Install libcudnn8 or use a -cudnn8 base image";
    Finding dup;
    dup.id = "CUV003";
    dup.severity = Severity::warning;
    dup.title = "Several copies of cuDNN";
    dup.message = "two copies: 8.9.0 <system> & 8.9.2 \"wheel\"\nsecond line";
    dup.locations = {{"Dockerfile", 7, 9}};
    Finding env;
    env.id = "CUV014";
    env.severity = Severity::info;
    env.title = "CUDA env variables that contradict what the image contains";
    env.message = "CUDA_VERSION says 11.8.0";
    return {env, dup, missing};
}

inline report::ReportContext sample_context() {
    report::ReportContext context;
    context.tool_version = "0.1.0";
    context.command = "validate";
    context.targets = {"image.tar"};
    context.rules = {
        {"CUV001", "unresolved-soname", "A needed library that nothing in the image provides",
         report::Severity::error, "The loader fails.", "Install it."},
        {"CUV002", "shadowed-library", "A library resolves to another copy",
         report::Severity::warning, "Shadowing.", "Drop LD_LIBRARY_PATH."},
        {"CUV003", "duplicate-versions", "Several copies of cuDNN", report::Severity::warning, "",
         ""},
        {"CUV014", "env-contradicts", "CUDA env variables that contradict",
         report::Severity::warning, "", ""},
    };
    return context;
}

inline std::string render(std::string_view format, const std::vector<report::Finding>& findings,
                          const report::ReportContext& context) {
    std::ostringstream out;
    // As the CLI does: sorted once, where the report is built.
    report::make_renderer(format)->render(report::sorted_for_report(findings), context, out);
    return out.str();
}

}  // namespace cuvet::test
