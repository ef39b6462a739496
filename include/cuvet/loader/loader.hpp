#pragma once
// glibc's dynamic loader, emulated inside an image: which file ld.so would map
// for every DT_NEEDED of a program and its dependencies, and why. Follows
// elf/dl-load.c (_dl_map_object) and elf/dl-deps.c (breadth-first loading):
//   1. a name with '/' is a path;
//   2. an object already loaded under that name or SONAME (or the same file) is reused;
//   3. DT_RPATH of the requesting object, then of the object that loaded it, up to the
//      program — only when the requesting object has no DT_RUNPATH (an object with
//      both ignores its RPATH);
//   4. LD_LIBRARY_PATH from the image Env;
//   5. DT_RUNPATH of the requesting object only;
//   6. /etc/ld.so.cache — by default the one ldconfig writes from the image's own
//      ld.so.conf when nvidia-container-toolkit starts the container, not the image's
//      (possibly stale) file; RuntimeStart::none reads the image's cache as it is;
//   7. the default dirs of the image's glibc.
// Each directory is tried as dir/glibc-hwcaps/<level>/name for the levels the host
// supports, then dir/name; an object of the wrong class or machine is skipped and
// the search goes on, as open_verify does.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuvet/loader/image_files.hpp"
#include "cuvet/loader/ld_cache.hpp"
#include "cuvet/loader/ld_conf.hpp"

