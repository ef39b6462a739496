#include "dynlib.hpp"

#include <dlfcn.h>
#include <link.h>

#include <climits>
#include <cstdlib>

#include "glibc_floor.hpp"  // first: binds dlopen & co. to their oldest versions

namespace cuvet::probe {
namespace {

std::string mapped_path(void* handle) {
    link_map* map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr || map->l_name == nullptr)
        return {};
    // l_name is the path the loader opened, possibly with symlinks; the real
    // file names the exact version (libcudnn.so.9 -> libcudnn.so.9.19.0).
    char resolved[PATH_MAX];
    if (realpath(map->l_name, resolved) != nullptr) return resolved;
    return map->l_name;
}

std::string last_dlerror() {
    const char* text = dlerror();
    return text != nullptr ? text : "unknown dlopen failure";
}

}  // namespace

void* DynLib::symbol(const char* name) {
    if (handle == nullptr) return nullptr;
    dlerror();
    void* address = dlsym(handle, name);
    if (address == nullptr) missing.emplace_back(name);
    return address;
}

DynLib open_library(const std::string& role, const std::vector<std::string>& candidates,
                    bool global) {
    DynLib lib;
    lib.role = role;
    const int mode = RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL);
    for (const std::string& candidate : candidates) {
        lib.requested = candidate;
        void* handle = nullptr;
        if (candidate.find('/') == std::string::npos)
            handle = dlopen(candidate.c_str(), mode | RTLD_NOLOAD);
        if (handle == nullptr) handle = dlopen(candidate.c_str(), mode);
        if (handle != nullptr) {
            lib.handle = handle;
            lib.path = mapped_path(handle);
            lib.error.clear();
            return lib;
        }
        if (!lib.error.empty()) lib.error += "; ";
        lib.error += last_dlerror();
    }
    return lib;
}

std::vector<std::string> loaded_gpu_objects() {
    std::vector<std::string> names;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) {
            auto* out = static_cast<std::vector<std::string>*>(data);
            const std::string name = info->dlpi_name != nullptr ? info->dlpi_name : "";
            for (const char* marker :
                 {"libcuda", "libcudnn", "libcublas", "libnvrtc", "libnvidia", "libnvJitLink"}) {
                if (name.find(marker) != std::string::npos) {
                    out->push_back(name);
                    break;
                }
            }
            return 0;
        },
        &names);
    return names;
}

}  // namespace cuvet::probe
