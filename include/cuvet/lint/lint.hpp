#pragma once
// `cuvet lint` as a library call: parse → stages → facts → CUVLxx checks →
// inline ignores. The CLI adds files, config and rendering; the benchmark
// and the fuzzer call this directly.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/dockerfile/parser.hpp"
#include "cuvet/report/finding.hpp"

namespace cuvet::rules {
class Database;
}

namespace cuvet::lint {

struct Options {
    std::vector<std::string> drivers;               // fleet drivers (--driver, .cuvet.yaml)
    std::map<std::string, std::string> build_args;  // --build-arg
    std::string target;                             // --target
};

struct Result {
    std::vector<report::Finding> findings;
    std::vector<std::string> warnings;  // parser warnings (empty continuation lines)
};

// Throws cuvet::Error (input) with "NAME:LINE: problem" for a Dockerfile
// docker would reject.
Result lint_text(std::string_view text, const std::string& name, const rules::Database& db,
                 const Options& options = {});

// `# cuvet ignore=ID[,ID]` in the comments right above an instruction drops
// those findings on that instruction's lines; `# cuvet global ignore=ID[,ID]`
// anywhere drops them in the whole file.
void apply_inline_ignores(const dockerfile::Dockerfile& dockerfile,
                          std::vector<report::Finding>& findings);

}  // namespace cuvet::lint
