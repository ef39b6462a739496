#pragma once
// dlopen() with everything the report needs: what was asked for, which file
// the dynamic loader really mapped, and dlerror()'s text on failure.
#include <string>
#include <vector>

namespace cuvet::probe {

struct DynLib {
    std::string role;       // "libcuda", "cudart", "cudnn", "preload"
    std::string requested;  // a path (contains '/') or a soname searched the loader's way
    std::string path;       // the file the loader mapped (empty when not loaded)
    std::string error;      // dlerror() text when loading failed
    void* handle = nullptr;

    bool loaded() const { return handle != nullptr; }
    // The symbol's address, or nullptr with `missing` set to its name.
    void* symbol(const char* name);
    std::vector<std::string> missing;
};

// Tries each candidate in order and returns the first that loads; on failure
// the error lists every candidate's dlerror() text. A soname that a preloaded
// library already pulled in is returned as that copy (RTLD_NOLOAD first), which
// is exactly the copy the framework would call.
DynLib open_library(const std::string& role, const std::vector<std::string>& candidates,
                    bool global);

// Every object in the process whose file name mentions CUDA, cuDNN, cuBLAS or
// NVRTC, in load order: shows which copies the loader picked.
std::vector<std::string> loaded_gpu_objects();

}  // namespace cuvet::probe
