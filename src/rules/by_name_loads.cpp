// By-name loads from sonames.json (schema: rules/SCHEMA.md, by_name_loads[]).
#include "cuvet/rules/by_name_loads.hpp"

#include <nlohmann/json.hpp>
#include <optional>

#include "by_name_loads_reader.hpp"
#include "cudnn_sub_libraries_reader.hpp"
#include "table_text.hpp"
#include "tables_read_on_demand.hpp"

namespace cuvet::rules {

namespace detail {

std::vector<ByNameLoad> read_by_name_loads(
    const JsonNode& list, const std::function<Provenance(const JsonNode&)>& provenance) {
    std::vector<ByNameLoad> out;
    for (const auto& e : list.array()) {
        e.expect_object({"loader_prefix", "target_prefix", "name_is_soname", "severity", "missing",
                         "mismatch", "breaks", "first_use_by", "source", "confidence", "note"});
        ByNameLoad load{e.at("loader_prefix").string(),
                        e.at("target_prefix").string(),
                        e.at("name_is_soname").boolean(),
                        e.at("severity").string(),
                        e.at("missing").string(),
                        e.at("mismatch").string(),
                        e.at("breaks").string(),
                        e.at("first_use_by").string_array(),
                        provenance(e)};
        if (load.severity != "error" && load.severity != "warning" && load.severity != "none")
            e.at("severity").fail("expected \"error\", \"warning\" or \"none\"");
        if (!load.loader_prefix.starts_with("lib") || !load.target_prefix.starts_with("lib"))
            e.fail("loader_prefix and target_prefix are library names (lib…)");
        out.push_back(std::move(load));
    }
    return out;
}

}  // namespace detail

std::string with_name(const std::string& words, const std::string& name) {
    std::string out = words;
    static const std::string placeholder = "{name}";
    for (auto at = out.find(placeholder); at != std::string::npos;
         at = out.find(placeholder, at + name.size()))
        out.replace(at, placeholder.size(), name);
    return out;
}

namespace {

// Read again from the table's text rather than by the loader, as cudnn_sub_libraries() is: it
// has validated it, and only the by-name check asks for it.
std::vector<ByNameLoad> read_by_name_loads(const Database& db) {
    const auto text = table_text(db, "sonames");
    if (!text) return {};
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(*text);
    } catch (const nlohmann::json::parse_error&) {
        return {};
    }
    static const std::string origin = "rules/sonames.json";
    detail::JsonNode root(json, "", origin);
    auto list = root.get("by_name_loads");
    if (!list) return {};
    const auto sources = detail::read_sources(root);
    return detail::read_by_name_loads(*list, [&sources](const detail::JsonNode& fact) {
        return detail::read_provenance(fact, "sonames", sources);
    });
}

}  // namespace

const std::vector<ByNameLoad>& by_name_loads(const Database& db) {
    auto& kept = *db.on_demand_;
    std::call_once(kept.sonames_read, [&] { kept.by_name_loads = read_by_name_loads(db); });
    return kept.by_name_loads;
}

}  // namespace cuvet::rules
