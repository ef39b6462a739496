#pragma once
// Facts the checks derive from a Stack that other commands record too
// (`cuvet freeze`, `cuvet inventory --format cyclonedx`): computed here once, by the
// code the checks judge with, so a lock file and a finding never disagree.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/checks/stack.hpp"
#include "cuvet/rules/database.hpp"

namespace cuvet::checks {

// The CUDA runtime the image runs (the libcudart a framework loads, its build
// metadata, the toolkit, …), as CUV007/CUV009 judge it.
struct RuntimeCudaFact {
    rules::Version version;  // only the major when major_only
    bool major_only = false;
    std::string source;
};
std::optional<RuntimeCudaFact> runtime_cuda_of(const Stack& stack);

// The lowest driver that runs that CUDA (CUV009): minor-version compatibility's
// floor where it applies, and the release-notes floor for full compatibility.
struct DriverFloor {
    rules::Version lowest;
    std::optional<rules::Version> full;
    std::vector<std::string> provenance;  // cited rules rows
};
std::optional<DriverFloor> driver_floor(const Stack& stack, const rules::Database& db);

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

// The --nodes pools that run `driver`, or whose GPU is the target `gpu`:
// "gpu-a100 (3 nodes: a, b, c)"; "" when no pool does (targets from --driver/--gpu only).
std::string pools_with_driver(const Targets& targets, const rules::Version& driver);
std::string pools_with_gpu(const Targets& targets, std::string_view gpu);

}  // namespace cuvet::checks
