#include "cuvet/stack/loader_resolution.hpp"

namespace cuvet::stack {
namespace {

std::string trace_line(const loader::Attempt& a) {
    std::string line = a.path + " (" + std::string(loader::to_string(a.rule));
    // LD_LIBRARY_PATH's source is the variable itself: naming it adds nothing.
    if (!a.source.empty() && a.rule != loader::Rule::ld_library_path) line += " of " + a.source;
    return line + ": " + std::string(loader::to_string(a.verdict)) + ")";
}

}  // namespace

Resolution from_loader(const loader::Resolution& r, bool from_dlopen) {
    Resolution out;
    out.name = r.name;
    out.path = r.status == loader::Status::found || r.status == loader::Status::error ? r.path : "";
    out.file = r.status == loader::Status::found ? r.file : "";
    out.rule = r.rule;
    out.source = r.source;
    out.provided_by_host = r.status == loader::Status::host_driver;
    out.from_dlopen = from_dlopen;
    out.error = r.status == loader::Status::error;
    if (out.error && !r.trace.empty() && r.trace.back().verdict == loader::Verdict::fifo)
        out.hang = r.note;
    if (r.status == loader::Status::not_found) out.denied = r.note;
    for (const auto& a : r.trace) out.trace.push_back(trace_line(a));
    out.shadowed = r.shadowed;
    out.start_note = r.start_note;
    if (!r.start_note.empty()) out.trace.push_back("only at an NVIDIA start: " + r.start_note);
    return out;
}

}  // namespace cuvet::stack
