// Runs each framework's model (src/frameworks/<name>.cpp) over the image.
#include "framework_models.hpp"

#include "cuvet/core/error.hpp"
#include "cuvet/core/scan_limits.hpp"
#include "cuvet/rules/framework_catalog.hpp"

namespace cuvet::validate {

namespace {

bool starts_with(std::string_view s, std::string_view head) {
    return s.substr(0, head.size()) == head;
}

// numba's threading layers: tbbpool is tried and skipped when TBB does not
// load (numba/np/ufunc/parallel.py falls back to omppool or workqueue).
void add_optional_modules(const inventory::Analysis& analysis,
                          std::map<std::string, ImportModel>& out) {
    for (const auto& [path, elf] : analysis.elfs) {
        if (path.find("/numba/np/ufunc/tbbpool.") == std::string::npos) continue;
        for (const auto& name : elf.needed)
            if (starts_with(name, "libtbb")) out[path].optional.insert(name);
    }
}

}  // namespace

std::map<std::string, ImportModel> framework_import_models(
    const inventory::Analysis& analysis, const std::vector<stack::FrameworkInstall>& frameworks) {
    std::map<std::string, ImportModel> out;
    add_optional_modules(analysis, out);
    for (const auto& fw : frameworks) {
        const auto* framework = fw.model;
        if (framework != nullptr && framework->add_import_models != nullptr)
            framework->add_import_models(analysis, fw, out);
    }
    return out;
}

void attach_gpu_package(const inventory::Inventory& inventory,
                        const inventory::Component& component, stack::FrameworkInstall& fw) {
    const auto* framework = fw.model;
    if (framework != nullptr && framework->attach_gpu_package != nullptr)
        framework->attach_gpu_package(inventory, component, fw);
    for (const auto& [key, value] : component.attributes)
        if (starts_with(key, "requires:")) fw.pins.emplace(key.substr(9), value);
}

void model_framework_loads(const inventory::Analysis& analysis, const loader::Loader& loader,
                           stack::Stack& stack) {
    for (auto& fw : stack.frameworks) {
        const auto* framework = fw.model;
        if (framework == nullptr || framework->model_loads == nullptr) continue;
        try {
            framework->model_loads(analysis, loader, stack.env, fw);
        } catch (const LimitExceeded&) {
            throw;  // a limit ends the run (exit 3); skipping would judge a part unread
        } catch (const Error&) {
            // An object the loader cannot start from has nothing to resolve.
        }
    }
}

void mark_lazily_imported_modules(stack::Stack& stack) {
    const auto& catalog = rules::builtin_framework_catalog();
    for (auto& o : stack.objects) {
        const auto lazy = catalog.lazy_module(o.path);
        if (!lazy) continue;
        for (const auto& fw : stack.frameworks)
            if (fw.name == lazy->framework->framework && o.path.starts_with(fw.root + "/")) {
                // Older releases import it eagerly: `import` then fails with it.
                if (fw.version >= lazy->module->since)
                    o.imported_on_first_use_of = lazy->module->api;
                break;
            }
    }
}

}  // namespace cuvet::validate
