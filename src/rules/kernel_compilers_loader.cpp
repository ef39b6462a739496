// kernel_compilers.json: GPU kernel compilers packaged for Python (a framework of the catalog),
// the releases of the framework that pins each of theirs, and the assemblers their wheels bundle.
#include "table_loaders.hpp"

namespace cuvet::rules::detail {

namespace {

// "ptxas_blackwell": a version, "none" (the wheel ships no separate Blackwell assembler)
// or null (unknown).
void read_ptxas_blackwell(const JsonNode& node, KernelCompilerRelease& release) {
    if (node.is_string() && node.string() == "none") {
        release.blackwell_uses_ptxas = true;
        return;
    }
    release.ptxas_blackwell = node.nullable_version();
}

KernelCompilerRelease read_release(const JsonNode& r, const ProvenanceReader& provenance) {
    r.expect_object({"version", "ptxas", "ptxas_blackwell", "ptxas_evidence", "pinned_by",
                     "released", "source", "confidence", "note"});
    KernelCompilerRelease release;
    release.version = r.at("version").version();
    release.ptxas = r.at("ptxas").nullable_version();
    read_ptxas_blackwell(r.at("ptxas_blackwell"), release);
    release.pinned_by = r.at("pinned_by").version_array();
    release.provenance = provenance(r);
    check_release_date(r, provenance);
    // The assemblers were often read from another source than the pins (the wheel's files
    // rather than a release announcement): then they carry their own.
    if (auto evidence = r.get("ptxas_evidence")) {
        evidence->expect_object({"source", "confidence", "note"});
        release.ptxas_provenance = provenance(*evidence);
    } else {
        release.ptxas_provenance = release.provenance;
    }
    return release;
}

// A pinning release named by two rows with equally precise versions ("2.13" twice) would
// make pinned_by_release answer from whichever comes first.
void expect_unique_pins(const JsonNode& r, const KernelCompiler& compiler,
                        const KernelCompilerRelease& release) {
    for (std::size_t i = 0; i < release.pinned_by.size(); ++i) {
        const Version& pin = release.pinned_by[i];
        for (const auto& earlier : compiler.releases) {
            for (const auto& other : earlier.pinned_by) {
                if (other == pin && other.size() == pin.size()) {
                    r.at("pinned_by")
                        .array()[i]
                        .fail(compiler.pinned_by + " " + pin.str() + " already pins " +
                              compiler.framework + " " + earlier.version.str());
                }
            }
        }
    }
}

KernelCompiler read_compiler(const JsonNode& c, const ProvenanceReader& provenance) {
    c.expect_object({"framework", "pinned_by", "releases"});
    KernelCompiler compiler;
    compiler.framework = c.at("framework").string();
    compiler.pinned_by = c.at("pinned_by").string();
    for (const auto& r : c.at("releases").array()) {
        KernelCompilerRelease release = read_release(r, provenance);
        for (const auto& earlier : compiler.releases) {
            if (earlier.version == release.version)
                r.at("version").fail(compiler.framework + " " + release.version.str() +
                                     " is listed twice");
        }
        expect_unique_pins(r, compiler, release);
        compiler.releases.push_back(std::move(release));
    }
    return compiler;
}

}  // namespace

std::size_t load_kernel_compilers(const JsonNode& root, const ProvenanceReader& provenance,
                                  std::vector<KernelCompiler>& compilers) {
    root.expect_object({"table", "data_version", "description", "sources", "compilers"});
    std::size_t releases = 0;
    for (const auto& c : root.at("compilers").array()) {
        KernelCompiler compiler = read_compiler(c, provenance);
        for (const auto& earlier : compilers) {
            if (earlier.framework == compiler.framework)
                c.at("framework").fail(compiler.framework + " is listed twice");
        }
        releases += compiler.releases.size();
        compilers.push_back(std::move(compiler));
    }
    return releases;
}

}  // namespace cuvet::rules::detail
