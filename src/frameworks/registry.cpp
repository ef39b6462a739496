#include <algorithm>

#include "cuvet/frameworks/framework.hpp"

namespace cuvet::frameworks {

#define CUVET_FRAMEWORK(name) const Framework& name();
#include "frameworks.inc"
#undef CUVET_FRAMEWORK

const std::vector<const Framework*>& all() {
    static const std::vector<const Framework*> list = {
#define CUVET_FRAMEWORK(name) &name(),
#include "frameworks.inc"
#undef CUVET_FRAMEWORK
    };
    return list;
}

const Framework* find(std::string_view name) {
    for (const Framework* f : all()) {
        if (f->name == name || (!f->smoke.empty() && f->smoke == name) ||
            std::find(f->aliases.begin(), f->aliases.end(), name) != f->aliases.end())
            return f;
    }
    return nullptr;
}

const Framework* by_component(std::string_view component) {
    for (const Framework* f : all())
        if (!component.empty() && f->component == component) return f;
    return nullptr;
}

std::vector<std::string> imported_packages(std::string_view module) {
    for (const Framework* f : all())
        if (f->module == module && !f->imports.empty())
            return {f->imports.begin(), f->imports.end()};
    return {std::string(module)};
}

const std::vector<std::string>& smoke_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const Framework* f : all())
            if (!f->smoke.empty()) out.emplace_back(f->smoke);
        return out;
    }();
    return names;
}

std::string smoke_list(std::string_view separator, bool display_names) {
    std::string out;
    for (const Framework* f : all()) {
        if (f->smoke.empty()) continue;
        if (!out.empty()) out += separator;
        out += display_names ? f->display : f->smoke;
    }
    return out;
}

}  // namespace cuvet::frameworks
