#pragma once
// Ties an image's config history ("created_by" of each layer) back to the
// Dockerfile instruction that produced it, so that `validate --dockerfile`
// can point a finding about a file at the line that put it there.
#include <optional>
#include <string>
#include <vector>

#include "cuvet/dockerfile/parser.hpp"
#include "cuvet/dockerfile/stages.hpp"

namespace cuvet::dockerfile {

// "RUN /bin/sh -c apt-get update # buildkit", "|2 A=1 B=2 /bin/sh -c …",
// "/bin/sh -c #(nop)  ENV X=1" → {"RUN", "apt-get update"}, {"ENV", "X=1"}.
struct HistoryStep {
    std::string keyword;  // upper case; empty when unrecognised
    std::string text;     // the rest, white space collapsed
};
HistoryStep normalise_history(const std::string& created_by);

// For each history entry, the index (into dockerfile.instructions) of the
// final-stage instruction that created it, or nullopt (base image layers,
// entries that cannot be matched). Matching runs from the newest entry
// backwards, since the final stage's instructions are the image's last steps.
std::vector<std::optional<std::size_t>> match_history(const Dockerfile& dockerfile,
                                                      const Build& build,
                                                      const std::vector<std::string>& created_by);

}  // namespace cuvet::dockerfile
