// CUV013 driver-libs-baked
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace cuv013 {

bool is_stub(const std::string& path) { return path.find("/stubs/") != std::string::npos; }

// The toolkit's link-time stub reached before the mounted driver (its dir on LD_LIBRARY_PATH, an
// RPATH to it): every CUDA call fails. Stubs nothing reaches are what the toolkit ships: silent.
std::vector<report::Finding> stubs_on_the_path(const Stack& stack) {
    std::map<std::string, std::vector<const ElfObject*>> users;  // stub file -> who maps it
    std::map<std::string, const Resolution*> how;
    for (const auto& o : stack.objects)
        for (const auto& r : o.resolutions)
            if (!r.provided_by_host && is_stub(r.file) && stack.root_of(o.file) != nullptr) {
                users[r.file].push_back(&o);
                how.emplace(r.file, &r);
            }
    std::vector<report::Finding> out;
    for (const auto& [stub, objects] : users) {
        const auto& r = *how.at(stub);
        std::vector<std::string> files = {stub};
        for (const auto* o : objects) files.push_back(o->file);
        report::Finding f;
        f.message = objects.front()->path + " maps the CUDA toolkit's stub " + r.path +
                    " (through " + (r.source.empty() ? r.how_found() : r.source) +
                    ") instead of the host driver's " + r.name +
                    ": every CUDA call fails with CUDA_ERROR_STUB_LIBRARY (\"CUDA driver is a stub "
                    "library\")";
        f.locations = {{stub}};
        // Every CUDA library maps libcuda.so.1: a few users say enough.
        for (std::size_t i = 0; i < objects.size() && i < 6; ++i)
            f.evidence.push_back(objects[i]->path + " resolves " + r.name + " to " + r.path);
        if (objects.size() > 6)
            f.evidence.push_back("and " + std::to_string(objects.size() - 6) + " more");
        util::name_roots(f, util::roots_loading(stack, files));
        f.fix =
            "Keep the stubs directory off the run-time search path (LD_LIBRARY_PATH, RPATH): it is "
            "for linking only "
            "(LIBRARY_PATH or -L at build time); the NVIDIA container toolkit mounts the real " +
            r.name + ".";
        out.push_back(std::move(f));
    }
    return out;
}

// The dirs nvidia-container-toolkit mounts the host's driver libraries into.
bool in_mount_dir(const std::string& path) {
    const auto dir = path.substr(0, path.rfind('/'));
    return dir == "/usr/lib/x86_64-linux-gnu" || dir == "/lib/x86_64-linux-gnu" ||
           dir == "/usr/lib64" || dir == "/usr/lib/aarch64-linux-gnu" ||
           dir == "/lib/aarch64-linux-gnu";
}

// A versioned copy in the mount dir loses to the host's only while the host's is newer: the toolkit
// mounts libcuda.so.<host> beside it and ldconfig links the soname to the highest version, and the
// same version collides with the mount. Decidable for the fleet drivers the user names.
std::optional<report::Finding> fleet_conflict(const Stack& stack, const LibraryCopy& copy) {
    if (!copy.version || copy.version->size() < 2 || !in_mount_dir(copy.path)) return std::nullopt;
    for (const auto& driver : stack.targets.drivers) {
        if (driver > *copy.version) continue;
        report::Finding f;
        const bool same = driver == *copy.version;
        f.message =
            "Driver library " + copy.path + " (driver " + copy.version->str() +
            ") is baked into the image; on the fleet driver " + driver.str() +
            (same ? " the container toolkit cannot mount the host's copy over it: "
                    "\"nvidia-container-cli: mount error: file creation failed: … file exists\""
                  : " ldconfig links " + copy.soname +
                        ".1 to this newer copy instead of the host's mounted one: \"Failed to "
                        "initialize NVML: Driver/library version mismatch\" or \"CUDA driver "
                        "version is insufficient\"");
        f.locations = {{copy.path}};
        f.evidence.push_back("the toolkit mounts the host's " + copy.soname + "." + driver.str() +
                             " into " + copy.path.substr(0, copy.path.rfind('/')) +
                             " and runs ldconfig, which links the soname to the highest version");
        f.fix = "Remove " + copy.path +
                " from the image (do not install nvidia-driver-* / libnvidia-compute-* or COPY the "
                "host's driver in); the NVIDIA container toolkit mounts the matching driver at run "
                "time.";
        return f;
    }
    return std::nullopt;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database&) {
    std::vector<report::Finding> out = stubs_on_the_path(stack);
    std::vector<util::UnloadedProblem> unloaded;
    for (const auto& copy : stack.driver_libraries) {
        // Which objects something the image runs maps would get the image's copy instead of the
        // host's (the loader: only RPATH, LD_LIBRARY_PATH or RUNPATH reach it before the mounted
        // driver).
        std::vector<std::string> users, files = {copy.path};
        for (const auto& o : stack.objects)
            for (const auto& r : o.resolutions)
                if (r.file == copy.path && stack.root_of(o.file) != nullptr) {
                    if (users.size() < 5) users.push_back(o.path);
                    files.push_back(o.file);
                }
        const auto roots = util::roots_loading(stack, files);
        if (users.empty() || roots.empty()) {
            if (auto conflict = fleet_conflict(stack, copy)) {
                out.push_back(std::move(*conflict));
                continue;
            }
            // The host's copy is what loads (the toolkit mounts it into the system lib dir and runs
            // ldconfig).
            unloaded.push_back(
                {copy.path, copy.soname + (copy.version ? " " + copy.version->str() : "")});
            continue;
        }
        report::Finding f;
        f.message = "Driver library " + copy.path +
                    (copy.version ? " (driver " + copy.version->str() + ")" : "") +
                    " is baked into the image and shadows the host driver's " + copy.soname +
                    ".* for " + users.front() + (users.size() > 1 ? " and others" : "") +
                    ": \"CUDA driver version is insufficient\" or \"forward compatibility was "
                    "attempted on non supported HW\"";
        f.locations = {{copy.path}};
        for (const auto& u : users) f.evidence.push_back(u + " resolves to " + copy.path);
        util::name_roots(f, roots);
        f.fix = "Remove " + copy.path +
                " from the image (RUN rm, or do not COPY the host's driver in); the NVIDIA "
                "container toolkit mounts the matching driver at run time. Use the cuda-compat "
                "package in /usr/local/cuda/compat for forward compatibility.";
        out.push_back(std::move(f));
    }
    auto grouped = util::unloaded_findings(
        "CUV013", unloaded,
        "is a driver library baked into the image; the host's copy is mounted and found first",
        "are driver libraries baked into the image; the host's copies are mounted and found first",
        "Nothing breaks while the host's copy wins; remove them (they go stale, and an RPATH or "
        "LD_LIBRARY_PATH to their directory would make them win).");
    out.insert(out.end(), grouped.begin(), grouped.end());
    return out;
}

}  // namespace cuv013

const ValidateCheck cuv013_driver_libs_baked{
    CheckInfo{
        .id = "CUV013",
        .severity = report::Severity::error,
        .name = "driver-libs-baked",
    },
    &cuv013::run,
};

}  // namespace cuvet::checks
