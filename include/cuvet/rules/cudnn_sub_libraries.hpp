#pragma once
// cuDNN's sub-libraries as its main library loads them (rules/cudnn.json sonames[].statuses and
// sub_library_uses): which sub-library serves which API, whether a convolution needs it, and the
// statuses cuDNN returns when one does not load or is of another release.
#include <optional>
#include <string>
#include <vector>

#include "cuvet/rules/database.hpp"
#include "cuvet/rules/version.hpp"

namespace cuvet::rules {

struct CudnnSubLibraryUse {
    std::string soname;               // "libcudnn_cnn.so.9"
    std::string serves;               // the APIs it holds, in words
    std::optional<bool> convolution;  // a convolution needs it; nullopt: unknown
    Provenance provenance;
};

// The sub-libraries one framework's convolution opens, measured or documented
// (sonames[].consumer_needs): the others it never loads, so their loss breaks only other APIs.
struct CudnnConsumerNeed {
    std::string framework;  // a catalog name: "pytorch"
    Version min_version;    // the release it was shown for; older ones are unknown
    std::string api;        // how it calls cuDNN, in words
    std::vector<std::string> convolution_opens;
    Provenance provenance;
};

// One cuDNN major whose main library dlopen()s every sub-library by name (cuDNN 9).
struct CudnnSubLibraries {
    int major = 0;
    std::string main;                     // "libcudnn.so.9"
    std::string missing_status;           // CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED
    std::string version_mismatch_status;  // CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH
    std::optional<Provenance> statuses_provenance;
    std::vector<CudnnSubLibraryUse> uses;
    std::vector<CudnnConsumerNeed> consumer_needs;

    const CudnnSubLibraryUse* use_of(const std::string& soname) const;
    // What `framework` at `version` is known to open for a convolution; nullptr when not known
    // (another framework, an older release, a program): judge by `uses` then.
    const CudnnConsumerNeed* need_of(const std::string& framework, const Version& version) const;
};

// The majors of the cudnn table `db` was loaded from that model their sub-libraries; empty when
// that table's text cannot be read again (a Database built from files in memory). Read on the
// first call and kept in `db`.
const std::vector<CudnnSubLibraries>& cudnn_sub_libraries(const Database& db);

}  // namespace cuvet::rules
