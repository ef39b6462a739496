// Merges raw facts into one Component per copy, and adds the distro, glibc
// and the image Env.
#include <algorithm>
#include <regex>
#include <sstream>

#include "cuvet/rules/framework_catalog.hpp"
#include "facts.hpp"

namespace cuvet::inventory {

namespace {

using detail::Fact;

// "9" and "9.1.0" agree; "9.1.0" and "9.1.1" do not.
bool versions_agree(const std::string& a, const std::string& b) {
    if (a.empty() || b.empty()) return true;
    auto strip = [](std::string v) { return v.substr(0, v.find('+')); };
    auto x = strip(a), y = strip(b);
    if (x.size() > y.size()) std::swap(x, y);
    return y.compare(0, x.size(), x) == 0 && (y.size() == x.size() || y[x.size()] == '.');
}

Distro read_distro(const Analysis& analysis) {
    Distro distro;
    for (const char* path : {"/etc/os-release", "/usr/lib/os-release"}) {
        auto it = analysis.texts.find(path);
        const auto* entry = analysis.tree.find(path);
        if (it == analysis.texts.end() && entry != nullptr &&
            entry->type == image::FileType::symlink) {
            auto resolved = analysis.tree.resolve(path);
            it = analysis.texts.find(resolved.path);
        }
        if (it == analysis.texts.end()) continue;
        std::istringstream lines(it->second);
        for (std::string line; std::getline(lines, line);) {
            auto eq = line.find('=');
            if (eq == std::string::npos) continue;
            auto key = line.substr(0, eq);
            auto value = line.substr(eq + 1);
            if (value.size() >= 2 && (value[0] == '"' || value[0] == '\'') &&
                value.back() == value[0])
                value = value.substr(1, value.size() - 2);
            if (key == "ID")
                distro.id = value;
            else if (key == "VERSION_ID")
                distro.version_id = value;
            else if (key == "PRETTY_NAME")
                distro.pretty_name = value;
        }
        distro.source = it->first;
        break;
    }
    return distro;
}

// glibc: libc-2.31.so names its version; newer ones only say it through the
// GLIBC_2.x version definitions of libc.so.6.
void glibc_facts(const Analysis& analysis, detail::Facts& out) {
    for (const char* path :
         {"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6",
          "/lib64/libc.so.6", "/usr/lib64/libc.so.6", "/lib/aarch64-linux-gnu/libc.so.6",
          "/usr/lib/aarch64-linux-gnu/libc.so.6"}) {
        auto resolved = analysis.tree.resolve(path);
        if (resolved.status != image::Resolution::Status::ok || resolved.entry == nullptr) continue;
        const auto* data = analysis.tree.data_entry(*resolved.entry);
        if (data == nullptr) continue;
        Fact fact;
        fact.component = "glibc";
        fact.category = "system";
        fact.root = "/usr";
        fact.source = "files";
        fact.file = data->path;
        static const std::regex named(R"(libc-(\d+\.\d+(\.\d+)?)\.so)");
        std::smatch m;
        auto base = detail::base_of(data->path);
        if (std::regex_match(base, m, named)) {
            fact.version = m[1].str();
            fact.rank = detail::rank_file_name;
            fact.evidence = {"file-name", data->path, fact.version, ""};
        } else if (auto it = analysis.elfs.find(data->path); it != analysis.elfs.end()) {
            int best_minor = -1;
            for (const auto& v : it->second.version_definitions) {
                int major = 0, minor = 0;
                if (std::sscanf(v.c_str(), "GLIBC_%d.%d", &major, &minor) == 2 && major == 2)
                    best_minor = std::max(best_minor, minor);
            }
            if (best_minor < 0) continue;
            fact.version = "2." + std::to_string(best_minor);
            fact.rank = detail::rank_verdef;
            fact.evidence = {"elf-verdef", data->path, fact.version, "newest GLIBC_2.x definition"};
        } else {
            continue;
        }
        out.push_back(std::move(fact));
        return;
    }
}

// What changes the CUDA stack a process gets: the loader's and Python's paths, NVIDIA's and
// CUDA's variables, and those a framework reads (the catalog's env_prefixes).
bool interesting_env(const std::string& key) {
    static const std::regex pattern(
        "LD_LIBRARY_PATH|LD_PRELOAD|PYTHONPATH|CONDA_PREFIX|(NVIDIA|CUDA|NV|CUDNN|NCCL)_.*");
    static const std::vector<std::string> framework_prefixes =
        rules::builtin_framework_catalog().env_prefixes();
    for (const auto& prefix : framework_prefixes)
        if (key.starts_with(prefix)) return true;
    return std::regex_match(key, pattern);
}

std::vector<Component> merge(detail::Facts facts) {
    std::map<std::pair<std::string, std::string>, std::vector<Fact*>> groups;
    for (auto& f : facts) groups[{f.component, f.root}].push_back(&f);
    std::vector<Component> components;
    for (auto& [key, group] : groups) {
        Component c;
        c.name = key.first;
        c.location = key.second;
        c.source = "files";
        int best_rank = 0;
        for (const Fact* f : group) {
            if (c.category.empty() || f->category != "framework") c.category = f->category;
            if (!f->version.empty() && f->rank > best_rank) {
                best_rank = f->rank;
                c.version = f->version;
            }
            if (f->source != "files") c.source = f->source;
            if (!f->file.empty() &&
                std::find(c.files.begin(), c.files.end(), f->file) == c.files.end())
                c.files.push_back(f->file);
            for (const auto& [k, v] : f->attributes) c.attributes.emplace(k, v);
            c.evidence.push_back(f->evidence);
        }
        for (const auto& e : c.evidence)
            if (!versions_agree(e.version, c.version)) c.versions_agree = false;
        // A CUDA toolkit's version.json names every library it could hold;
        // only those present are copies.
        bool only_toolkit_listing = std::all_of(group.begin(), group.end(), [](const Fact* f) {
            return f->evidence.kind == "version.json";
        });
        if (only_toolkit_listing && c.category == "cuda-library") continue;
        std::sort(c.files.begin(), c.files.end());
        components.push_back(std::move(c));
    }
    return components;
}

}  // namespace

Inventory build_inventory(const Analysis& analysis) {
    detail::Facts facts;
    detail::library_facts(analysis, facts);
    detail::package_facts(analysis, facts);
    detail::version_file_facts(analysis, facts);
    glibc_facts(analysis, facts);
    Inventory inventory;
    inventory.distro = read_distro(analysis);
    inventory.components = merge(std::move(facts));
    for (const auto& item : analysis.info.config.env) {
        auto eq = item.find('=');
        if (eq == std::string::npos) continue;
        auto key = item.substr(0, eq);
        if (interesting_env(key)) inventory.env[key] = item.substr(eq + 1);
    }
    return inventory;
}

std::vector<const Component*> Inventory::find(std::string_view name) const {
    std::vector<const Component*> found;
    for (const auto& c : components)
        if (c.name == name) found.push_back(&c);
    return found;
}

}  // namespace cuvet::inventory
