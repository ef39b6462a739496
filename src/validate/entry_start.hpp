#pragma once
// Whether the runtime can start what the image names: execve of the ENTRYPOINT's (else the
// CMD's) argv[0], found as runc finds it (a name with '/' from WORKDIR, else PATH as Go's
// exec.LookPath searches it), as the config's USER.
#include "cuvet/checks/stack.hpp"
#include "cuvet/inventory/analysis.hpp"

namespace cuvet::validate {

checks::EntryStart entry_start(const inventory::Analysis& analysis);

}  // namespace cuvet::validate
