#pragma once
// The loader's answer for one name as the checks read it: validate (DT_NEEDED and
// dlopen names of every object) and the framework models (what an import dlopens)
// turn loader::Resolution into stack::Resolution the same way.
#include "cuvet/loader/loader.hpp"
#include "cuvet/stack/stack.hpp"

namespace cuvet::stack {

// Every candidate tried becomes a trace line ("/usr/lib/libx.so.1 (rpath of /app/bin: found)");
// a name found only through the cache an NVIDIA start writes keeps why in start_note.
Resolution from_loader(const loader::Resolution& r, bool from_dlopen);

}  // namespace cuvet::stack
