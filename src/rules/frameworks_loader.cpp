// frameworks.json: the framework catalog, framework builds, cuDNN load rules and the frameworks'
// error texts.
#include <algorithm>

#include "framework_catalog_reader.hpp"
#include "table_loaders.hpp"

namespace cuvet::rules::detail {

namespace {

// A build or error text names a record of the table's own catalog.
void expect_known_framework(const JsonNode& node, const FrameworkCatalog& catalog) {
    std::string name = node.string();
    if (catalog.find(name) == nullptr)
        node.fail("unknown framework '" + name + "' (not in /catalog)");
}

FrameworkBuild read_build(const JsonNode& b, const ProvenanceReader& provenance,
                          const FrameworkCatalog& catalog) {
    b.expect_object({"framework", "version", "until", "variant", "cuda", "cuda_min", "cudnn",
                     "cudnn_major", "default", "sonames", "package", "selected_by", "index",
                     "requires", "cudnn_optional", "source", "confidence", "note"});
    FrameworkBuild fb;
    expect_known_framework(b.at("framework"), catalog);
    fb.framework = b.at("framework").string();
    fb.version = b.at("version").nullable_version();
    if (auto until = b.get("until")) {
        fb.until = until->version();
        if (!fb.version) until->fail("'until' needs a 'version' to start from");
        if (*fb.until < *fb.version) until->fail("'until' is below 'version'");
    }
    JsonNode variant = b.at("variant");
    if (!variant.is_null()) fb.variant = variant.string();
    fb.cuda = b.at("cuda").nullable_version();
    if (auto cuda_min = b.get("cuda_min")) fb.cuda_min = cuda_min->nullable_version();
    fb.cudnn = b.at("cudnn").nullable_version();
    JsonNode major = b.at("cudnn_major");
    if (!major.is_null()) fb.cudnn_major = major.integer();
    if (fb.cudnn && fb.cudnn_major && fb.cudnn->major() != *fb.cudnn_major) {
        major.fail("cudnn_major " + std::to_string(*fb.cudnn_major) + " contradicts cudnn " +
                   fb.cudnn->str());
    }
    fb.is_default = b.at("default").boolean();
    if (auto sonames = b.get("sonames")) fb.sonames = sonames->string_array();
    fb.package = b.optional_string("package");
    fb.selected_by = b.optional_string("selected_by");
    fb.index = b.optional_string("index");
    if (auto requires_ = b.get("requires")) fb.requirements = read_requirements(*requires_);
    if (auto optional = b.get("cudnn_optional")) fb.cudnn_optional = optional->boolean();
    fb.provenance = provenance(b);
    return fb;
}

}  // namespace

std::vector<Requirement> read_requirements(const JsonNode& array) {
    std::vector<Requirement> out;
    for (const auto& r : array.array()) {
        r.expect_object({"name", "spec"});
        Requirement req{r.at("name").string(), r.at("spec").string()};
        if (req.name.empty()) r.at("name").fail("expected a package name");
        out.push_back(std::move(req));
    }
    return out;
}

std::size_t load_frameworks(const JsonNode& root, const ProvenanceReader& provenance,
                            std::vector<FrameworkBuild>& builds,
                            std::vector<CudnnLoadRule>& load_rules,
                            std::vector<FrameworkErrorText>& error_texts,
                            FrameworkCatalog& catalog_out) {
    root.expect_object({"table", "data_version", "description", "sources", "catalog", "builds",
                        "cudnn_load_rules", "error_texts"});
    const auto catalog = read_framework_catalog(root.at("catalog"), provenance);
    for (const auto& b : root.at("builds").array())
        builds.push_back(read_build(b, provenance, catalog));
    for (const auto& r : root.at("cudnn_load_rules").array()) {
        r.expect_object({"framework", "rule", "source", "confidence", "note"});
        CudnnLoadRule rule{r.at("framework").string(), r.at("rule").string(), provenance(r)};
        if (rule.rule != "same_major_minor_at_least" && rule.rule != "same_major") {
            r.at("rule").fail("expected \"same_major_minor_at_least\" or \"same_major\"");
        }
        load_rules.push_back(std::move(rule));
    }
    if (auto texts = root.get("error_texts")) {
        for (const auto& e : texts->array()) {
            e.expect_object({"framework", "kind", "min_version", "max_version", "message",
                             "version_format", "ld_library_path_hint", "source", "confidence",
                             "note"});
            FrameworkErrorText text;
            expect_known_framework(e.at("framework"), catalog);
            text.framework = e.at("framework").string();
            text.kind = e.at("kind").string();
            if (text.kind.empty()) e.at("kind").fail("expected a non-empty kind");
            text.min_version = e.at("min_version").nullable_version();
            text.max_version = e.at("max_version").nullable_version();
            if (text.min_version && text.max_version && *text.max_version < *text.min_version) {
                e.at("max_version").fail("max_version is below min_version");
            }
            text.message = e.at("message").string();
            if (text.message.empty()) e.at("message").fail("expected the framework's text");
            if (auto format = e.get("version_format"); format && !format->is_null()) {
                text.version_format = format->string();
                if (text.version_format != "dotted" && text.version_format != "tuple" &&
                    text.version_format != "encoded") {
                    format->fail("expected \"dotted\", \"tuple\" or \"encoded\"");
                }
            }
            if (auto hint = e.get("ld_library_path_hint"); hint && !hint->is_null())
                text.ld_library_path_hint = hint->boolean();
            text.provenance = provenance(e);
            error_texts.push_back(std::move(text));
        }
    }
    const std::size_t facts =
        catalog.records().size() + builds.size() + load_rules.size() + error_texts.size();
    catalog_out = catalog;
    return facts;
}

}  // namespace cuvet::rules::detail
