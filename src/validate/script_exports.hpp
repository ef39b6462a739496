#pragma once
// What an entrypoint script changes in the environment before it execs the
// workload: `export LD_LIBRARY_PATH=/opt/x/lib:$LD_LIBRARY_PATH` decides which
// cuDNN loads as surely as the image's ENV does.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::validate {

struct ScriptAssignment {
    std::string name, value;
    int line = 0;  // 1-based, in the script
};

// The assignments that surely run: `export NAME=value` and `NAME=value` of a
// variable already in the environment, at the script's top level (not inside
// if/case/loops/functions), before its first top-level `exec`. Values are
// expanded with `env` as the script goes, which ends up holding the result;
// a value with a command substitution is unknown and skipped.
std::vector<ScriptAssignment> top_level_exports(std::string_view script,
                                                std::map<std::string, std::string>& env);

}  // namespace cuvet::validate
