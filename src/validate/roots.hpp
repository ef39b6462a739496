#pragma once
// What an image runs (docs/architecture.md, "The validate path"): the ENTRYPOINT/CMD programs
// (through `sh -c`, exec form, entrypoint scripts and `python -m`), every framework's libraries,
// the Python extension modules under site-/dist-packages and the interpreters on PATH. Everything
// else in the image is loaded, if ever, by one of these.
#include <map>
#include <string>
#include <vector>

#include "cuvet/image/image.hpp"
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/stack/stack.hpp"

namespace cuvet::validate {

// Paths the ENTRYPOINT/CMD name directly (absolute, or relative to WORKDIR),
// known before the scan: the scan reads them as ELF candidates even outside bin dirs.
std::vector<std::string> entry_program_paths(const image::ImageConfig& config);
// Their directories and WORKDIR: a script there usually runs its neighbours
// (`exec ./server`), which only the script names, so the scan reads those too.
std::vector<std::string> entry_program_dirs(const image::ImageConfig& config);

// What the entry script surely exports before it execs the workload
// (script_exports.hpp), with where: "/docker-entrypoint.sh:4".
struct EnvChange {
    std::string name, value, origin;
};
std::vector<EnvChange> entry_script_env(const inventory::Analysis& analysis);

// Every root, in the order their labels win: ENTRYPOINT/CMD first, then
// frameworks, extension modules, interpreters. Paths are image paths of ELF
// files the scan read; one root per data file.
std::vector<stack::Root> find_roots(const inventory::Analysis& analysis,
                                    const std::vector<stack::FrameworkInstall>& frameworks);

// Extension modules only their package's own loader picks among, by "dir/stem": mpi4py 4.1's
// MPI.mpich.cpython-312-….so and MPI.openmpi.cpython-312-….so (a stem with a dot is no name
// `import` can ask for; mpi4py opens the one whose MPI library exists). One that loads is enough.
std::map<std::string, std::vector<std::string>> alternative_modules(
    const std::vector<stack::Root>& roots);

}  // namespace cuvet::validate
