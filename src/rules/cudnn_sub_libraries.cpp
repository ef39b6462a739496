// cuDNN's sub-library model from cudnn.json (schema: rules/SCHEMA.md, sonames[]).
#include "cuvet/rules/cudnn_sub_libraries.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cudnn_sub_libraries_reader.hpp"
#include "cuvet/rules/framework_catalog.hpp"
#include "table_text.hpp"
#include "tables_read_on_demand.hpp"

namespace cuvet::rules {

namespace detail {

std::optional<CudnnSubLibraries> read_cudnn_sub_libraries(
    const JsonNode& e, const std::vector<std::string>& libraries,
    const std::function<Provenance(const JsonNode&)>& provenance) {
    CudnnSubLibraries out;
    out.major = e.at("major").integer();
    out.main = e.at("main").string();
    if (auto statuses = e.get("statuses")) {
        statuses->expect_object({"missing", "version_mismatch", "source", "confidence"});
        out.missing_status = statuses->at("missing").string();
        out.version_mismatch_status = statuses->at("version_mismatch").string();
        out.statuses_provenance = provenance(*statuses);
    }
    auto uses = e.get("sub_library_uses");
    if (!uses) return std::nullopt;
    for (const auto& u : uses->array()) {
        u.expect_object({"soname", "serves", "convolution", "source", "confidence", "note"});
        CudnnSubLibraryUse use{u.at("soname").string(), u.at("serves").string(), std::nullopt,
                               provenance(u)};
        if (!u.at("convolution").is_null()) use.convolution = u.at("convolution").boolean();
        if (std::find(libraries.begin(), libraries.end(), use.soname) == libraries.end())
            u.at("soname").fail("'" + use.soname + "' is not among /libraries");
        out.uses.push_back(std::move(use));
    }
    if (auto needs = e.get("consumer_needs")) {
        for (const auto& n : needs->array()) {
            n.expect_object({"framework", "min_version", "api", "convolution_opens", "source",
                             "confidence", "note"});
            CudnnConsumerNeed need{n.at("framework").string(), n.at("min_version").version(),
                                   n.at("api").string(), n.at("convolution_opens").string_array(),
                                   provenance(n)};
            // A name outside the catalog would never match an install: a typo, not a fact.
            if (builtin_framework_catalog().find(need.framework) == nullptr)
                n.at("framework")
                    .fail("'" + need.framework +
                          "' is not a framework of rules/frameworks.json's catalog");
            for (const auto& soname : need.convolution_opens)
                if (std::find(libraries.begin(), libraries.end(), soname) == libraries.end())
                    n.at("convolution_opens").fail("'" + soname + "' is not among /libraries");
            out.consumer_needs.push_back(std::move(need));
        }
    }
    return out;
}

}  // namespace detail

const CudnnSubLibraryUse* CudnnSubLibraries::use_of(const std::string& soname) const {
    for (const auto& use : uses)
        if (use.soname == soname) return &use;
    return nullptr;
}

const CudnnConsumerNeed* CudnnSubLibraries::need_of(const std::string& framework,
                                                    const Version& version) const {
    for (const auto& need : consumer_needs)
        if (need.framework == framework && version >= need.min_version) return &need;
    return nullptr;
}

namespace {

// Read again from the table's text rather than by the loader: it has validated it, and only the
// checks about cuDNN's loads ask for it.
std::vector<CudnnSubLibraries> read_cudnn_sub_libraries(const Database& db) {
    std::vector<CudnnSubLibraries> out;
    const auto text = table_text(db, "cudnn");
    if (!text) return out;
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(*text);
    } catch (const nlohmann::json::parse_error&) {
        return out;
    }
    static const std::string origin = "rules/cudnn.json";
    detail::JsonNode root(json, "", origin);
    const auto sources = detail::read_sources(root);
    auto provenance = [&sources](const detail::JsonNode& fact) {
        return detail::read_provenance(fact, "cudnn", sources);
    };
    for (const auto& e : root.at("sonames").array())
        if (auto set =
                detail::read_cudnn_sub_libraries(e, e.at("libraries").string_array(), provenance))
            out.push_back(std::move(*set));
    return out;
}

}  // namespace

const std::vector<CudnnSubLibraries>& cudnn_sub_libraries(const Database& db) {
    auto& kept = *db.on_demand_;
    std::call_once(kept.cudnn_read,
                   [&] { kept.cudnn_sub_libraries = read_cudnn_sub_libraries(db); });
    return kept.cudnn_sub_libraries;
}

}  // namespace cuvet::rules
