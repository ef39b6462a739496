#include "targets.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cuvet/core/error.hpp"
#include "cuvet/core/text_input.hpp"
#include "cuvet/validate/nodes.hpp"

namespace cuvet::cli {

stack::Targets make_targets(const std::vector<std::string>& drivers,
                            const std::vector<std::string>& gpus, const std::string& nodes_file,
                            const config::Config& config, const rules::Database& db) {
    stack::Targets targets;
    targets.drivers = config.drivers;
    if (!drivers.empty()) {
        targets.drivers.clear();
        for (const auto& d : drivers)
            targets.drivers.push_back(rules::Version::parse_or_throw(d, "--driver"));
    }
    targets.gpus = gpus.empty() ? config.gpus : gpus;
    targets.trusted_dirs = config.trusted_library_dirs;
    if (nodes_file.empty()) return targets;
    // A checkout's file like the Dockerfile: regular, capped, not a link out of the tree.
    auto pools = validate::read_node_pools(read_text_input(nodes_file), nodes_file);
    for (auto& pool : pools)
        if (!pool.gpu.empty() && db.gpu(pool.gpu) == nullptr) {
            std::cerr << "cuvet: warning: " << nodes_file << ": pool " << pool.name
                      << ": compute capability " << pool.gpu
                      << " is not in the rules database; its GPU is not judged\n";
            pool.gpu.clear();
        }
    validate::add_pool_targets(targets, std::move(pools));
    return targets;
}

}  // namespace cuvet::cli
