#pragma once
// An extension wheel built against one framework release, installed beside another: flash-attn's
// wheels name the torch they were compiled for in their local version
// (2.7.4.post1+cu12torch2.6cxx11abiFALSE), and their C++ extension loads only with that
// release (its symbols change from one minor to the next).
#include <vector>

#include "cuvet/dockerfile/facts.hpp"
#include "cuvet/report/finding.hpp"
#include "cuvet/rules/database.hpp"

namespace cuvet::checks::lint {

// CUVL01 findings for every such wheel whose framework release differs from the one the stage
// installs (a pinned install) or its base image ships (a framework image's release).
std::vector<report::Finding> extension_framework_mismatches(const dockerfile::Facts& facts,
                                                            const rules::Database& db);

}  // namespace cuvet::checks::lint
