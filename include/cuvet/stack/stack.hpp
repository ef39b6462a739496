#pragma once
// Stack: everything `cuvet validate` knows about one image, as the checks see it.
// validate::build_stack fills it from inventory::analyze and the loader
// emulation (cuvet/validate/stack_builder.hpp); the checks only read it. ELF
// facts are borrowed from the Analysis (a large library's symbol tables are
// never copied): keep the Analysis alive as long as the Stack.
//
//   check                              reads
//   CUV001 unresolved-soname           objects[].resolutions (path empty), trace
//   CUV002 shadowed-library            objects[].resolutions (rule),
//   frameworks[].bundled_library_dirs CUV003 duplicate-versions          libraries (family,
//   version), objects[].resolutions CUV004 cudnn-older-than-build      frameworks[].built_cudnn,
//   libraries (cudnn) + resolutions CUV005 cudnn-mixed-sublibraries    libraries (cudnn families,
//   versions, dirs) CUV006 cudnn-cuda-major            libraries (cudnn: cuda_major, cudart
//   resolution) CUV007 cuda-runtime-major          frameworks[].built_cuda, objects[].resolutions
//   (cudart) CUV008 missing-symbols             objects[].elf (imported symbols, version_needs),
//   the load
//                                      closure's exported_symbols / version_definitions
//   CUV009 driver-too-old              cuda_version, targets.drivers, compat_libraries
//   CUV010 no-kernel-for-gpu           elfs (sass_archs / ptx_archs), targets.gpus
//   CUV011 wrong-machine               elfs (machine), platform
//   CUV012 glibc-too-new               elfs (version_needs GLIBC_x.y), glibc_version
//   CUV013 driver-libs-baked           driver_libraries (files in the image)
//   CUV014 env-contradicts             env, cuda_version, libraries (cudnn)
//   CUV015 framework-gpu-libraries     frameworks[].loads, gpu_package, libraries (cudart)
//   CUV016 framework-gpu-compiler      frameworks[].tools
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/elf/elf_info.hpp"
#include "cuvet/image/image.hpp"
#include "cuvet/loader/loader.hpp"
#include "cuvet/rules/version.hpp"

namespace cuvet::lock {
struct Lock;  // cuvet/lock/lock.hpp
}
namespace cuvet::frameworks {
struct Framework;  // cuvet/frameworks/framework.hpp: read only through the pointer, no include
}

namespace cuvet::stack {

// How ld.so would find one DT_NEEDED (or dlopen) name of one object.
struct Resolution {
    std::string name;                        // "libcudnn.so.8" as requested
    std::string path;                        // image path of the file it maps; "" when not found
    std::string file;                        // the data file after links (key into Stack::elfs)
    loader::Rule rule = loader::Rule::none;  // which step of ld.so's search found it
    std::string source;                      // whose RPATH/RUNPATH, the cache file, …
    // Set where the framework loads it itself, by path (a preload, cuda-pathfinder), rather than
    // ld.so's search finding it: whose lookup it was, in words ("import torch (run first)").
    std::string loaded_by;
    bool provided_by_host = false;      // libcuda.so.1 etc.: injected by the container runtime
    bool from_dlopen = false;           // a dlopen() string, not a DT_NEEDED
    bool error = false;                 // found a file ld.so refuses (not ELF)
    std::string hang;                   // error: why the program hangs there instead (a FIFO)
    std::string denied;                 // not found: the USER could not open a copy (why)
    std::vector<std::string> trace;     // every candidate tried, in order, with its outcome
    std::vector<std::string> shadowed;  // other files the same search reaches later (data paths)
    // Found only through the cache ldconfig writes at an NVIDIA start: why the image's own
    // /etc/ld.so.cache would not find it ("" when the image's cache finds it too).
    std::string start_note;

