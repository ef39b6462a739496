// The tables must agree with each other: a cuDNN build for a CUDA the driver table does not
// know, two rows for one release, or a tag flavour the flavour table denies would each make a
// check answer from half the facts.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <sstream>

#include "cuvet/rules/database.hpp"
#include "support/builtin_rules.hpp"

using cuvet::rules::Database;
using cuvet::rules::Version;
using cuvet::test::db;

namespace {

// A driver row for this CUDA: "12" needs any 12.x row, "12.4" or "12.4.1" a 12.4 row.
bool has_driver_row(const Version& cuda) {
    for (const auto& entry : db().driver_entries()) {
        if (entry.cuda.major() != cuda.major()) continue;
        if (cuda.size() == 1 || entry.cuda.minor() == cuda.minor()) return true;
    }
    return false;
}

// A cuDNN release row for a pin: "9.1.0.70" → the 9.1.0 row, "8.9" → any 8.9.x row.
bool has_cudnn_release(const Version& pin) {
    for (const auto& release : db().cudnn_releases()) {
        if (release.version.covers(pin) || pin.covers(release.version)) return true;
    }
    return false;
}

// Some build of a cuDNN major supports this CUDA minor ("12" builds cover every 12.x).
bool cudnn_major_supports(int cudnn_major, const Version& cuda) {
    for (const auto& release : db().cudnn_releases()) {
        if (release.version.major() != cudnn_major) continue;
        for (const auto& build : release.builds) {
            for (const auto& supported : build.cuda) {
                if (supported.covers(cuda.truncated(2)) || supported == cuda.truncated(2))
                    return true;
            }
        }
    }
    return false;
}

// Some build of this cuDNN release (the row a pin names) is for this CUDA major.
bool cudnn_release_has_cuda_major(const Version& pin, int cuda_major) {
    for (const auto& release : db().cudnn_releases()) {
        if (!release.version.covers(pin) && !pin.covers(release.version)) continue;
        for (const auto& build : release.builds) {
            if (build.cuda_major == cuda_major) return true;
        }
    }
    return false;
}

// How precise a framework row's version is: the lookup prefers the row with more components.
std::size_t precision(const cuvet::rules::FrameworkBuild& build) {
    return build.version ? build.version->size() : 0;
}

// Two rows of one framework and variant that both match some release, with the same precision:
// the lookup would answer from whichever comes first. The later of the two lower bounds is in
// both ranges whenever the ranges meet.
bool ambiguous(const cuvet::rules::FrameworkBuild& a, const cuvet::rules::FrameworkBuild& b) {
    if (a.framework != b.framework || a.variant != b.variant || precision(a) != precision(b))
        return false;
    if (!a.version || !b.version) return true;
    const Version& witness = *a.version < *b.version ? *b.version : *a.version;
    return a.matches(witness) && b.matches(witness);
}

template <typename Rows, typename Key>
std::string duplicates(const Rows& rows, Key key) {
    std::set<std::string> seen;
    std::string out;
    for (const auto& row : rows) {
        if (!seen.insert(key(row)).second) out += " " + key(row);
    }
    return out;
}

}  // namespace

TEST_CASE("consistency: every cuDNN build's CUDA has a driver row", "[rules][consistency]") {
    for (const auto& release : db().cudnn_releases()) {
        for (const auto& build : release.builds) {
            for (const auto& cuda : build.cuda) {
                INFO("cuDNN " << release.version.str() << " for CUDA " << cuda.str());
                CHECK(has_driver_row(cuda));
            }
        }
    }
}

TEST_CASE("consistency: one row per release, no overlapping ranges", "[rules][consistency]") {
    CHECK(duplicates(db().driver_entries(), [](const auto& e) { return e.cuda.str(); }).empty());
    CHECK(duplicates(db().cudnn_releases(), [](const auto& r) { return r.version.str(); }).empty());
    CHECK(
        duplicates(db().gpus(), [](const auto& g) { return g.compute_capability.str(); }).empty());
    CHECK(duplicates(db().sonames(), [](const auto& s) { return s.soname; }).empty());
    CHECK(duplicates(db().cuda_image_tags(), [](const auto& t) { return t.cuda; }).empty());
    const auto& flavors = db().cudnn_flavors();
    for (std::size_t i = 0; i < flavors.size(); ++i) {
        for (std::size_t j = i + 1; j < flavors.size(); ++j) {
            INFO("cuDNN flavour rows "
                 << flavors[i].cuda_min.str() << "-" << flavors[i].cuda_max.str() << " and "
                 << flavors[j].cuda_min.str() << "-" << flavors[j].cuda_max.str());
            CHECK((flavors[i].cuda_max < flavors[j].cuda_min ||
                   flavors[j].cuda_max < flavors[i].cuda_min));
        }
    }
    // cuDNN releases are listed newest first (newest_entry and readers rely on it).
    const auto& releases = db().cudnn_releases();
    for (std::size_t i = 1; i < releases.size(); ++i)
        CHECK(releases[i].version < releases[i - 1].version);
}

