// Stack → lock records: the facts `cuvet validate` judges, read from the same
// Stack and the same helpers the checks use (docs/freeze.md).
#include <set>

#include "cuvet/lock/lock.hpp"
#include "cuvet/rules/framework_catalog.hpp"
#include "cuvet/stack/stack_facts.hpp"
#include "schema.hpp"

namespace cuvet::lock {

namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

void add(Lock& lock, std::string kind, Fields fields) {
    Record record{std::move(kind), {}};
    for (auto& [key, value] : fields)
        if (!value.empty()) record.fields.emplace_back(std::move(key), std::move(value));
    lock.records.push_back(std::move(record));
}

bool starts_with(std::string_view s, std::string_view head) {
    return s.substr(0, head.size()) == head;
}

std::string opt(const std::optional<rules::Version>& v) { return v ? v->str() : ""; }

std::string arch_list(const std::vector<int>& archs, const char* prefix) {
    std::set<int> sorted(archs.begin(), archs.end());
    std::string out;
    for (int a : sorted) out += (out.empty() ? "" : ",") + std::string(prefix) + std::to_string(a);
    return out;
}

// Variables that change what loads or what the NVIDIA runtime injects.
bool stack_variable(std::string_view name) {
    for (std::string_view head : {"NVIDIA_", "CUDA_", "NV_", "CUDNN", "LD_PRELOAD"})
        if (name.substr(0, head.size()) == head) return true;
    // And those a framework reads (the catalog's env_prefixes: TORCH_CUDA_ARCH_LIST, XLA_FLAGS).
    static const std::vector<std::string> framework_prefixes =
        rules::builtin_framework_catalog().env_prefixes();
    for (const auto& head : framework_prefixes)
        if (name.starts_with(head)) return true;
    return false;
}

void add_start(Lock& lock, const stack::Stack& stack) {
    const auto ld = stack.env.find("LD_LIBRARY_PATH");
    add(lock, "runtime-start",
        {{"mode", stack.nvidia_start ? "nvidia" : "none"},
         {"driver", stack.nvidia_start ? "host-injected" : "image"},
         {"ld-library-path", ld == stack.env.end() ? "" : ld->second}});
    for (const auto& [name, value] : stack.env)
        if (stack_variable(name)) add(lock, "env", {{"name", name}, {"value", value}});
    for (const auto& root : stack.roots)
        if (starts_with(root.label, "ENTRYPOINT ") || starts_with(root.label, "CMD "))
            add(lock, "entry", {{"label", root.label}});
}

void add_cuda(Lock& lock, const stack::Stack& stack, const rules::Database& db) {
    const auto cuda = stack::runtime_cuda_of(stack);
    if (!cuda) return;
    const std::string version =
        cuda->major_only ? std::to_string(cuda->version.major()) : cuda->version.str();
    add(lock, "cuda", {{"version", version}, {"source", cuda->source}});
    if (const auto floor = stack::driver_floor(stack, db))
        add(lock, "driver-floor",
            {{"version", floor->lowest.str()}, {"full", opt(floor->full)}, {"cuda", version}});
}

std::string relative_to(const std::string& path, const std::string& root) {
    const bool under =
        path.size() > root.size() && starts_with(path, root) && path[root.size()] == '/';
    return under ? path.substr(root.size() + 1) : path;
}

void add_framework(Lock& lock, const stack::Stack& stack, const rules::Database& db,
                   const stack::FrameworkInstall& fw) {
    // The cuDNN CUV004 judges with: the install's pin, or the rules row where that is finer.
    const auto cudnn = stack::built_cudnn_of(db, fw);
    const auto* rule = db.cudnn_load_rule(fw.name);
    add(lock, "framework",
        {{"name", fw.name},
         {"version", fw.version.str()},
         {"variant", fw.variant},
         {"cuda", opt(fw.built_cuda)},
         {"cudnn", cudnn ? cudnn->version.str() : ""},
         {"cudnn-rule", rule ? rule->rule : ""},
         {"gpu-package", fw.gpu_package},
         {"root", fw.root}});
    for (const auto* object : stack::framework_objects(stack, fw)) {
        const auto* elf = object->elf;
        if (elf == nullptr || !elf->has_fatbin) continue;
        add(lock, "framework-arch",
            {{"framework", fw.name},
             {"file", relative_to(object->path, fw.root)},
             {"sass", arch_list(elf->sass_archs, "sm_")},
             {"ptx", arch_list(elf->ptx_archs, "compute_")}});
    }
    for (const auto& load : fw.loads)
        add(lock, "framework-load",
            {{"framework", fw.name},
             {"component", load.component},
             {"path", load.resolution.path}});
}

void add_libraries(Lock& lock, const stack::Stack& stack) {
    // A copy a framework opens itself counts as loaded even when no DT_NEEDED reaches it.
    std::map<std::string, std::string> opened;
    for (const auto& fw : stack.frameworks)
        for (const auto& load : fw.loads)
            if (!load.resolution.file.empty())
                opened.emplace(load.resolution.file, "opened by " + fw.name);
    for (const auto& copy : stack.libraries) {
        std::string by;
        if (const auto* root = stack.root_of(copy.path))
            by = *root;
        else if (auto it = opened.find(copy.path); it != opened.end())
            by = it->second;
        if (by.empty()) continue;
        add(lock, "library",
            {{"family", copy.family},
             {"path", copy.path},
             {"soname", copy.soname},
             {"version", opt(copy.version)},
             {"cuda-major", copy.cuda_major ? std::to_string(*copy.cuda_major) : ""},
             {"owner", copy.owner},
             {"loaded-by", by}});
    }
    for (const auto& copy : stack.compat_libraries)
        add(lock, "compat", {{"path", copy.path}, {"version", opt(copy.version)}});
    for (const auto& copy : stack.driver_libraries) add(lock, "driver-lib", {{"path", copy.path}});
}

}  // namespace

Lock freeze(const stack::Stack& stack, const rules::Database& db, const FreezeContext& context) {
    Lock lock;
    add(lock, "image",
        {{"name", context.image_name},
         {"config-digest", context.config_digest},
         {"platform", stack.platform.str()}});
    add_start(lock, stack);
    add_cuda(lock, stack, db);
    for (const auto& fw : stack.frameworks) add_framework(lock, stack, db, fw);
    add_libraries(lock, stack);
    sort_records(lock.records);
    return lock;
}

}  // namespace cuvet::lock
