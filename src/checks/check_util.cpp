#include "check_util.hpp"

#include <map>
#include <set>

namespace cuvet::checks::util {

std::string version_text(const std::optional<rules::Version>& version) {
    return version ? version->str() : "unknown version";
}

std::string describe(const LibraryCopy& copy) {
    std::string out = copy.path + " (" + copy.family + " " + version_text(copy.version);
    if (!copy.owner.empty()) out += ", " + copy.owner;
    return out + ")";
}

std::string cite(const rules::Provenance& p) {
    std::string out = "rules/" + p.table + ".json: " + p.source.title;
    if (!p.source.url.empty()) out += " <" + p.source.url + ">";
    if (!p.confidence.empty()) out += " (confidence " + p.confidence + ")";
    return out;
}

void add_trace(report::Finding& finding, const Resolution& r, std::size_t max_lines) {
    std::string how = "ld.so search for " + r.name + ": ";
    if (r.provided_by_host) how += "provided by the host driver";
    else if (r.path.empty()) how += "not found";
    else how += r.path + " via " + r.rule + (r.source.empty() ? "" : " (" + r.source + ")");
    finding.evidence.push_back(how);
    std::size_t shown = 0;
    for (const auto& line : r.trace) {
        if (shown++ == max_lines) {
            finding.evidence.push_back("  … " + std::to_string(r.trace.size() - max_lines) + " more candidates");
            break;
        }
        finding.evidence.push_back("  tried " + line);
    }
    for (const auto& s : r.shadowed) finding.evidence.push_back("  shadows " + s);
}

const rules::FrameworkBuild* build_row(const rules::Database& db, const FrameworkInstall& fw) {
    if (const auto* row = db.framework_build(fw.name, fw.version, fw.variant)) return row;
    return nullptr;
}

std::vector<const ElfObject*> objects_of(const Stack& stack, const FrameworkInstall& fw) {
    std::vector<const ElfObject*> out;
    for (const auto& o : stack.objects)
        if (under(o.file, fw.root) || under(o.path, fw.root)) out.push_back(&o);
    return out;
}

std::vector<std::string> load_closure(const Stack& stack, const std::vector<const ElfObject*>& roots, bool follow_dlopen) {
    std::map<std::string_view, const ElfObject*> by_file;
    for (const auto& o : stack.objects) by_file.emplace(o.file, &o);
    std::vector<std::string> order;
    std::set<std::string_view> seen;
    std::vector<const ElfObject*> queue = roots;
    for (std::size_t i = 0; i < queue.size(); ++i) {
        for (const auto& r : queue[i]->resolutions) {
            if ((r.from_dlopen && !follow_dlopen) || r.file.empty() || !seen.insert(r.file).second) continue;
            order.push_back(r.file);
            if (auto it = by_file.find(r.file); it != by_file.end()) queue.push_back(it->second);
        }
    }
    return order;
}

bool is_main_cudnn(std::string_view name) { return starts_with(name, "libcudnn.so."); }
bool is_cudart(std::string_view name) { return starts_with(name, "libcudart.so."); }

std::string pip_package(std::string_view family, std::optional<int> cuda_major) {
    std::string base = std::string(family);
    if (starts_with(base, "cudnn")) base = "cudnn";
    else if (starts_with(base, "cublas")) base = "cublas";
    else if (base == "cudart") base = "cuda-runtime";
    else if (base == "nvrtc") base = "cuda-nvrtc";
    std::string name = "nvidia-" + base;
    if (cuda_major) name += "-cu" + std::to_string(*cuda_major);
    return name;
}

}  // namespace cuvet::checks::util
