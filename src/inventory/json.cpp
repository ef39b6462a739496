// The stable JSON form of the inventory (docs/inventory-schema.md).
#include "cuvet/inventory/inventory.hpp"

namespace cuvet::inventory {

nlohmann::json to_json(const Inventory& inventory) {
    nlohmann::json out;
    out["schema_version"] = schema_version;
    out["distro"] = {{"id", inventory.distro.id},
                     {"version_id", inventory.distro.version_id},
                     {"pretty_name", inventory.distro.pretty_name},
                     {"source", inventory.distro.source}};
    out["env"] = inventory.env;
    auto& components = out["components"] = nlohmann::json::array();
    for (const auto& c : inventory.components) {
        nlohmann::json item = {{"name", c.name},         {"category", c.category},
                               {"version", c.version},   {"source", c.source},
                               {"location", c.location}, {"versions_agree", c.versions_agree},
                               {"files", c.files},       {"attributes", c.attributes}};
        auto& evidence = item["evidence"] = nlohmann::json::array();
        for (const auto& e : c.evidence)
            evidence.push_back(
                {{"kind", e.kind}, {"path", e.path}, {"version", e.version}, {"detail", e.detail}});
        components.push_back(std::move(item));
    }
    return out;
}

}  // namespace cuvet::inventory
