#pragma once
// Helpers the validate checks share (private to src/checks): how copies,
// resolutions and rules facts are named in messages and evidence.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/frameworks/finding_support.hpp"
#include "cuvet/report/finding.hpp"
#include "cuvet/rules/database.hpp"
#include "stack_model.hpp"

namespace cuvet::checks::util {

inline bool starts_with(std::string_view s, std::string_view head) {
    return s.substr(0, head.size()) == head;
}
inline bool under(std::string_view path, std::string_view dir) {
    return path.size() > dir.size() && starts_with(path, dir) && path[dir.size()] == '/';
}
inline std::string base_name(std::string_view path) {
    auto slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}
inline std::string dir_name(std::string_view path) {
    auto slash = path.rfind('/');
    return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

// The Stack facts the checks share with freeze and the SBOM (cuvet/stack/stack_facts.hpp).
using rules::cite;
using stack::build_row;
using stack::describe;
using stack::load_closure;
using RuntimeCuda = stack::RuntimeCudaFact;
// Shared with the frameworks' own judging (cuvet/frameworks/finding_support.hpp).
using frameworks::add_trace;
using frameworks::first_unresolved;
using frameworks::framework_says;
using frameworks::framework_tool;
using frameworks::FrameworkWords;
using frameworks::pip_package;
inline std::optional<RuntimeCuda> runtime_cuda(const Stack& stack) {
    return stack::runtime_cuda_of(stack);
}
inline std::vector<const ElfObject*> objects_of(const Stack& stack, const FrameworkInstall& fw) {
    return stack::framework_objects(stack, fw);
}

std::string version_text(const std::optional<rules::Version>& version);

// "libcudnn.so.8" → true for the main cuDNN library of any major.
bool is_main_cudnn(std::string_view name);
bool is_cudart(std::string_view name);
// A problem of one file that nothing the image runs loads.
struct UnloadedProblem {
    std::string file;
    std::string detail;  // short: "libpsm2.so.2", "GLIBC_2.38", "SASS sm_80"
};
// Problems in files nothing loads are info, one finding per directory tree
// (a directory and the ones below it): "147 files under /usr/lib32 are built
// for Intel 80386 (…); nothing in the image loads them". `singular` and
// `plural` are the predicates ("is built for …", "are built for …").
std::vector<report::Finding> unloaded_findings(std::string_view id,
                                               const std::vector<UnloadedProblem>& problems,
                                               std::string_view singular, std::string_view plural,
                                               std::string fix);

// The distinct roots that load any of `files` (data paths), in the order of
// the files: "imported by torch", "ENTRYPOINT /opt/app/infer"; empty when
// nothing the image runs maps one of them.
std::vector<std::string> roots_loading(const Stack& stack, const std::vector<std::string>& files);
// Every root that maps one of `files` (data paths), in a stable order: the first one that does
// (loaded_by), each consumer whose closure reaches it (dlopen()s followed: frameworks open cuDNN
// by name), and each framework that opens it itself. What roots_loading() misses: a shim torch
// and a C++ program both load breaks both.
std::vector<std::string> roots_reaching(const Stack& stack, const std::vector<std::string>& files);
// The finding names the first root (loaded_by) and the others in its evidence; with more than
// one, `in_message` names them all in the message too: the short text report shows loaded_by
// and the message only.
void name_roots(report::Finding& finding, const std::vector<std::string>& roots,
                bool in_message = false);

// The label of the root a framework's import is ("imported by torch"), and the framework
// a root label names (nullptr for ENTRYPOINT programs, interpreters, …).
std::string import_label(const FrameworkInstall& fw);
const FrameworkInstall* framework_labelled(const Stack& stack, std::string_view label);

// The framework through which `root` calls into `files` (cuDNN's libraries): the root's own, else
// the one framework whose libraries are all that load them in the root's closure (an extension
// module linking libtorch_cuda calls cuDNN through torch). nullptr when none or several.
const FrameworkInstall* framework_through(const Stack& stack, std::string_view root,
                                          const std::vector<std::string>& files);

// The framework is the root these findings break ("imported by jaxlib"),
// whichever root first maps the library a finding names.
struct ImportedBy {
    std::vector<report::Finding>& out;
    const FrameworkInstall& fw;
    std::size_t first = out.size();
    ~ImportedBy() {
        for (auto i = first; i < out.size(); ++i) out[i].loaded_by = import_label(fw);
    }
};

}  // namespace cuvet::checks::util