namespace cuvet::loader {

enum class Rule {
    path,             // the name has a '/'
    already_loaded,   // an object loaded earlier matched the name, SONAME or file
    rpath,            // DT_RPATH of the requester or one of its loaders
    ld_library_path,  // LD_LIBRARY_PATH from the image Env
    runpath,          // DT_RUNPATH of the requester
    ld_cache,         // /etc/ld.so.cache
    ld_conf,          // ld.so.conf dirs: the cache ldconfig writes at container start
    default_dirs,     // the image glibc's built-in system dirs
    host_driver,      // mounted from the host by nvidia-container-toolkit
    none,             // not found
};
std::string_view to_string(Rule rule);

// What a single candidate path turned out to be.
enum class Verdict {
    loaded,         // this is the one
    absent,         // nothing there (or a dangling link)
    not_regular,    // a directory or device
    wrong_class,    // ELFCLASS32 vs 64: skipped, the search goes on
    wrong_machine,  // e_machine mismatch: skipped, the search goes on
    not_elf,        // ld.so stops with "invalid ELF header"
    // open() fails with EACCES for the container's user: open_path skips it and the search
    // goes on (elf/dl-load.c), unlike an unreadable ELF header, which ends it.
    permission_denied,
    // A FIFO: open(O_RDONLY) waits for a writer that never comes, so the program hangs
    // before main; the search never goes on.
    fifo,
    // A device node: the runtime's device cgroup refuses its open() (EPERM), or a permitted
    // one (1:3, 1:5) reads no ELF header; either way it is not loaded and the load fails.
    device,
    not_inspected,  // the scan did not read it; accepted as ld.so would open it
    stale_cache,    // the cache names a file the image does not have
};
std::string_view to_string(Verdict verdict);

struct Attempt {
    std::string path;  // the candidate as ld.so builds it
    Rule rule = Rule::none;
    std::string source;  // whose RPATH/RUNPATH, "LD_LIBRARY_PATH", the cache or conf file
    Verdict verdict = Verdict::absent;
    std::string denied;  // permission_denied: who cannot open what, with owner and mode
};

enum class Status {
    found,        // a file in the image
    host_driver,  // provided by the host driver at run time
    not_found,    // ld.so fails: "cannot open shared object file"
    error,        // ld.so fails on a file it found (not ELF)
};
std::string_view to_string(Status status);

struct Resolution {
    std::string name;           // the DT_NEEDED string
    std::size_t requester = 0;  // index into Graph::objects
    Status status = Status::not_found;
    Rule rule = Rule::none;
    std::string source;                 // whose RPATH/RUNPATH, the cache file, …
    std::string path;                   // as ld.so names it (what `ld.so --list` prints)
    std::string file;                   // the data file after symlinks and hard links
    std::optional<std::size_t> object;  // index into Graph::objects
    std::vector<Attempt> trace;         // every candidate tried, in order
    std::vector<std::string> shadowed;  // other files the same search would reach later
    std::string image_copy;             // host_driver: the image's own copy of a driver library
    std::string note;
    // Found only because the container runtime runs ldconfig at start: what the
    // image's own /etc/ld.so.cache would have given instead ("" when the same).
    std::string start_note;
    // "LD_PRELOAD" or "/etc/ld.so.preload" for an object preloaded before the
    // program's DT_NEEDED; a preload ld.so cannot find is ignored (it warns).
    std::string preload;
};

struct Object {
    std::string path;  // as loaded (l_name)
    std::string file;  // data file after links
    std::string soname;
    std::vector<std::string> names;  // every name it answers to
    std::size_t loader = 0;          // the object that first needed it (itself for the root)
    bool is_64bit = true;
    std::uint16_t machine = 0;
    bool host_provided = false;      // a driver library from the host: its deps are not known
    bool interpreter = false;        // ld.so itself, always loaded
    bool inspected = true;           // false: no ELF facts, its deps are unknown
    std::vector<std::size_t> needs;  // indices into Graph::resolutions, DT_NEEDED order
};

struct Graph {
    std::vector<Object> objects;  // load order: the root first, breadth first
    std::vector<Resolution> resolutions;
    std::vector<std::size_t> preloads;  // indices into resolutions, in ld.so's order
    std::vector<std::string> notes;
    std::vector<std::string> default_dirs;  // the image glibc's system dirs, as assumed
    std::string lib_dst;                    // what $LIB expanded to
    bool ok() const;  // every DT_NEEDED found or host-provided (a missing preload is ignored)
};

// How the container starts. nvidia: nvidia-container-toolkit injects the driver
// libraries and runs ldconfig over the image's /etc/ld.so.conf, so the cache ld.so
// reads is the one ldconfig writes from the image's config. none: a runtime
// without the toolkit; ld.so reads the image's /etc/ld.so.cache as it is.
enum class RuntimeStart { nvidia, none };

struct Options {
    // glibc-hwcaps subdirectories the host CPU supports, best first. A GPU
    // host is assumed to have AVX2; set {} to search none.
    std::vector<std::string> hwcaps = {"x86-64-v3", "x86-64-v2"};
    std::string platform = "x86_64";                       // $PLATFORM (AT_PLATFORM)
    std::optional<std::string> lib;                        // $LIB; default from the image's layout
    std::optional<std::vector<std::string>> default_dirs;  // default from the image's layout
    std::optional<std::string> ld_library_path;            // overrides the image Env
    std::string working_dir = "/";                         // relative names and empty path entries
    RuntimeStart runtime_start = RuntimeStart::nvidia;
    // RuntimeStart::none and no /etc/ld.so.cache in the image: search the
    // ld.so.conf dirs as the cache ldconfig would build. Off means exactly what
    // a plain ld.so does: skip to the defaults.
    bool conf_without_cache = true;
    // LD_PRELOAD and /etc/ld.so.preload are loaded after the program, before its
    // DT_NEEDED (rtld.c); nullopt reads LD_PRELOAD from the image Env.
    std::optional<std::string> ld_preload;
    bool preload_file = true;  // read the image's /etc/ld.so.preload
    // Driver libraries come from the host (see driver_libs.hpp).
    bool host_driver = true;
    // Why the container's user cannot open a data file (read on it, search on the
    // directories above it), or "" when it can; unset: everything opens (root).
    std::function<std::string(const std::string& file)> open_denied;
};

// Names an object loads beyond its DT_NEEDED, resolved as if they were in it:
// what a framework preloads before importing a module (`before` the object's
// own DT_NEEDED) and what the object dlopen()s (`after` them). The image's
// ELF facts are left as they are.
struct ExtraNeeded {
    std::vector<std::string> before;
    std::vector<std::string> after;
};
using ExtraNeededByFile = std::map<std::string, ExtraNeeded, std::less<>>;  // by data file

class Loader {
public:
    Loader(ImageFiles files, Options options);
    ~Loader();
    Loader(Loader&&) noexcept;

    // Resolves `program` (an absolute path in the image) and everything it
    // loads. Throws cuvet::Error(input) when it is not an ELF object the scan read.
    // `extra`: names each file (the program or anything it loads) loads beyond its DT_NEEDED.
    Graph resolve(std::string_view program, const ExtraNeededByFile& extra = {}) const;

    const std::optional<LdCache>& cache() const;
    const LdConf& conf() const;
    const std::vector<std::string>& notes() const;  // about the image as a whole

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace cuvet::loader
