// Database::newest_entry: the newest fact of each table, for `cuvet rules` — a user
// sees at once whether cuvet knows the CUDA, cuDNN or GPU they run.
#include <map>

#include "cuvet/rules/database.hpp"

namespace cuvet::rules {

namespace {

template <typename Range, typename Key>
std::string newest_of(const Range& rows, Key key) {
    std::optional<Version> best;
    for (const auto& row : rows) {
        std::optional<Version> v = key(row);
        if (v && (!best || *v > *best)) best = v;
    }
    return best ? best->str() : std::string();
}

}  // namespace

std::string Database::newest_entry(std::string_view table) const {
    if (table == "cuda_drivers") {
        return newest_of(drivers_, [](const DriverEntry& e) { return std::optional(e.cuda); });
    }
    if (table == "cudnn") {
        return newest_of(cudnn_releases_,
                         [](const CudnnRelease& r) { return std::optional(r.version); });
    }
    if (table == "gpus") {
        std::string cc =
            newest_of(gpus_, [](const GpuArch& g) { return std::optional(g.compute_capability); });
        return cc.empty() ? cc : "compute capability " + cc;
    }
    if (table == "sonames") {
        std::optional<int> major;
        for (const auto& fact : sonames_) {
            for (int m : fact.cuda_majors) {
                if (!major || m > *major) major = m;
            }
        }
        return major ? "CUDA " + std::to_string(*major) + ".x sonames" : std::string();
    }
    if (table == "nvidia_cuda_tags") {
        std::string cuda = newest_of(
            cuda_image_tags_, [](const CudaImageTags& row) { return Version::parse(row.cuda); });
        return cuda.empty() ? cuda : "nvidia/cuda " + cuda;
    }
    if (table == "frameworks") {
        // One newest release per framework, in the order the table first names them.
        std::vector<std::string> order;
        std::map<std::string, Version> newest;
        for (const auto& build : frameworks_) {
            if (!build.version) continue;
            // A row covering "0.7.2" through "0.11.0" vouches for 0.11.0.
            const Version& last = build.until ? *build.until : *build.version;
            auto [it, inserted] = newest.try_emplace(build.framework, last);
            if (inserted)
                order.push_back(build.framework);
            else if (last > it->second)
                it->second = last;
        }
        std::string out;
        for (const auto& name : order)
            out += (out.empty() ? "" : ", ") + name + " " + newest.at(name).str();
        return out;
    }
    if (table == "nccl") {
        return newest_of(nccl_releases_,
                         [](const NcclRelease& r) { return std::optional(r.version); });
    }
    if (table == "kernel_compilers") {
        // The newest release per compiler ("triton 3.9.0").
        std::string out;
        for (const auto& compiler : kernel_compilers_) {
            std::string newest = newest_of(compiler.releases, [](const KernelCompilerRelease& r) {
                return std::optional(r.version);
            });
            if (!newest.empty())
                out += (out.empty() ? "" : ", ") + compiler.framework + " " + newest;
        }
        return out;
    }
    if (table == "ngc_containers") {
        // The newest monthly release per image ("YY.MM" compares as a version).
        std::map<std::string, const NgcContainerRelease*> newest;
        for (const auto& release : ngc_containers_) {
            auto [it, inserted] = newest.try_emplace(release.image, &release);
            if (!inserted && Version::parse(release.release) > Version::parse(it->second->release))
                it->second = &release;
        }
        std::string out;
        for (const auto& [image, release] : newest)
            out += (out.empty() ? "" : ", ") + image + " " + release->release;
        return out;
    }
    return {};
}

}  // namespace cuvet::rules
