// nccl.json: NCCL releases with the CUDA releases NVIDIA built them for, and the NCCL
// each framework build ships and pins.
#include "table_loaders.hpp"

namespace cuvet::rules::detail {

namespace {

NcclRelease read_nccl_release(const JsonNode& r, const ProvenanceReader& provenance) {
    r.expect_object({"version", "cuda", "complete", "released", "source", "confidence", "note"});
    NcclRelease release;
    release.version = r.at("version").version();
    release.cuda = r.at("cuda").version_array();
    // A release nobody read a build of is no fact at all: leave the row out instead.
    if (release.cuda.empty()) r.at("cuda").fail("expected at least one CUDA release");
    if (auto complete = r.get("complete")) release.complete = complete->boolean();
    release.provenance = provenance(r);
    check_release_date(r, provenance);
    return release;
}

NcclPin read_pin(const JsonNode& p, const ProvenanceReader& provenance) {
    p.expect_object({"framework", "version", "variant", "nccl", "source", "confidence", "note"});
    NcclPin pin;
    pin.framework = p.at("framework").string();
    if (pin.framework.empty()) p.at("framework").fail("expected a framework name");
    pin.version = p.at("version").version();
    pin.variant = p.at("variant").string();
    if (pin.variant.empty()) p.at("variant").fail("expected a variant, e.g. \"cu126\"");
    pin.nccl = p.at("nccl").version();
    pin.provenance = provenance(p);
    return pin;
}

}  // namespace

std::size_t load_nccl(const JsonNode& root, const ProvenanceReader& provenance,
                      std::vector<NcclRelease>& releases, std::vector<NcclPin>& pins) {
    root.expect_object(
        {"table", "data_version", "description", "sources", "releases", "framework_pins"});
    for (const auto& r : root.at("releases").array()) {
        NcclRelease release = read_nccl_release(r, provenance);
        for (const auto& earlier : releases) {
            if (earlier.version == release.version)
                r.at("version").fail("NCCL " + release.version.str() + " is listed twice");
        }
        releases.push_back(std::move(release));
    }
    for (const auto& p : root.at("framework_pins").array()) {
        NcclPin pin = read_pin(p, provenance);
        for (const auto& earlier : pins) {
            // Two rows for one build would make the lookup answer from whichever comes first.
            if (earlier.framework == pin.framework && earlier.variant == pin.variant &&
                earlier.version.str() == pin.version.str()) {
                p.at("version").fail(pin.framework + " " + pin.version.str() + " " + pin.variant +
                                     " is listed twice");
            }
        }
        pins.push_back(std::move(pin));
    }
    return releases.size() + pins.size();
}

}  // namespace cuvet::rules::detail