    // How it was found, as reports word it: loaded_by, else the loader's rule ("rpath", …).
    std::string how_found() const {
        return loaded_by.empty() ? std::string(loader::to_string(rule)) : loaded_by;
    }
};

// One ELF file of the image that loads libraries (a program or a library).
struct ElfObject {
    std::string path;  // "/usr/local/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so"
    std::string file;  // data path after links
    const elf::ElfInfo* elf = nullptr;  // borrowed from the Analysis; never null in a built Stack
    bool consumer =
        false;  // a root: a framework library or a CUDA-stack consumer, not only a dependency
    std::vector<Resolution> resolutions;  // one per needed / dlopen name, in load order
    // The API whose first use imports this module (CuPy's cupy.cuda.cufft: "cupy.fft"), set by
    // the stack builder from the framework catalog's lazy_modules; "": its root loads it.
    std::string imported_on_first_use_of;
};

// A versioned CUDA-stack library present in the image (every copy, also unused ones).
struct LibraryCopy {
    std::string path;
    std::string family;  // "cudnn", "cudnn_cnn_infer", "cudart", "cublas", "nccl", …
    std::string soname;
    std::optional<rules::Version> version;  // from the file name, header or package metadata
    std::optional<int> cuda_major;          // the CUDA major it was built for (cuDNN: from package)
    std::string owner;  // "pip nvidia-cudnn-cu12 9.1.0.70", "dpkg libcudnn8 …", ""
    std::vector<std::string> provenance;  // how version and owner were learned
    std::string dir() const { return path.substr(0, path.rfind('/')); }
};
// "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.6.0 (cudnn 8.6.0, dpkg libcudnn8 8.6.0.163-1+cuda11.8)"
std::string describe(const LibraryCopy& copy);

// One library a framework opens itself at start-up (not a DT_NEEDED), found the way the
// framework finds it: JAX's plugin dlopens cuDNN, cuBLAS… from the nvidia wheel dirs, then ld.so.
struct FrameworkLoad {
    std::string component;             // as the framework names it in its errors: "cuSPARSE"
    Resolution resolution;             // path empty: not found
    std::vector<std::string> missing;  // DT_NEEDED under the found file that do not resolve
};

// A tool or data dir a framework needs to compile for the GPU: XLA's ptxas and libdevice.
struct FrameworkTool {
    std::string name;                   // "ptxas", "libdevice", "CUDA headers"
    std::string path;                   // the first candidate the image has; "" when none
    std::vector<std::string> searched;  // every candidate, in the framework's order
    std::string release;                // a compiler's CUDA release, from its banner: "12.8.93"
};

// A framework installed in the image and what it was built with.
struct FrameworkInstall {
    std::string name;  // the catalog's name (rules/frameworks.json): "pytorch", "paddlepaddle"
    // Its load model and own judging (src/frameworks), set once by the stack builder; nullptr
    // for a framework the catalog alone describes (PaddlePaddle, MXNet).
    const frameworks::Framework* model = nullptr;
    rules::Version version;  // without local tag: 2.1.0
    std::string variant;     // "cu121" from the local tag, "" when none
    // What joins the variant to the version in the wheel's own spelling (the catalog's
    // local_versions): "+" for 2.1.0+cu121, "." for paddlepaddle-gpu's 2.6.1.post120.
    std::string variant_separator = "+";
    std::string root;                               // ".../site-packages/torch"
    std::optional<rules::Version> built_cuda;       // torch/version.py, TF build_info.py
    std::optional<rules::Version> built_cudnn;      // TF build_info (major only), torch's pin
    std::vector<std::string> libraries;             // its ELF objects (paths into objects)
    std::vector<std::string> bundled_library_dirs;  // where it expects CUDA libs (nvidia/*/lib)
    std::vector<std::string> provenance;
    // How its GPU side really starts (validate/framework_models.cpp): JAX, CuPy, ONNX Runtime.
    std::string gpu_package;             // "jax-cuda13-plugin 0.11.2"; "" without a GPU part
    std::vector<std::string> gpu_roots;  // its GPU code dirs: jax_cuda13_plugin, jax_plugins/xla_…
    std::vector<FrameworkLoad> loads;
    std::vector<FrameworkTool> tools;
    std::map<std::string, std::string> pins;  // GPU package's Requires-Dist: wheel -> specifier

