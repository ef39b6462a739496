#pragma once
// What the inventory tests ask of an analysed rootfs dir.
#include <filesystem>
#include <string>

#include "cuvet/image/image.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/inventory/inventory.hpp"

namespace cuvet::test {

inline inventory::Analysis analyze_dir(const std::filesystem::path& root) {
    auto image = image::open_image(root, {});
    return inventory::analyze(*image);
}

// The component `name` found at `location`, or null.
inline const inventory::Component* component(const inventory::Inventory& inv,
                                             const std::string& name, const std::string& location) {
    for (const auto* c : inv.find(name))
        if (c->location == location) return c;
    return nullptr;
}

// The one component named `name`, or null when there is none or more than one.
inline const inventory::Component* only(const inventory::Inventory& inv, const std::string& name) {
    auto found = inv.find(name);
    return found.size() == 1 ? found[0] : nullptr;
}

// The inventory as indented JSON, for a failing test's INFO.
inline std::string describe(const inventory::Inventory& inv) {
    return inventory::to_json(inv).dump(1);
}

}  // namespace cuvet::test
