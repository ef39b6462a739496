#pragma once
// What the Dockerfile tests ask of a stage's facts.
#include <string>

#include "cuvet/dockerfile/facts.hpp"

namespace cuvet::test {

// The package named `name` that the stage installs, or null.
inline const dockerfile::Package* find(const dockerfile::StageFacts& stage,
                                       const std::string& name) {
    for (const auto& p : stage.packages)
        if (p.name == name) return &p;
    return nullptr;
}

}  // namespace cuvet::test
