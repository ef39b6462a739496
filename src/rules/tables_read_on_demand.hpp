#pragma once
// What Database reads again from its cudnn and sonames tables' text on the first ask (see
// table_text.hpp): parsed once, under a once_flag each, however many checks ask and from
// however many threads.
#include <mutex>
#include <vector>

#include "cuvet/rules/by_name_loads.hpp"
#include "cuvet/rules/cudnn_sub_libraries.hpp"

namespace cuvet::rules {

struct TablesReadOnDemand {
    std::once_flag cudnn_read;
    std::vector<CudnnSubLibraries> cudnn_sub_libraries;
    std::once_flag sonames_read;
    std::vector<ByNameLoad> by_name_loads;
};

}  // namespace cuvet::rules
