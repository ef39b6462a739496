#include "cuvet/loader/loader.hpp"

#include <algorithm>
#include <deque>
#include <set>

#include "cuvet/core/error.hpp"
#include "cuvet/loader/driver_libs.hpp"
#include "dst.hpp"

namespace cuvet::loader {

namespace {

constexpr std::uint16_t em_386 = 3, em_x86_64 = 62, em_aarch64 = 183;

std::string multiarch_triplet(std::uint16_t machine, bool is_64bit) {
    if (machine == em_x86_64 && is_64bit) return "x86_64-linux-gnu";
    if (machine == em_aarch64) return "aarch64-linux-gnu";
    if (machine == em_386 || machine == em_x86_64) return "i386-linux-gnu";
    return "";
}

std::string interpreter_path(std::uint16_t machine, bool is_64bit) {
    if (machine == em_x86_64 && is_64bit) return "/lib64/ld-linux-x86-64.so.2";
    if (machine == em_aarch64) return "/lib/ld-linux-aarch64.so.1";
    return "/lib/ld-linux.so.2";
}

std::string basename_of(std::string_view path) {
    auto slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace

std::string_view to_string(Rule rule) {
    switch (rule) {
        case Rule::path:
            return "path";
        case Rule::already_loaded:
            return "already-loaded";
        case Rule::rpath:
            return "rpath";
        case Rule::ld_library_path:
            return "ld-library-path";
        case Rule::runpath:
            return "runpath";
        case Rule::ld_cache:
            return "ld-cache";
        case Rule::ld_conf:
            return "ld-conf";
        case Rule::default_dirs:
            return "default-dirs";
        case Rule::host_driver:
            return "host-driver";
        case Rule::none:
            return "none";
    }
    return "none";
}

std::string_view to_string(Verdict verdict) {
    switch (verdict) {
        case Verdict::loaded:
            return "loaded";
        case Verdict::absent:
            return "absent";
        case Verdict::not_regular:
            return "not a regular file";
        case Verdict::wrong_class:
            return "wrong ELF class";
        case Verdict::wrong_machine:
            return "wrong machine";
        case Verdict::not_elf:
            return "not an ELF file";
        case Verdict::fifo:
            return "a FIFO (open blocks)";
        case Verdict::device:
            return "a device node";
        case Verdict::not_inspected:
            return "not inspected";
        case Verdict::stale_cache:
            return "stale cache entry";
        case Verdict::permission_denied:
            return "permission denied";
    }
    return "absent";
}

std::string_view to_string(Status status) {
    switch (status) {
        case Status::found:
            return "found";
        case Status::host_driver:
            return "host-driver";
        case Status::not_found:
            return "not-found";
        case Status::error:
            return "error";
    }
    return "not-found";
}

bool Graph::ok() const {
    return std::all_of(resolutions.begin(), resolutions.end(), [](const Resolution& r) {
        return r.status == Status::found || r.status == Status::host_driver || !r.preload.empty();
    });
}

struct Loader::State {
    ImageFiles files;
    Options options;
    std::optional<LdCache> cache;
    std::string cache_problem;
    LdConf conf;
    std::vector<std::string> notes;
    bool debian_layout = false;
};

Loader::Loader(ImageFiles files, Options options) : state_(std::make_unique<State>()) {
    auto& s = *state_;
    s.files = std::move(files);
    s.options = std::move(options);
    if (s.files.tree == nullptr) throw Error(ErrorKind::internal, "loader: no file tree");
    if (const auto* bytes = s.files.text("/etc/ld.so.cache")) {
        s.cache = parse_ld_cache(*bytes, &s.cache_problem);
        if (!s.cache) s.notes.push_back("/etc/ld.so.cache unreadable: " + s.cache_problem);
    } else if (s.files.data_entry("/etc/ld.so.cache") != nullptr) {
        s.notes.push_back("/etc/ld.so.cache was not read by the scan");
    } else {
        s.notes.push_back("the image has no /etc/ld.so.cache");
    }
    s.conf = read_ld_conf(s.files);
    for (const auto& problem : s.conf.problems) s.notes.push_back(problem);
    // Debian and Ubuntu build glibc for multiarch dirs; RHEL-likes for lib64.
    const auto& tree = *s.files.tree;
    auto is_dir = [&](const char* path) {
        auto r = tree.resolve(path);
        return r.status == image::Resolution::Status::ok && r.entry != nullptr &&
               r.entry->type == image::FileType::directory;
    };
    s.debian_layout = is_dir("/usr/lib/x86_64-linux-gnu") || is_dir("/lib/x86_64-linux-gnu") ||
                      is_dir("/usr/lib/aarch64-linux-gnu") || is_dir("/lib/aarch64-linux-gnu") ||
                      tree.find("/etc/debian_version") != nullptr;
}

Loader::~Loader() = default;
Loader::Loader(Loader&&) noexcept = default;

const std::optional<LdCache>& Loader::cache() const { return state_->cache; }
const LdConf& Loader::conf() const { return state_->conf; }
const std::vector<std::string>& Loader::notes() const { return state_->notes; }

namespace {

// One resolve() call: the link map being built and the search for one name.
class Session {
public:
    Session(const ImageFiles& files, const Options& options, const std::optional<LdCache>& cache,
            const LdConf& conf, std::string root_real, const ExtraNeededByFile& extra, Graph& graph)
        : files_(files),
          options_(options),
          cache_(cache),
          conf_(conf),
          default_dirs_(graph.default_dirs),
          lib_dst_(graph.lib_dst),
          root_real_(std::move(root_real)),
          extra_(extra),
          graph_(graph) {}

    // rtld.c: LD_PRELOAD (split on ' ' and ':'), then /etc/ld.so.preload (white
    // space and ':'), each mapped as the program's own need before its
    // DT_NEEDED; one ld.so cannot open is ignored with a warning.
    void preload(std::string_view list, std::string_view separators, const std::string& source) {
        std::size_t at = 0;
        while (at < list.size()) {
            auto end = list.find_first_of(separators, at);
            if (end == std::string_view::npos) end = list.size();
            auto name = std::string(list.substr(at, end - at));
            at = end + 1;
            if (name.empty()) continue;
            auto index = map_object(name, 0);
            graph_.resolutions[index].preload = source;
            graph_.preloads.push_back(index);
            if (auto object = graph_.resolutions[index].object;
                object && *object > 1 &&
                std::find(preloaded_.begin(), preloaded_.end(), *object) == preloaded_.end())
                preloaded_.push_back(*object);
        }
    }

    void run() {
        std::deque<std::size_t> queue{0};
        // The program's DT_NEEDED are searched first, then the preloads' (dl-deps.c
        // walks the link map in order: the program, then the preloaded objects).
        queue.insert(queue.end(), preloaded_.begin(), preloaded_.end());
        while (!queue.empty()) {
            auto index = queue.front();
            queue.pop_front();
            if (!graph_.objects[index].inspected || graph_.objects[index].host_provided) continue;
            const auto* info = files_.elf(graph_.objects[index].file);
            if (info == nullptr) continue;
            const auto extra = extra_.find(graph_.objects[index].file);
            if (extra != extra_.end())
                for (const auto& name : extra->second.before) need(index, name, queue);
            for (const auto& name : info->needed) need(index, name, queue);
            if (extra != extra_.end())
                for (const auto& name : extra->second.after) need(index, name, queue);
        }
    }

private:
    // One name `index` needs, mapped; a newly loaded object joins the queue.
    void need(std::size_t index, const std::string& name, std::deque<std::size_t>& queue) {
        auto before = graph_.objects.size();
        auto r = map_object(name, index);
        graph_.objects[index].needs.push_back(r);
        if (graph_.objects.size() > before) queue.push_back(graph_.objects.size() - 1);
    }

    struct Candidate {
        Attempt attempt;
        std::string file;  // data path when loadable
    };

    std::string full(std::string_view path) const {
        if (!path.empty() && path[0] == '/') return std::string(path);
        return detail::join_dir(options_.working_dir, path);
    }

    detail::DstValues dst_for(std::size_t object) const {
        const auto& o = graph_.objects[object];
        // The program's origin comes from /proc/self/exe (links resolved);
        // a library's from the path it was opened by, unresolved.
        return {detail::origin_of(object == 0 ? root_real_ : o.path, options_.working_dir),
                lib_dst_, options_.platform};
    }

    // A FIFO or device node (itself, or what a hard link names) is never skipped like a
    // missing file: ld.so's open() blocks on the one and fails on, or reads no ELF header
    // from, the other.
    std::optional<Verdict> special_file(const image::FileEntry& found) const {
        const image::FileEntry* entry = &found;
        if (entry->type == image::FileType::hardlink) entry = files_.tree->data_entry(*entry);
        if (entry == nullptr) return std::nullopt;
        if (entry->type == image::FileType::fifo) return Verdict::fifo;
        if (entry->type == image::FileType::device) return Verdict::device;
        return std::nullopt;
    }

    // open_verify: is the file there, and of our class and machine?
    Verdict verify(std::string_view path, std::string& file, std::string& denied) const {
        const auto& root = graph_.objects[0];
        auto resolved = files_.tree->resolve(full(path));
        if (resolved.status != image::Resolution::Status::ok || resolved.entry == nullptr)
            return Verdict::absent;
        // open() of a directory succeeds and open_verify's read() fails with EISDIR: "cannot
        // read file data", an error that ends the load like a header it rejects.
        if (resolved.entry->type == image::FileType::directory) {
            if (options_.open_denied) denied = options_.open_denied(resolved.entry->path);
            return denied.empty() ? Verdict::not_elf : Verdict::permission_denied;
        }
        if (auto special = special_file(*resolved.entry)) return *special;
        const auto* entry = files_.data_entry(full(path));
        if (entry == nullptr) return Verdict::not_regular;
        file = entry->path;
        if (options_.open_denied) {
            denied = options_.open_denied(entry->path);
            if (!denied.empty()) return Verdict::permission_denied;
        }
        // ld.so reads a whole ELF header first: a shorter file (empty, a stub the scan never
        // reads) is "file too short", an error that ends the search.
        if (entry->size < (root.is_64bit ? 64u : 52u)) return Verdict::not_elf;
        if (files_.elfs != nullptr) {
            auto it = files_.elfs->find(entry->path);
            if (it != files_.elfs->end()) {
                if (it->second.is_64bit != root.is_64bit) return Verdict::wrong_class;
                if (it->second.machine != root.machine) return Verdict::wrong_machine;
                return Verdict::loaded;
            }
        }
        if (files_.not_elf != nullptr && files_.not_elf->count(entry->path) != 0)
            return Verdict::not_elf;
        return Verdict::not_inspected;
    }

    void try_path(std::vector<Candidate>& out, std::string path, Rule rule,
                  const std::string& source) const {
        Candidate c;
        c.attempt = {std::move(path), rule, source, Verdict::absent, {}};
        c.attempt.verdict = verify(c.attempt.path, c.file, c.attempt.denied);
        out.push_back(std::move(c));
    }

    void try_dirs(std::vector<Candidate>& out, const std::vector<std::string>& dirs,
                  std::string_view name, Rule rule, const std::string& source) const {
        for (const auto& dir : dirs) {
            for (const auto& level : options_.hwcaps)
                try_path(out,
                         detail::join_dir(dir, "glibc-hwcaps/" + level + "/" + std::string(name)),
                         rule, source);
            try_path(out, detail::join_dir(dir, name), rule, source);
        }
    }

    // Every candidate of the search, in ld.so's order, past the winner too
    // (those are the shadowed copies).
    std::vector<Candidate> search(std::string_view name, std::size_t requester) const {
        std::vector<Candidate> out;
        const auto* req = files_.elf(graph_.objects[requester].file);
        bool requester_runpath = req != nullptr && req->has_runpath;
        if (!requester_runpath) {
            for (std::size_t l = requester;;) {
                const auto* info = files_.elf(graph_.objects[l].file);
                // An object with both tags ignores its RPATH (get-dynamic-info.h).
                if (info != nullptr && info->has_rpath && !info->has_runpath) {
                    std::string joined;
                    for (const auto& p : info->rpath) joined += (joined.empty() ? "" : ":") + p;
                    try_dirs(out, detail::split_search_path(joined, ":", dst_for(l)), name,
                             Rule::rpath, graph_.objects[l].path);
                }
                if (l == 0) break;
                l = graph_.objects[l].loader;
            }
        }
        auto llp = options_.ld_library_path ? options_.ld_library_path
                                            : files_.env_value("LD_LIBRARY_PATH");
        if (llp && !llp->empty())
            try_dirs(out, detail::split_search_path(*llp, ":;", dst_for(0)), name,
                     Rule::ld_library_path, "LD_LIBRARY_PATH");
        if (requester_runpath) {
            std::string joined;
            for (const auto& p : req->runpath) joined += (joined.empty() ? "" : ":") + p;
            try_dirs(out, detail::split_search_path(joined, ":", dst_for(requester)), name,
                     Rule::runpath, graph_.objects[requester].path);
        }
        search_cache(out, name);
        try_dirs(out, default_dirs_, name, Rule::default_dirs, "default");
        return out;
    }

    // The cache ld.so reads: at an NVIDIA start, the one ldconfig writes from the
    // image's ld.so.conf (its dirs in order, the first copy of a soname winning, as
    // ldconfig inserts equal keys in order and ld.so takes the first); else the
    // image's own file, or with none the conf dirs (conf_without_cache).
    void search_cache(std::vector<Candidate>& out, std::string_view name) const {
        if (options_.runtime_start == RuntimeStart::nvidia) return search_conf(out, name);
        if (cache_) return search_image_cache(out, name);
        if (options_.conf_without_cache) search_conf(out, name);
    }

    void search_image_cache(std::vector<Candidate>& out, std::string_view name) const {
        const auto& root = graph_.objects[0];
        auto flags = cache_flags_for(root.machine, root.is_64bit);
        if (const auto* entry = cache_lookup(*cache_, name, flags, options_.hwcaps)) {
            try_path(out, entry->path, Rule::ld_cache, "/etc/ld.so.cache");
            if (out.back().attempt.verdict == Verdict::absent)
                out.back().attempt.verdict = Verdict::stale_cache;
        }
    }

    // What a start without the toolkit would map for a name the start's cache
    // found: the image's /etc/ld.so.cache (none: the default dirs), then the
    // default dirs. "" when it is the same file.
    std::string start_note(std::string_view name, const Candidate& winner) const {
        // Without any cache the conf dirs were always assumed (conf_without_cache): only a
        // cache that disagrees with the image's config is news.
        if (!cache_) return "";
        std::vector<Candidate> plain;
        if (cache_) search_image_cache(plain, name);
        auto cached = plain;
        try_dirs(plain, default_dirs_, name, Rule::default_dirs, "default");
        auto found = std::find_if(plain.begin(), plain.end(), [](const Candidate& c) {
            return loadable(c.attempt.verdict) || stops(c.attempt.verdict);
        });
        if (found != plain.end() && found->file == winner.file) return "";
        std::string why;
        auto dir = winner.attempt.path.substr(0, winner.attempt.path.rfind('/'));
        if (!cache_)
            why = "the image has no /etc/ld.so.cache";
        else if (!cached.empty() && cached.front().attempt.verdict == Verdict::stale_cache)
            why = "/etc/ld.so.cache is stale for " + dir + " (it names " +
                  cached.front().attempt.path + ", which the image lacks)";
        else if (!cached.empty())
            why = "/etc/ld.so.cache names " + cached.front().attempt.path + " for " +
                  std::string(name);
        else
            why = "/etc/ld.so.cache is stale for " + dir + " (no entry for " + std::string(name) +
                  ")";
        return why + "; without that start ld.so " +
               (found == plain.end() ? "finds no " + std::string(name)
                                     : "maps " + found->attempt.path + " instead");
    }

    void search_conf(std::vector<Candidate>& out, std::string_view name) const {
        for (const auto& dir : conf_.dirs) {
            auto before = out.size();
            try_dirs(out, {dir.dir}, name, Rule::ld_conf, dir.source);
            bool any = std::any_of(out.begin() + long(before), out.end(), [](const Candidate& c) {
                return c.attempt.verdict != Verdict::absent;
            });
            if (!any) try_soname_in_dir(out, dir, name);
        }
    }

    // ldconfig keys the cache by SONAME and creates the link itself, so a
    // conf dir holding only libfoo.so.1.2 (SONAME libfoo.so.1) still serves it.
    void try_soname_in_dir(std::vector<Candidate>& out, const LdConfDir& dir,
                           std::string_view name) const {
        if (files_.elfs == nullptr) return;
        std::string prefix = dir.dir == "/" ? "/" : dir.dir + "/";
        for (auto it = files_.elfs->lower_bound(prefix); it != files_.elfs->end(); ++it) {
            if (it->first.compare(0, prefix.size(), prefix) != 0) break;
            if (it->first.find('/', prefix.size()) != std::string::npos) continue;
            if (it->second.soname != name) continue;
            try_path(out, it->first, Rule::ld_conf, dir.source);
            return;
        }
    }

    static bool loadable(Verdict v) { return v == Verdict::loaded || v == Verdict::not_inspected; }
    // open_verify opened it but signals an error: the whole load fails there.
    static bool stops(Verdict v) {
        return v == Verdict::not_elf || v == Verdict::fifo || v == Verdict::device;
    }

    bool is_directory(std::string_view path) const {
        auto resolved = files_.tree->resolve(full(path));
        return resolved.status == image::Resolution::Status::ok && resolved.entry != nullptr &&
               resolved.entry->type == image::FileType::directory;
    }

    // Only open_path keeps a status per directory; the cache's path and a name with a '/'
    // go straight to open_verify.
    static bool searched_by_open_path(Rule rule) {
        return rule == Rule::rpath || rule == Rule::ld_library_path || rule == Rule::runpath ||
               rule == Rule::default_dirs;
    }

    // ld.so's open() calls up to `end`, replayed for the errno they leave behind. open_path
    // (elf/dl-load.c) marks a directory "nonexisting" when an open() in it fails and stat()
    // finds no directory there, and skips it in every later search of the process, so a
    // skipped directory leaves errno as it was; open_verify sets ENOENT for a file of another
    // class or machine.
    void replay_opens(const std::vector<Candidate>& candidates,
                      std::vector<Candidate>::const_iterator end) {
        for (auto it = candidates.begin(); it != end; ++it) {
            const auto& attempt = it->attempt;
            auto dir = attempt.path.substr(0, attempt.path.rfind('/'));
            bool listed = searched_by_open_path(attempt.rule);
            if (listed && missing_dirs_.count(dir) != 0) continue;
            auto parent = files_.tree->resolve(full(dir.empty() ? "/" : dir));
            bool parent_exists =
                parent.status == image::Resolution::Status::ok && parent.entry != nullptr;
            bool parent_is_dir = parent_exists && parent.entry->type == image::FileType::directory;
            if (attempt.verdict == Verdict::permission_denied)
                open_errno_ = "Permission denied";
            else if (parent_exists && !parent_is_dir)
                open_errno_ = "Not a directory";
            else
                open_errno_ = "No such file or directory";
            if (listed && !parent_is_dir) missing_dirs_.insert(dir);
        }
    }

    // What _dl_map_object prints when no candidate opened: "wrong ELF class" when open_verify
    // skipped a file of the other class, else the errno of the last open().
    std::string unopened_failure(const std::vector<Candidate>& candidates) const {
        bool other_class = std::any_of(candidates.begin(), candidates.end(), [](const auto& c) {
            return c.attempt.verdict == Verdict::wrong_class;
        });
        if (other_class)
            return graph_.objects[0].is_64bit ? "wrong ELF class: ELFCLASS32"
                                              : "wrong ELF class: ELFCLASS64";
        return "cannot open shared object file: " + open_errno_;
    }

    std::optional<std::size_t> find_loaded(std::string_view name) const {
        for (std::size_t i = 0; i < graph_.objects.size(); ++i) {
            const auto& o = graph_.objects[i];
            if (o.path == name || o.soname == name ||
                std::find(o.names.begin(), o.names.end(), name) != o.names.end())
                return i;
        }
        return std::nullopt;
    }

    std::size_t add_object(const std::string& name, const std::string& path,
                           const std::string& file, std::size_t loader, Verdict verdict) {
        for (std::size_t i = 0; i < graph_.objects.size(); ++i) {
            if (!file.empty() && graph_.objects[i].file == file) {
                graph_.objects[i].names.push_back(name);
                return i;
            }
        }
        Object o;
        o.path = path;
        o.file = file;
        o.names = {name};
        o.loader = loader;
        o.inspected = verdict == Verdict::loaded;
        if (const auto* info = files_.elf(file)) {
            o.soname = info->soname;
            o.is_64bit = info->is_64bit;
            o.machine = info->machine;
        }
        graph_.objects.push_back(std::move(o));
        return graph_.objects.size() - 1;
    }

    std::size_t map_object(const std::string& name, std::size_t requester) {
        Resolution r;
        r.name = name;
        r.requester = requester;
        if (auto loaded = find_loaded(name)) {
            const auto& o = graph_.objects[*loaded];
            r.status = o.host_provided ? Status::host_driver : Status::found;
            r.rule = Rule::already_loaded;
            r.path = o.path;
            r.file = o.file;
            r.object = loaded;
            if (o.interpreter) r.note = "the dynamic loader itself";
            // A preloaded object answers every later request for its name.
            for (auto p : graph_.preloads)
                if (graph_.resolutions[p].object == loaded)
                    r.source = graph_.resolutions[p].preload;
            return push(std::move(r));
        }
        std::vector<Candidate> candidates;
        if (name.find('/') != std::string::npos) {
            try_path(candidates, detail::expand_dst(name, dst_for(requester)), Rule::path, name);
        } else {
            candidates = search(name, requester);
        }
        auto winner = std::find_if(candidates.begin(), candidates.end(), [](const Candidate& c) {
            return loadable(c.attempt.verdict) || stops(c.attempt.verdict);
        });
        replay_opens(candidates, winner);
        std::vector<std::string> shadowed_files;
        for (auto it = candidates.begin(); it != candidates.end(); ++it) {
            if (winner == candidates.end() || it <= winner) {
                r.trace.push_back(it->attempt);
                continue;
            }
            // One entry per file: /lib/x/libfoo.so and /usr/lib/x/libfoo.so are one
            // file on a merged-/usr image.
            if (!loadable(it->attempt.verdict) || it->file == winner->file) continue;
            if (std::find(shadowed_files.begin(), shadowed_files.end(), it->file) !=
                shadowed_files.end())
                continue;
            shadowed_files.push_back(it->file);
            r.shadowed.push_back(it->attempt.path);
        }
        bool driver = options_.host_driver && is_host_driver_library(name);
        if (driver) return map_driver(std::move(r), candidates, winner, requester);
        if (winner == candidates.end()) {
            r.status = Status::not_found;
            for (const auto& c : candidates)
                if (c.attempt.verdict == Verdict::permission_denied) {
                    r.note =
                        c.attempt.denied + " (ld.so: \"" + unopened_failure(candidates) + "\")";
                    break;
                }
            return push(std::move(r));
        }
        r.rule = winner->attempt.rule;
        r.source = winner->attempt.source;
        r.path = winner->attempt.path;
        r.file = winner->file;
        if (winner->attempt.verdict == Verdict::fifo) {
            r.status = Status::error;
            r.note =
                "a FIFO: ld.so's open() waits for a writer that never comes; the program hangs "
                "before it starts";
            return push(std::move(r));
        }
        if (winner->attempt.verdict == Verdict::device) {
            r.status = Status::error;
            r.note =
                "a device node: the container's device cgroup refuses ld.so's open(), or the "
                "device reads no ELF header; the library is not loaded";
            return push(std::move(r));
        }
        if (winner->attempt.verdict == Verdict::not_elf) {
            r.status = Status::error;
            r.note = is_directory(winner->attempt.path)
                         ? "cannot read file data: Is a directory: ld.so stops here"
                         : "invalid ELF header: ld.so stops here";
            return push(std::move(r));
        }
        r.status = Status::found;
        if (winner->attempt.verdict == Verdict::not_inspected)
            r.note = "the scan did not read this file; its dependencies are unknown";
        if (winner->attempt.rule == Rule::ld_conf && options_.runtime_start == RuntimeStart::nvidia)
            r.start_note = start_note(name, *winner);
        r.object = add_object(name, r.path, r.file, requester, winner->attempt.verdict);
        return push(std::move(r));
    }

    // nvidia-container-toolkit mounts the host's driver libraries into the
    // system lib dir and runs ldconfig: they win over the image's copies
    // there, but a copy reached earlier (RPATH, LD_LIBRARY_PATH, RUNPATH)
    // still shadows them — the classic "stub libcuda.so.1 on the path".
    std::size_t map_driver(Resolution r, const std::vector<Candidate>& candidates,
                           std::vector<Candidate>::const_iterator winner, std::size_t requester) {
        bool early =
            winner != candidates.end() &&
            (winner->attempt.rule == Rule::rpath || winner->attempt.rule == Rule::runpath ||
             winner->attempt.rule == Rule::ld_library_path || winner->attempt.rule == Rule::path);
        if (early && loadable(winner->attempt.verdict)) {
            r.status = Status::found;
            r.rule = winner->attempt.rule;
            r.source = winner->attempt.source;
            r.path = winner->attempt.path;
            r.file = winner->file;
            r.image_copy = winner->attempt.path;
            r.note = "the image's own copy is found before the host driver's " + r.name +
                     " that nvidia-container-toolkit mounts";
            r.object = add_object(r.name, r.path, r.file, requester, winner->attempt.verdict);
            return push(std::move(r));
        }
        r.status = Status::host_driver;
        r.rule = Rule::host_driver;
        r.source = "nvidia-container-toolkit";
        std::string mount_dir = default_dirs_.size() > 1 ? default_dirs_[1] : "/usr/lib64";
        r.path = detail::join_dir(mount_dir, r.name);
        if (winner != candidates.end()) {
            r.image_copy = winner->attempt.path;
            r.note = "the image ships its own copy (" + winner->attempt.path +
                     "); at run time the host driver's is mounted and used instead";
        }
        Object o;
        o.path = r.path;
        o.names = {r.name};
        o.loader = requester;
        o.host_provided = true;
        o.inspected = false;
        o.is_64bit = graph_.objects[0].is_64bit;
        o.machine = graph_.objects[0].machine;
        graph_.objects.push_back(std::move(o));
        r.object = graph_.objects.size() - 1;
        return push(std::move(r));
    }

    std::size_t push(Resolution r) {
        graph_.resolutions.push_back(std::move(r));
        return graph_.resolutions.size() - 1;
    }

    const ImageFiles& files_;
    const Options& options_;
    const std::optional<LdCache>& cache_;
    const LdConf& conf_;
    const std::vector<std::string>& default_dirs_;
    const std::string& lib_dst_;
    std::string root_real_;
    std::set<std::string, std::less<>> missing_dirs_;
    std::string open_errno_ = "No such file or directory";
    const ExtraNeededByFile& extra_;
    Graph& graph_;
    std::vector<std::size_t> preloaded_;  // objects LD_PRELOAD and ld.so.preload mapped
};

}  // namespace

Graph Loader::resolve(std::string_view program, const ExtraNeededByFile& extra) const {
    const auto& s = *state_;
    Graph graph;
    std::string path = program.empty() || program[0] != '/'
                           ? detail::join_dir(s.options.working_dir, program)
                           : std::string(program);
    const auto* entry = s.files.data_entry(path);
    if (entry == nullptr) fail_input(path + ": no such file in the image");
    const auto* info = s.files.elf(path);
    if (info == nullptr) fail_input(path + ": not an ELF object (or not read by the scan)");

    Object root;
    root.path = path;
    root.file = entry->path;
    root.soname = info->soname;
    root.names = {path};
    root.is_64bit = info->is_64bit;
    root.machine = info->machine;
    graph.objects.push_back(root);

    // ld.so is in the link map before anything else is loaded.
    Object interp;
    interp.path = interpreter_path(info->machine, info->is_64bit);
    interp.names = {interp.path, basename_of(interp.path)};
    interp.soname = basename_of(interp.path);
    interp.interpreter = true;
    interp.inspected = false;
    if (const auto* e = s.files.data_entry(interp.path)) interp.file = e->path;
    interp.is_64bit = info->is_64bit;
    interp.machine = info->machine;
    graph.objects.push_back(interp);

    auto triplet = multiarch_triplet(info->machine, info->is_64bit);
    std::vector<std::string> dirs;
    std::string lib_dst;
    if (s.options.default_dirs) {
        dirs = *s.options.default_dirs;
    } else if (s.debian_layout && !triplet.empty()) {
        dirs = {"/lib/" + triplet, "/usr/lib/" + triplet, "/lib", "/usr/lib"};
    } else if (info->is_64bit) {
        dirs = {"/lib64", "/usr/lib64"};
    } else {
        dirs = {"/lib", "/usr/lib"};
    }
    if (s.options.lib)
        lib_dst = *s.options.lib;
    else if (s.debian_layout && !triplet.empty())
        lib_dst = "lib/" + triplet;
    else
        lib_dst = info->is_64bit ? "lib64" : "lib";
    graph.default_dirs = std::move(dirs);
    graph.lib_dst = std::move(lib_dst);

    Session session(s.files, s.options, s.cache, s.conf, s.files.tree->resolve(path).path, extra,
                    graph);
    auto ld_preload = s.options.ld_preload ? s.options.ld_preload : s.files.env_value("LD_PRELOAD");
    if (ld_preload) session.preload(*ld_preload, " :", "LD_PRELOAD");
    if (s.options.preload_file)
        if (const auto* text = s.files.text("/etc/ld.so.preload"))
            session.preload(*text, " \t\n:", "/etc/ld.so.preload");
    session.run();
    graph.notes = s.notes;
    return graph;
}

}  // namespace cuvet::loader