TEST_CASE("consistency: a newer CUDA release never needs an older driver", "[rules][consistency]") {
    std::vector<const cuvet::rules::DriverEntry*> known;
    for (const auto& entry : db().driver_entries()) {
        if (entry.min_driver) known.push_back(&entry);
    }
    std::sort(known.begin(), known.end(),
              [](const auto* a, const auto* b) { return a->cuda < b->cuda; });
    for (std::size_t i = 1; i < known.size(); ++i) {
        INFO("CUDA " << known[i - 1]->cuda.str() << " then " << known[i]->cuda.str());
        CHECK(*known[i - 1]->min_driver <= *known[i]->min_driver);
    }
}

TEST_CASE("consistency: nvidia/cuda tags agree with the driver, flavour and cuDNN tables",
          "[rules][consistency]") {
    for (const auto* rows : {&db().cuda_image_tags(), &db().deleted_cuda_image_tags()}) {
        for (const auto& row : *rows) {
            INFO("nvidia/cuda " << row.cuda);
            CHECK(has_driver_row(*Version::parse(row.cuda)));
        }
    }
    for (const auto& row : db().cuda_image_tags()) {
        auto cuda = *Version::parse(row.cuda);
        std::set<std::string> spelled;  // the cuDNN flavour prefixes the tags use
        for (const auto& [os, flavors] : row.tags) {
            for (const auto& flavor : flavors) {
                if (flavor.rfind("cudnn", 0) == 0)
                    spelled.insert(flavor.substr(0, flavor.rfind('-')));
            }
        }
        std::set<std::string> table;
        for (const auto* flavor : db().cudnn_flavors_for(cuda)) table.insert(flavor->flavor_prefix);
        INFO("nvidia/cuda " << row.cuda << (row.complete ? " (complete)" : " (partial)"));
        for (const auto& prefix : spelled) CHECK(table.count(prefix) == 1);
        if (row.complete) CHECK(table == spelled);
    }
    for (const auto& flavor : db().cudnn_flavors()) {
        INFO("flavour " << flavor.flavor_prefix << " " << flavor.cuda_min.str() << "-"
                        << flavor.cuda_max.str());
        CHECK(cudnn_major_supports(flavor.cudnn_major, flavor.cuda_min));
        CHECK(cudnn_major_supports(flavor.cudnn_major, flavor.cuda_max));
    }
}

TEST_CASE("consistency: a GPU's first and last CUDA are releases the driver table knows",
          "[rules][consistency]") {
    for (const auto& gpu : db().gpus()) {
        INFO("compute capability " << gpu.compute_capability.str());
        if (gpu.last_cuda) CHECK(has_driver_row(*gpu.last_cuda));
        if (gpu.first_cuda) CHECK(has_driver_row(*gpu.first_cuda));
    }
}

// A gap here is a real gap in the cuDNN or driver table for a framework build people install:
// a pin without a cuDNN release row fails, and the list names each one.
TEST_CASE("consistency: every framework build's CUDA and cuDNN pin are in the tables",
          "[rules][consistency][frameworks]") {
    std::ostringstream missing_cuda, missing_cudnn;
    for (const auto& build : db().framework_builds()) {
        std::string name = build.framework + " " + (build.version ? build.version->str() : "*") +
                           (build.variant.empty() ? "" : " " + build.variant);
        if (build.cuda && !has_driver_row(*build.cuda))
            missing_cuda << "\n  " << name << ": CUDA " << build.cuda->str();
        if (build.cudnn && !has_cudnn_release(*build.cudnn)) {
            missing_cudnn << "\n  " << name << ": cuDNN " << build.cudnn->str();
        }
    }
    INFO("framework builds whose CUDA has no driver row:" << missing_cuda.str());
    CHECK(missing_cuda.str().empty());
    INFO("framework builds whose cuDNN pin has no cuDNN release row:" << missing_cudnn.str());
    CHECK(missing_cudnn.str().empty());
}

