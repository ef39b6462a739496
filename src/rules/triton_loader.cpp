// triton.json: OpenAI Triton releases, the torch releases that pin them and the
// ptxas their wheels bundle.
#include "table_loaders.hpp"

namespace cuvet::rules::detail {

namespace {

// "ptxas_blackwell": a version, "none" (the wheel ships no separate Blackwell assembler)
// or null (unknown).
void read_ptxas_blackwell(const JsonNode& node, TritonRelease& release) {
    if (node.is_string() && node.string() == "none") {
        release.blackwell_uses_ptxas = true;
        return;
    }
    release.ptxas_blackwell = node.nullable_version();
}

TritonRelease read_triton_release(const JsonNode& r, const ProvenanceReader& provenance) {
    r.expect_object({"version", "ptxas", "ptxas_blackwell", "ptxas_evidence", "torch", "released",
                     "source", "confidence", "note"});
    TritonRelease release;
    release.version = r.at("version").version();
    release.ptxas = r.at("ptxas").nullable_version();
    read_ptxas_blackwell(r.at("ptxas_blackwell"), release);
    release.torch = r.at("torch").version_array();
    release.provenance = provenance(r);
    check_release_date(r, provenance);
    // The assemblers were often read from another source than the torch pins (the wheel's
    // files rather than a release announcement): then they carry their own.
    if (auto evidence = r.get("ptxas_evidence")) {
        evidence->expect_object({"source", "confidence", "note"});
        release.ptxas_provenance = provenance(*evidence);
    } else {
        release.ptxas_provenance = release.provenance;
    }
    return release;
}

// A torch release pinned by two rows with equally precise versions ("2.13" twice) would
// make triton_for_torch answer from whichever comes first.
void expect_unique_torch(const JsonNode& r, const TritonRelease& release,
                         const std::vector<TritonRelease>& earlier_rows) {
    for (std::size_t i = 0; i < release.torch.size(); ++i) {
        const Version& torch = release.torch[i];
        for (const auto& earlier : earlier_rows) {
            for (const auto& other : earlier.torch) {
                if (other == torch && other.size() == torch.size()) {
                    r.at("torch").array()[i].fail("torch " + torch.str() + " already pins Triton " +
                                                  earlier.version.str());
                }
            }
        }
    }
}

}  // namespace

std::size_t load_triton(const JsonNode& root, const ProvenanceReader& provenance,
                        std::vector<TritonRelease>& releases) {
    root.expect_object({"table", "data_version", "description", "sources", "releases"});
    for (const auto& r : root.at("releases").array()) {
        TritonRelease release = read_triton_release(r, provenance);
        for (const auto& earlier : releases) {
            if (earlier.version == release.version)
                r.at("version").fail("Triton " + release.version.str() + " is listed twice");
        }
        expect_unique_torch(r, release, releases);
        releases.push_back(std::move(release));
    }
    return releases.size();
}

}  // namespace cuvet::rules::detail
