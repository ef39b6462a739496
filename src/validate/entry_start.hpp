#pragma once
// Whether the runtime can start what the image names: execve of the ENTRYPOINT's (else the
// CMD's) argv[0], found as runc finds it (a name with '/' from WORKDIR, else PATH as Go's
// exec.LookPath searches it), as the config's USER.
#include "cuvet/inventory/analysis.hpp"
#include "cuvet/stack/stack.hpp"

namespace cuvet::validate {

stack::EntryStart entry_start(const inventory::Analysis& analysis);

// The PATH a process gets when the image's Env sets none (runc's default).
inline constexpr std::string_view default_path =
    "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// A program named relative to the WORKDIR ("/" when unset), as the runtime finds it.
std::string from_workdir(const std::string& word, const std::string& working_dir);

}  // namespace cuvet::validate
