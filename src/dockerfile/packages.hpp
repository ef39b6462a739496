#pragma once
// Package installs in one simple command: pip, conda/mamba, apt/dnf/yum.
#include <string>
#include <vector>

#include "cuvet/dockerfile/facts.hpp"

namespace cuvet::dockerfile::detail {

struct CommandFacts {
    std::vector<Package> packages;
    std::vector<RequirementsFile> requirements;
    std::vector<Hold> holds;
    std::vector<std::string> conda_channels;
};

// Adds what `words` installs; `package_template` supplies line/stage.
void read_command(const std::vector<std::string>& words, const Package& package_template,
                  CommandFacts& out);

}  // namespace cuvet::dockerfile::detail
