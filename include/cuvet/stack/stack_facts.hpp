#pragma once
// Facts derived from a Stack that the checks judge with and other commands record too
// (`cuvet freeze`, `cuvet diff`, `cuvet inventory --format cyclonedx`): computed here once,
// below all of them, so a lock file and a finding never disagree.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/rules/database.hpp"
#include "cuvet/stack/stack.hpp"

namespace cuvet::stack {

// The CUDA runtime the image runs, best known first: the libcudart a framework really
// loads, the framework's build metadata, the toolkit the image holds, then any libcudart
// soname or package naming a CUDA major (CUV007, CUV009, the summary line).
struct RuntimeCudaFact {
    rules::Version version;  // "12.1.105", or only the major ("12") when that is all that is known
    bool major_only = false;
    std::string source;  // "the libcudart torch loads, /usr/…/libcudart.so.12.1.105"
    std::vector<std::string> provenance;
};
std::optional<RuntimeCudaFact> runtime_cuda_of(const Stack& stack);

// The lowest driver that runs `cuda`, and the rules rows that say so: the release notes'
// row when the version is full, minor version compatibility's row for its major.
struct DriverNeed {
    rules::Version lowest;
    std::optional<rules::DriverRequirement> full;
    const rules::MinorVersionCompat* minor = nullptr;
};
std::optional<DriverNeed> driver_need(const rules::Database& db, const RuntimeCudaFact& cuda);

// The lowest driver that runs the image's CUDA (CUV009): minor-version compatibility's
// floor where it applies, and the release-notes floor for full compatibility.
struct DriverFloor {
    rules::Version lowest;
    std::optional<rules::Version> full;
    std::vector<std::string> provenance;  // cited rules rows
};
std::optional<DriverFloor> driver_floor(const Stack& stack, const rules::Database& db);

// The rules row of a framework install (its variant, else the default build).
const rules::FrameworkBuild* build_row(const rules::Database& db, const FrameworkInstall& fw);
// The cuDNN a framework was built with, as CUV004 judges it: the install's own pin,
// or the rules row where that is finer; nullopt when unknown.
struct BuiltCudnnFact {
    rules::Version version;
    std::string from;  // where that is known from
};
std::optional<BuiltCudnnFact> built_cudnn_of(const rules::Database& db, const FrameworkInstall& fw);
// CUV004's verdict: a framework built with cuDNN `built` refuses to load `loaded`
// under its rules load rule ("same_major_minor_at_least", "same_major").
bool cudnn_refused(const rules::Version& loaded, const rules::Version& built,
                   const std::string& rule);

// The ELF objects of a framework install that the scan resolved.
std::vector<const ElfObject*> framework_objects(const Stack& stack, const FrameworkInstall& fw);
// The files ld.so maps for `roots`, breadth first, roots excluded unless
// reached again: their DT_NEEDED closure, and the dlopen()ed names' when
// `follow_dlopen` (a dlopen()ed library is loaded, but RTLD_LOCAL keeps its
// symbols from binding the others').
std::vector<std::string> load_closure(const Stack& stack,
                                      const std::vector<const ElfObject*>& roots,
                                      bool follow_dlopen);

// The --nodes pools that run `driver`, or whose GPU is the target `gpu`:
// "gpu-a100 (3 nodes: a, b, c)"; "" when no pool does (targets from --driver/--gpu only).
std::string pools_with_driver(const Targets& targets, const rules::Version& driver);
std::string pools_with_gpu(const Targets& targets, std::string_view gpu);

}  // namespace cuvet::stack
