// Which files ld.so maps for a set of roots, and which objects belong to a framework.
#include <map>
#include <set>

#include "cuvet/stack/stack_facts.hpp"
#include "image_paths.hpp"

namespace cuvet::stack {

std::vector<const ElfObject*> framework_objects(const Stack& stack, const FrameworkInstall& fw) {
    std::vector<const ElfObject*> out;
    for (const auto& o : stack.objects)
        if (is_under(o.file, fw.root) || is_under(o.path, fw.root)) out.push_back(&o);
    return out;
}

std::vector<std::string> load_closure(const Stack& stack,
                                      const std::vector<const ElfObject*>& roots,
                                      bool follow_dlopen) {
    std::map<std::string_view, const ElfObject*> by_file;
    for (const auto& o : stack.objects) by_file.emplace(o.file, &o);
    std::vector<std::string> order;
    std::set<std::string_view> seen;
    std::vector<const ElfObject*> queue = roots;
    for (std::size_t i = 0; i < queue.size(); ++i) {
        for (const auto& r : queue[i]->resolutions) {
            if ((r.from_dlopen && !follow_dlopen) || r.file.empty() || !seen.insert(r.file).second)
                continue;
            order.push_back(r.file);
            if (auto it = by_file.find(r.file); it != by_file.end()) queue.push_back(it->second);
        }
    }
    return order;
}

}  // namespace cuvet::stack
