#include "check_util.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace cuvet::checks::util {

std::string version_text(const std::optional<rules::Version>& version) {
    return version ? version->str() : "unknown version";
}

void add_trace(report::Finding& finding, const Resolution& r, std::size_t max_lines) {
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

const FrameworkTool* framework_tool(const FrameworkInstall& fw, std::string_view name) {
    for (const auto& t : fw.tools)
        if (t.name == name) return &t;
    return nullptr;
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

std::optional<FrameworkWords> framework_says(const rules::Database& db, const FrameworkInstall& fw,
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

std::string import_label(const FrameworkInstall& fw) { return "imported by " + base_name(fw.root); }

const FrameworkInstall* framework_labelled(const Stack& stack, std::string_view label) {
    for (const auto& fw : stack.frameworks)
        if (label == import_label(fw)) return &fw;
    return nullptr;
}

const FrameworkInstall* framework_through(const Stack& stack, std::string_view root,
                                          const std::vector<std::string>& files) {
    if (const auto* fw = framework_labelled(stack, root)) return fw;
    auto among = [](const std::vector<std::string>& list, const std::string& item) {
        return std::find(list.begin(), list.end(), item) != list.end();
    };
    std::vector<const ElfObject*> mine;
    for (const auto& o : stack.objects)
        if (const auto* r = stack.root_of(o.file); o.consumer && r != nullptr && *r == root)
            mine.push_back(&o);
    auto reached = load_closure(stack, mine, true);
    for (const auto* o : mine) reached.push_back(o->file);
    const FrameworkInstall* through = nullptr;
    for (const auto& o : stack.objects) {
        if (!among(reached, o.file) || among(files, o.file)) continue;
        // cuDNN's own libraries load each other; what loads cuDNN into the process is asked.
        if (const auto* self = stack.library(o.file); self && starts_with(self->family, "cudnn"))
            continue;
        const bool loads = std::any_of(o.resolutions.begin(), o.resolutions.end(),
                                       [&](const Resolution& r) { return among(files, r.file); });
        if (!loads) continue;
        const FrameworkInstall* owner = nullptr;
        for (const auto& fw : stack.frameworks)
            if (among(fw.libraries, o.path) || among(fw.libraries, o.file)) owner = &fw;
        if (owner == nullptr || (through != nullptr && through != owner)) return nullptr;
        through = owner;
    }
    return through;
}

std::string first_unresolved(const Stack& stack, const ElfObject& root) {
    std::map<std::string_view, const ElfObject*> by_file;
    for (const auto& o : stack.objects) by_file.emplace(o.file, &o);
    std::vector<const ElfObject*> order = {&root};
    for (const auto& file : load_closure(stack, {&root}, false))
        if (auto it = by_file.find(file); it != by_file.end()) order.push_back(it->second);
    for (const auto* o : order)
        for (const auto& r : o->resolutions)
            if (!r.from_dlopen && !r.provided_by_host && r.path.empty()) return r.name;
    return "";
}

std::vector<std::string> roots_loading(const Stack& stack, const std::vector<std::string>& files) {
    std::vector<std::string> out;
    for (const auto& file : files)
        if (const auto* root = stack.root_of(file);
            root && std::find(out.begin(), out.end(), *root) == out.end())
            out.push_back(*root);
    return out;
}

std::vector<std::string> roots_reaching(const Stack& stack, const std::vector<std::string>& files) {
    std::vector<std::string> out;
    auto add = [&out](const std::string& label) {
        if (std::find(out.begin(), out.end(), label) == out.end()) out.push_back(label);
    };
    auto wanted = [&files](const std::string& file) {
        return std::find(files.begin(), files.end(), file) != files.end();
    };
    for (const auto& file : files)
        if (const auto* first = stack.root_of(file)) add(*first);
    for (const auto& o : stack.objects) {
        if (!o.consumer) continue;
        const auto* root = stack.root_of(o.file);
        if (root == nullptr) continue;
        const auto closure = load_closure(stack, {&o}, true);
        if (std::any_of(closure.begin(), closure.end(), wanted)) add(*root);
    }
    for (const auto& fw : stack.frameworks)
        for (const auto& load : fw.loads)
            if (wanted(load.resolution.file)) add(import_label(fw));
    return out;
}

void name_roots(report::Finding& finding, const std::vector<std::string>& roots, bool in_message) {
    if (roots.empty()) return;
    finding.loaded_by = roots.front();
    for (std::size_t i = 1; i < roots.size(); ++i)
        finding.evidence.push_back("also loaded: " + roots[i]);
    // loaded_by holds one root, and the short text report shows no evidence: the message is
    // what every format shows, so it names every root the problem breaks.
    if (!in_message || roots.size() < 2) return;
    finding.message += " It breaks every one of them: ";
    for (std::size_t i = 0; i < roots.size(); ++i)
        finding.message += (i == 0 ? "" : i + 1 == roots.size() ? " and " : ", ") + roots[i];
    finding.message += ".";
}

std::vector<report::Finding> unloaded_findings(std::string_view id,
                                               const std::vector<UnloadedProblem>& problems,
                                               std::string_view singular, std::string_view plural,
                                               std::string fix) {
    // Directories in path order: a directory below one already seen joins its group.
    std::map<std::string, std::vector<const UnloadedProblem*>> by_dir;
    for (const auto& p : problems) by_dir[dir_name(p.file)].push_back(&p);
    std::map<std::string, std::vector<const UnloadedProblem*>> groups;
    std::vector<std::string> tops;
    for (const auto& [dir, list] : by_dir) {
        std::string top = dir;
        for (const auto& t : tops)
            if (dir == t || under(dir, t)) top = t;
        if (top == dir) tops.push_back(dir);
        auto& group = groups[top];
        group.insert(group.end(), list.begin(), list.end());
    }
    std::vector<report::Finding> out;
    for (const auto& [dir, list] : groups) {
        std::vector<std::string> details;
        for (const auto* p : list)
            if (!p->detail.empty() &&
                std::find(details.begin(), details.end(), p->detail) == details.end())
                details.push_back(p->detail);
        std::set<std::string_view> files;
        for (const auto* p : list) files.insert(p->file);
        std::string detail_text;
        for (std::size_t i = 0; i < details.size() && i < 4; ++i)
            detail_text += (i ? ", " : "") + details[i];
        if (details.size() > 4)
            detail_text += " and " + std::to_string(details.size() - 4) + " more";
        report::Finding f;
        f.id = std::string(id);
        f.severity = report::Severity::info;
        if (files.size() == 1)
            f.message = list.front()->file + " " + std::string(singular) +
                        (detail_text.empty() ? "" : " (" + detail_text + ")") +
                        "; nothing in the image loads it";
        else
            f.message = std::to_string(files.size()) + " files under " + dir + " " +
                        std::string(plural) +
                        (detail_text.empty() ? "" : " (" + detail_text + ")") +
                        "; nothing in the image loads them";
        f.locations = {{files.size() == 1 ? list.front()->file : dir}};
        constexpr std::size_t shown = 16;
        for (std::size_t i = 0; i < list.size() && i < shown; ++i)
            f.evidence.push_back(list[i]->file +
                                 (list[i]->detail.empty() ? "" : ": " + list[i]->detail));
        if (list.size() > shown)
            f.evidence.push_back("… " + std::to_string(list.size() - shown) + " more");
        f.evidence.push_back(
            "no ENTRYPOINT/CMD program, framework, Python extension module or interpreter on PATH "
            "maps " +
            std::string(files.size() == 1 ? "it" : "them") + " (DT_NEEDED and known dlopen names)");
        f.fix = fix;
        out.push_back(std::move(f));
    }
    return out;
}

bool is_main_cudnn(std::string_view name) { return starts_with(name, "libcudnn.so."); }
bool is_cudart(std::string_view name) { return starts_with(name, "libcudart.so."); }

std::string pip_package(std::string_view family, std::optional<int> cuda_major) {
    std::string base = std::string(family);
    if (starts_with(base, "cudnn"))
        base = "cudnn";
    else if (starts_with(base, "cublas"))
        base = "cublas";
    else if (base == "cudart")
        base = "cuda-runtime";
    else if (base == "nvrtc")
        base = "cuda-nvrtc";
    std::string name = "nvidia-" + base;
    if (cuda_major) name += "-cu" + std::to_string(*cuda_major);
    return name;
}

}  // namespace cuvet::checks::util