    // The version as the wheel writes it: "2.1.0+cu121", "2.6.1.post120", "2.15.0".
    std::string version_text() const {
        return version.str() + (variant.empty() ? "" : variant_separator + variant);
    }
};

// Something the image runs, from which ld.so loads everything else: an
// ENTRYPOINT/CMD program, a framework's libraries, a Python extension module,
// an interpreter on PATH. Errors are reported only for files a root maps.
struct Root {
    std::string path;  // image path of the ELF file
    std::string
        label;  // "ENTRYPOINT /opt/app/bin/infer", "imported by torch", "/usr/bin/python3 on PATH"
};

// What execve does with the program the ENTRYPOINT (else the CMD) names, as the runtime
// starts it (src/validate/entry_start.cpp). An image that names no program is given one at
// `docker run`: nothing to judge then.
struct EntryStart {
    std::string source;   // "ENTRYPOINT" or "CMD"; empty when the image names no program
    std::string program;  // argv[0] as the config writes it
    std::string path;     // the image path it resolves to, or was looked for at
    std::string problem;  // why the runtime cannot start it; empty when it can
};

// Kubernetes nodes with identical GPU labels (--nodes): where a driver and a GPU target came from.
struct NodePool {
    std::string name;                      // the pool label's value, else the labels that define it
    std::vector<std::string> nodes;        // node names, sorted
    std::optional<rules::Version> driver;  // nvidia.com/cuda.driver.major.minor.rev
    std::string gpu;      // "8.0" from nvidia.com/gpu.compute.major/minor; "" unknown
    std::string product;  // nvidia.com/gpu.product
};

// What the user validates against: --driver, --gpu, --nodes, --against and .cuvet.yaml.
struct Targets {
    std::vector<rules::Version> drivers;    // "535.104.05"
    std::vector<std::string> gpus;          // as given: "H100", "sm_90", "8.6"
    std::vector<std::string> trusted_dirs;  // .cuvet.yaml: copies here are meant to win
    std::vector<NodePool> pools;  // --nodes: CUV009/CUV010 name the pools a target stands for
    // --against: the lock the image must still match (CUV018); null: none. Borrowed.
    const lock::Lock* against = nullptr;
    bool against_exact =
        false;  // --against-mode exact: every change; compatible: what breaks or may break
};

struct Stack {
    std::string image;         // what the user named
    image::Platform platform;  // from the image config
    bool nvidia_start = true;  // --runtime-start nvidia (the toolkit injects the driver) or none
    std::map<std::string, std::string> env;  // image config Env, then what the entry script exports
    // Where a variable was set when not by the image's Env ("/docker-entrypoint.sh:4").
    std::map<std::string, std::string> env_origin;
    std::optional<rules::Version> glibc_version;  // the image's libc.so.6
    std::optional<rules::Version> cuda_version;   // the CUDA toolkit/runtime the image holds
    std::vector<std::string> cuda_version_provenance;
    std::vector<ElfObject> objects;  // consumers first, then their dependencies; one per data file
    // Every ELF file the scan read, by data path (borrowed from the Analysis).
    const std::map<std::string, elf::ElfInfo, std::less<>>* elfs = nullptr;
    std::vector<LibraryCopy> libraries;
    std::vector<FrameworkInstall> frameworks;
    std::vector<LibraryCopy> compat_libraries;  // cuda-compat: /usr/local/cuda/compat/libcuda.so.*
    std::vector<LibraryCopy> driver_libraries;  // libcuda.so.1, libnvidia-*.so baked into the image
    Targets targets;
    std::vector<Root> roots;
    EntryStart entry_start;
    // Data path → the label of the first root whose load closure (DT_NEEDED
    // and known dlopen names, as ld.so resolves them from that root) maps it.
    std::map<std::string, std::string, std::less<>> loaded_by;
    // What a partial rootfs scan (--allow-partial) could not read.
    std::vector<std::string> unreadable_paths;

    const LibraryCopy* library(std::string_view file) const;  // by data path
    const elf::ElfInfo* elf(std::string_view file) const;
    // The root that loads `file` (a data path); nullptr when nothing the image runs maps it.
    const std::string* root_of(std::string_view file) const;
};

}  // namespace cuvet::stack
