#pragma once
// Links that a dedicated check judges, so the generic ones (CUV001 unresolved soname) leave them
// alone: one cause, one finding. cuDNN 9's sub-libraries belong to CUV019/CUV005 (judged per
// consumer), a library a CUDA library opens by a name in its own strings to CUV022.
#include <vector>

#include "checks.hpp"
#include "cuvet/rules/by_name_loads.hpp"
#include "cuvet/rules/cudnn_sub_libraries.hpp"

namespace cuvet::checks {

class LinksJudgedElsewhere {
public:
    explicit LinksJudgedElsewhere(const rules::Database& db);

    // Does another check own the link from `from` to `link`?
    bool owns(const ElfObject& from, const Resolution& link) const;

private:
    const std::vector<rules::CudnnSubLibraries>& sub_libraries_;  // kept in the Database
    const std::vector<rules::ByNameLoad>& by_name_loads_;
};

}  // namespace cuvet::checks
