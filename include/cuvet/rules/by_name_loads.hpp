#pragma once
// Libraries a CUDA library dlopen()s by a name in its own strings (rules/sonames.json
// by_name_loads): nvrtc's builtins, TensorRT's builder resource, NCCL's network plugin.
#include <string>
#include <vector>

#include "cuvet/rules/database.hpp"

namespace cuvet::rules {

struct ByNameLoad {
    std::string loader_prefix;    // "libnvrtc.so.": the soname of the library that opens it
    std::string target_prefix;    // "libnvrtc-builtins.so.": the names it opens start so
    bool name_is_soname = false;  // the file found must carry the opened name as its SONAME
    std::string severity;         // "error", "warning" or "none" (not reported)
    std::string missing;          // the loader's words when it cannot open it; {name}: the name
    std::string mismatch;         // its words for a file of another release under that name
    std::string breaks;           // the API that fails
    // Frameworks whose first operation needs it (CuPy compiles every kernel with NVRTC); when
    // non-empty, other frameworks only lose `breaks`. Empty: every loader of the opener.
    std::vector<std::string> first_use_by;
    Provenance provenance;

    bool loads(const std::string& soname) const { return soname.starts_with(loader_prefix); }
    bool opens(const std::string& name) const { return name.starts_with(target_prefix); }
};

// `words` with every {name} replaced by `name`.
std::string with_name(const std::string& words, const std::string& name);

// The by-name loads of the sonames table `db` was loaded from; empty when that table's text
// cannot be read again (a Database built from files in memory). Read on the first call and
// kept in `db`.
const std::vector<ByNameLoad>& by_name_loads(const Database& db);

}  // namespace cuvet::rules
