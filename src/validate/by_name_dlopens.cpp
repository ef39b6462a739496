#include "by_name_dlopens.hpp"

#include <algorithm>

#include "cuvet/rules/by_name_loads.hpp"

namespace cuvet::validate {

// The name comes from the loader's own .rodata (libnvrtc.so.13 holds
// "libnvrtc-builtins.so.13.0"), never from a version we compute: the library's
// string is what it opens. It is searched as ld.so would for a dlopen() from that
// library (its RUNPATH, LD_LIBRARY_PATH, the cache), after its DT_NEEDED. A loader
// nothing else resolves is resolved on its own, for its problems as info.
void add_by_name_dlopens(const inventory::Analysis& analysis, const rules::Database& db,
                         std::vector<std::string>& roots, std::vector<const std::string*>& labels,
                         loader::ExtraNeededByFile& extra,
                         std::map<std::string, std::set<std::string>>& dlopened) {
    const auto& loads = rules::by_name_loads(db);
    if (loads.empty()) return;
    const std::set<std::string> resolved(roots.begin(), roots.end());
    for (const auto& [path, elf] : analysis.elfs) {
        if (path.find("/stubs/") != std::string::npos) continue;
        bool added = false;
        for (const auto& load : loads) {
            // A load nobody reports (NCCL's optional network plugin) is not searched: its
            // absence is the normal case.
            if (load.severity == "none" || !load.loads(elf.soname)) continue;
            for (const auto& name : elf.dlopen_candidates) {
                if (!load.opens(name) ||
                    std::find(elf.needed.begin(), elf.needed.end(), name) != elf.needed.end())
                    continue;
                // The opener looks in its own directory first (libnvrtc finds itself with
                // dl_iterate_phdr; the pip wheel works with no LD_LIBRARY_PATH): a file there is
                // opened by path, else the name is searched as ld.so would.
                const auto beside = path.substr(0, path.rfind('/') + 1) + name;
                const auto& open = analysis.tree.entries().count(beside) ? beside : name;
                if (!dlopened[path].insert(open).second) continue;
                extra[path].after.push_back(open);
                added = true;
            }
        }
        if (added && !resolved.count(path)) roots.push_back(path), labels.push_back(nullptr);
    }
}

}  // namespace cuvet::validate
