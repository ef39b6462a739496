#pragma once
// One GPU framework's knowledge in one place (docs/architecture.md, "Adding a
// framework"): its names, how the inventory's component becomes the framework
// the checks judge, how its GPU side really starts (the package that carries
// it, what loading it preloads and dlopens, the compiler tools it looks for),
// its live smoke test and the words it fails with. Each framework is one file
// src/frameworks/<name>.cpp, registered by one line of src/frameworks/frameworks.inc;
// validate, the sandbox and the CLI read them through this header.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::inventory {
struct Analysis;
struct Component;
struct Inventory;
}  // namespace cuvet::inventory
namespace cuvet::loader {
class Loader;
}
namespace cuvet::report {
struct Finding;
}
namespace cuvet::rules {
class Database;
}
namespace cuvet::stack {
struct FrameworkInstall;
struct Stack;
}  // namespace cuvet::stack

namespace cuvet::frameworks {

// How a framework imports one of its extension modules, where that differs
// from a plain ld.so load of the module: libraries it dlopen()s by path first
// (so a DT_NEEDED without RPATH still resolves, by SONAME, to that copy), and
// DT_NEEDED names whose failure only disables an optional feature.
struct ImportModel {
    std::vector<std::string> preloads;  // image paths, dlopen()ed before the module
    std::set<std::string> optional;     // DT_NEEDED names the framework may do without
    std::string preload_rule;           // how a resolution names the preload
};

using ImportModels = std::map<std::string, ImportModel>;  // by image path of the module
using Environment = std::map<std::string, std::string>;

// What the framework's smoke test printed, as the fix advice reads it.
struct SmokeWords {
    std::string_view all;      // its exception and its known stderr lines
    std::string_view verdict;  // ok, cpu_fallback, cpu_only_build, wrong_result, error
};

struct Framework {
    std::string_view name = {};     // as rules/frameworks.json and the checks name it: "pytorch"
    std::string_view display = {};  // as people write it: "PyTorch"
    std::string_view component =
        {};  // the inventory component that is the install: "torch", "jaxlib"

    // `import <module>` loads these packages (its plugins and backends) besides its own.
    std::string_view module = {};  // "jax"
    std::vector<std::string_view> imports =
        {};  // {"jax", "jaxlib", "jax_plugins"}; {} for just module

    // The live smoke test: the package it imports (also its script's name in
    // src/frameworks/smoke/, and the name --probe-frameworks takes), "" when none.
    std::string_view smoke = {};
    std::vector<std::string_view> aliases = {};        // other names --probe-frameworks accepts
    std::vector<std::string_view> error_markers = {};  // stderr texts it fails with, in its words
    std::string_view cpu_fallback = {};                // what its silent CPU fallback looks like

    // Fix advice from its own words: `fix_first` before the advice for a
    // missing library, `fix_last` after it; "" when it has none to give.
    std::string (*fix_first)(const SmokeWords&) = nullptr;
    std::string (*fix_last)(const SmokeWords&) = nullptr;

    // The package facts of its GPU side, from the inventory (JAX's plugin, CuPy's cuda build).
    void (*attach_gpu_package)(const inventory::Inventory&, const inventory::Component&,
                               stack::FrameworkInstall&) = nullptr;
    // How importing it loads extension modules, where that is not plain ld.so.
    void (*add_import_models)(const inventory::Analysis&, const stack::FrameworkInstall&,
                              ImportModels&) = nullptr;
    // What it opens itself (FrameworkInstall::loads) and the tools it needs (::tools).
    void (*model_loads)(const inventory::Analysis&, const loader::Loader&, const Environment&,
                        stack::FrameworkInstall&) = nullptr;

    // Its own judging, where its failure reads unlike any other framework's: what CUV015 says
    // when the GPU libraries it opens itself do not load, and CUV016 when the compiler or the
    // tools it needs for the GPU are missing (src/frameworks/<name>_findings.cpp). The check
    // stamps its id, severity and title on each finding that has none.
    using Judge = std::vector<report::Finding> (*)(const stack::Stack&, const rules::Database&,
                                                   const stack::FrameworkInstall&);
    Judge gpu_library_findings = nullptr;
    Judge gpu_compiler_findings = nullptr;
    // What importing it raises, in its words, when `library` is a DT_NEEDED nothing resolves
    // (CUV001 quotes it); "" where its words for that failure are not known.
    std::string (*import_error)(const stack::Stack&, const stack::FrameworkInstall&,
                                const std::string& library) = nullptr;
};

// Every framework, in registry order (the order the live check probes them).
const std::vector<const Framework*>& all();

// By name ("pytorch"), smoke name ("torch") or alias ("ort"); nullptr when unknown.
const Framework* find(std::string_view name);

// The framework whose install an inventory component is ("jaxlib" → jax); nullptr for others.
const Framework* by_component(std::string_view component);

// The packages `import <module>` loads: the framework's `imports`, else just the module.
std::vector<std::string> imported_packages(std::string_view module);

// The frameworks with a live smoke test, by smoke name, in probe order.
const std::vector<std::string>& smoke_names();

// Those frameworks joined for help texts: "torch,jax,…" or, by display name, "PyTorch, JAX, …".
std::string smoke_list(std::string_view separator, bool display_names = false);

}  // namespace cuvet::frameworks
