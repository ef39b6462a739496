#include "links_judged_elsewhere.hpp"

namespace cuvet::checks {

LinksJudgedElsewhere::LinksJudgedElsewhere(const rules::Database& db)
    : sub_libraries_(rules::cudnn_sub_libraries(db)), by_name_loads_(rules::by_name_loads(db)) {}

bool LinksJudgedElsewhere::owns(const ElfObject& from, const Resolution& link) const {
    // A sub-library needing another (libcudnn_cnn links libcudnn_ops) is the same case as the
    // shim's dlopen(): loaded only when the shim opens it.
    for (const auto& set : sub_libraries_) {
        const bool from_set =
            set.main == from.elf->soname || set.use_of(from.elf->soname) != nullptr;
        if (from_set && set.use_of(link.name) != nullptr) return true;
    }
    if (link.from_dlopen)
        for (const auto& load : by_name_loads_)
            if (load.loads(from.elf->soname) && load.opens(link.name)) return true;
    return false;
}

}  // namespace cuvet::checks
