#pragma once
// Libraries a CUDA library opens by a name in its own strings (rules/sonames.json
// by_name_loads: nvrtc's builtins, TensorRT's builder resource), added to the loader's
// resolution as that library's dlopen names.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cuvet/inventory/analysis.hpp"
#include "cuvet/loader/loader.hpp"
#include "cuvet/rules/database.hpp"

namespace cuvet::validate {

void add_by_name_dlopens(const inventory::Analysis& analysis, const rules::Database& db,
                         std::vector<std::string>& roots, std::vector<const std::string*>& labels,
                         loader::ExtraNeededByFile& extra,
                         std::map<std::string, std::set<std::string>>& dlopened);

}  // namespace cuvet::validate
