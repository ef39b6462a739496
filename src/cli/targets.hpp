#pragma once
// The targets an image is judged against, as `validate` and `fleet scan` take them: --driver
// and --gpu (else .cuvet.yaml's), and the pools of a --nodes file.
#include <string>
#include <vector>

#include "cuvet/config/config.hpp"
#include "cuvet/rules/database.hpp"
#include "cuvet/stack/stack.hpp"

namespace cuvet::cli {

// A pool whose GPU the rules database does not know keeps its driver; its GPU is not judged
// (a warning on stderr says so).
stack::Targets make_targets(const std::vector<std::string>& drivers,
                            const std::vector<std::string>& gpus, const std::string& nodes_file,
                            const config::Config& config, const rules::Database& db);

}  // namespace cuvet::cli