// A framework row names its cuDNN as precisely as its source does; the release it names must
// ship a build for the row's CUDA major, and a wheel's cuDNN pin ("nvidia-cudnn-cu13==9.19.0.56",
// ">=9.8,<10.0") must name a release the cuDNN table has.
TEST_CASE("consistency: framework cuDNN pins match a cuDNN build for their CUDA major",
          "[rules][consistency][frameworks]") {
    std::ostringstream wrong_major, missing_pin;
    for (const auto& build : db().framework_builds()) {
        std::string name = build.framework + " " + (build.version ? build.version->str() : "*") +
                           (build.variant.empty() ? "" : " " + build.variant);
        if (build.cudnn && build.cuda &&
            !cudnn_release_has_cuda_major(*build.cudnn, build.cuda->major()))
            wrong_major << "\n  " << name << ": cuDNN " << build.cudnn->str() << " for CUDA "
                        << build.cuda->major();
        for (const auto& requirement : build.requirements) {
            if (requirement.name.rfind("nvidia-cudnn", 0) != 0) continue;
            auto lower = requirement.lower();
            if (lower && !has_cudnn_release(*lower))
                missing_pin << "\n  " << name << ": " << requirement.name << requirement.spec;
        }
    }
    INFO("framework builds whose cuDNN release has no build for their CUDA major:"
         << wrong_major.str());
    CHECK(wrong_major.str().empty());
    INFO("framework builds whose cuDNN wheel pin has no cuDNN release row:" << missing_pin.str());
    CHECK(missing_pin.str().empty());
}

TEST_CASE("consistency: no two framework rows of one variant answer for the same release",
          "[rules][consistency][frameworks]") {
    const auto& builds = db().framework_builds();
    std::ostringstream clashes;
    for (std::size_t i = 0; i < builds.size(); ++i) {
        for (std::size_t j = i + 1; j < builds.size(); ++j) {
            if (!ambiguous(builds[i], builds[j])) continue;
            clashes << "\n  " << builds[i].framework << " "
                    << (builds[i].version ? builds[i].version->str() : "*") << " and "
                    << (builds[j].version ? builds[j].version->str() : "*") << " variant '"
                    << builds[i].variant << "'";
        }
    }
    INFO("overlapping framework rows:" << clashes.str());
    CHECK(clashes.str().empty());
}

// A driver row for exactly this CUDA release: "13.4.3" needs a 13.4.3 row, not 13.4.2's.
bool has_exact_driver_row(const Version& cuda) {
    for (const auto& entry : db().driver_entries()) {
        if (entry.cuda == cuda) return true;
    }
    return false;
}

TEST_CASE("consistency: every NGC container's CUDA and cuDNN are in the tables",
          "[rules][consistency][ngc]") {
    std::ostringstream missing;
    for (const auto& release : db().ngc_containers()) {
        std::string name = "\n  nvcr.io/nvidia/" + release.image + ":" + release.release;
        // An x.y.N release (11.1 on) must be a row of its own; "12.4" (the notes' own wording) and
        // build numbers (10.1.168, the 11.0.167 RC: the table has one row per 10.x) a row of x.y.
        const bool release_number =
            release.cuda && release.cuda->size() >= 3 && release.cuda->patch() < 100;
        if (release.cuda &&
            !(release_number ? has_exact_driver_row(*release.cuda) : has_driver_row(*release.cuda)))
            missing << name << ": CUDA " << release.cuda->str();
        if (release.cudnn && !has_cudnn_release(*release.cudnn))
            missing << name << ": cuDNN " << release.cudnn->str();
    }
    INFO("NGC releases whose CUDA or cuDNN the driver/cuDNN tables lack:" << missing.str());
    CHECK(missing.str().empty());
}

// The release notes' "requires NVIDIA Driver release NNN or later" can never be below the branch
// floor of the CUDA major (minor-version compatibility); stale sentences that say so stay null.
// The data-center branches the notes allow are not newer than the required one.
TEST_CASE("consistency: an NGC container's driver branch agrees with its CUDA",
          "[rules][consistency][ngc]") {
    for (const auto& release : db().ngc_containers()) {
        INFO("nvcr.io/nvidia/" << release.image << ":" << release.release);
        if (!release.cuda || !release.min_driver_branch) continue;
        const auto* compat = db().minor_version_compat(release.cuda->major());
        if (compat && compat->min_driver)
            CHECK(release.min_driver_branch->major() >= compat->min_driver->major());
        for (const auto& older : release.datacenter_drivers)
            CHECK(older.major() <= release.min_driver_branch->major());
    }
}

TEST_CASE("consistency: NGC releases are listed per image in release order",
          "[rules][consistency][ngc]") {
    const auto& releases = db().ngc_containers();
    for (std::size_t i = 1; i < releases.size(); ++i) {
        const auto& a = releases[i - 1];
        const auto& b = releases[i];
        INFO(a.image << ":" << a.release << " then " << b.image << ":" << b.release);
        CHECK((a.image < b.image || (a.image == b.image && a.release < b.release)));
    }
}
