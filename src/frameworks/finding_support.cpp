#include "cuvet/frameworks/finding_support.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "cuvet/stack/stack_facts.hpp"
#include "model_support.hpp"

namespace cuvet::frameworks {

void add_trace(report::Finding& finding, const stack::Resolution& r, std::size_t max_lines) {
    std::string how = "ld.so search for " + r.name + ": ";
    if (r.provided_by_host)
        how += "provided by the host driver";
    else if (r.path.empty())
        how += "not found";
    else
        how += r.path + " via " + r.how_found() + (r.source.empty() ? "" : " (" + r.source + ")");
    finding.evidence.push_back(how);
    std::size_t shown = 0;
    for (const auto& line : r.trace) {
        if (shown++ == max_lines) {
            finding.evidence.push_back("  … " + std::to_string(r.trace.size() - max_lines) +
                                       " more candidates");
            break;
        }
        finding.evidence.push_back("  tried " + line);
    }
    for (const auto& s : r.shadowed) finding.evidence.push_back("  shadows " + s);
}

void add_searched(report::Finding& finding, const stack::FrameworkTool& tool) {
    for (const auto& c : tool.searched)
        finding.evidence.push_back("  looked for " + tool.name + " at " + c);
}

const stack::FrameworkTool* framework_tool(const stack::FrameworkInstall& fw,
                                           std::string_view name) {
    for (const auto& t : fw.tools)
        if (t.name == name) return &t;
    return nullptr;
}

std::string first_unresolved(const stack::Stack& stack, const stack::ElfObject& root) {
    std::map<std::string_view, const stack::ElfObject*> by_file;
    for (const auto& o : stack.objects) by_file.emplace(o.file, &o);
    std::vector<const stack::ElfObject*> order = {&root};
    for (const auto& file : stack::load_closure(stack, {&root}, false))
        if (auto it = by_file.find(file); it != by_file.end()) order.push_back(it->second);
    for (const auto* o : order)
        for (const auto& r : o->resolutions)
            if (!r.from_dlopen && !r.provided_by_host && r.path.empty()) return r.name;
    return "";
}

bool fails_to_load(const stack::FrameworkLoad& load) {
    return !load.resolution.provided_by_host &&
           (load.resolution.path.empty() || load.resolution.error || !load.missing.empty());
}

namespace {

// A cuDNN version the way a framework prints it; nullopt when it cannot be printed exactly.
std::optional<std::string> printed(const rules::Version& v, const std::string& format) {
    auto part = [&](std::size_t i) { return i < v.size() ? std::to_string(v.part(i)) : "x"; };
    if (format == "dotted") return part(0) + "." + part(1) + "." + part(2);
    if (format == "tuple") return "(" + part(0) + ", " + part(1) + ", " + part(2) + ")";
    // cudnnGetVersion(): major*1000+minor*100+patch up to cuDNN 8, major*10000+… from 9.
    if (format == "encoded" && v.size() >= 3)
        return std::to_string(v.major() * (v.major() >= 9 ? 10000 : 1000) + v.part(1) * 100 +
                              v.part(2));
    return std::nullopt;
}

// TensorFlow 1.x's "compatibility version" of an encoded cuDNN version: (v / 100) * 100.
std::string compat_of(const std::string& encoded) {
    return std::to_string(std::stol(encoded) / 100 * 100);
}

}  // namespace

std::optional<FrameworkWords> framework_says(const rules::Database& db,
                                             const stack::FrameworkInstall& fw,
                                             std::string_view kind, rules::MessageValues values,
                                             const std::optional<rules::Version>& built,
                                             const std::optional<rules::Version>& runtime,
                                             bool ld_library_path_set) {
    const auto* row = db.framework_error_text(fw.name, kind, fw.version);
    if (row == nullptr) return std::nullopt;
    if (built)
        if (auto text = printed(*built, row->version_format)) values.built = *text;
    if (runtime)
        if (auto text = printed(*runtime, row->version_format)) values.runtime = *text;
    if (row->version_format == "encoded") {
        if (!values.built.empty()) values.built_compat = compat_of(values.built);
        if (!values.runtime.empty()) values.runtime_compat = compat_of(values.runtime);
    }
    std::string text = rules::fill_message(row->message, values);
    // A placeholder left over ("{runtime}") means a value this finding does not have.
    for (auto open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
        auto close = text.find('}', open);
        if (close == std::string::npos) break;
        auto name = std::string_view(text).substr(open + 1, close - open - 1);
        if (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
                return std::islower(static_cast<unsigned char>(c)) || c == '_';
            }))
            return std::nullopt;
    }
    if (ld_library_path_set && row->ld_library_path_hint) text += " …";
    return FrameworkWords{std::move(text), row};
}

std::string cuda_family_of(const std::string& soname) {
    auto family = soname.substr(3, soname.find(".so") - 3);
    if (family == "nvJitLink") return "nvjitlink";
    if (detail::starts_with(family, "cublas")) return "cublas";
    if (detail::starts_with(family, "cudnn")) return "cudnn";
    if (detail::starts_with(family, "cudart")) return "cudart";
    return family;
}

std::string pip_package(std::string_view family, std::optional<int> cuda_major) {
    std::string base = std::string(family);
    if (detail::starts_with(base, "cudnn"))
        base = "cudnn";
    else if (detail::starts_with(base, "cublas"))
        base = "cublas";
    else if (base == "cudart")
        base = "cuda-runtime";
    else if (base == "nvrtc")
        base = "cuda-nvrtc";
    std::string name = "nvidia-" + base;
    if (cuda_major) name += "-cu" + std::to_string(*cuda_major);
    return name;
}

}  // namespace cuvet::frameworks
