// CUV012 glibc-too-new
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace cuv012 {

std::vector<report::Finding> run(const Stack& stack, const rules::Database&) {
    std::vector<report::Finding> out;
    if (!stack.glibc_version || stack.elfs == nullptr) return out;
    std::vector<util::UnloadedProblem> unloaded;
    for (const auto& [path, elf] : *stack.elfs) {
        std::optional<rules::Version> newest;
        std::string newest_text;
        for (const auto& need : elf.version_needs) {
            for (const auto& v : need.versions) {
                if (!util::starts_with(v, "GLIBC_")) continue;
                auto version = rules::Version::parse(v.substr(6));
                if (version && (!newest || *newest < *version)) newest = version, newest_text = v;
            }
        }
        if (!newest || *newest <= *stack.glibc_version) continue;
        const auto* root = stack.root_of(path);
        if (root == nullptr) {
            unloaded.push_back({path, newest_text});
            continue;
        }
        report::Finding f;
        f.loaded_by = *root;
        f.message = path + " needs " + newest_text + " but the image's glibc is " +
                    stack.glibc_version->str() + ": it fails with \"version `" + newest_text +
                    "' not found (required by " + util::base_name(path) + ")\"";
        f.locations = {{path}};
        f.fix = "Use a base image with glibc " + newest->str() +
                " or newer (a newer distribution release), or install a build of " +
                util::base_name(path) + " made for glibc " + stack.glibc_version->str() +
                " (manylinux wheels name their glibc floor).";
        out.push_back(std::move(f));
    }
    const std::string what = "a newer glibc than the image's " + stack.glibc_version->str();
    auto grouped = util::unloaded_findings(
        "CUV012", unloaded, "needs " + what, "need " + what,
        "Nothing breaks while nothing loads them; use a newer base image before you do.");
    out.insert(out.end(), grouped.begin(), grouped.end());
    return out;
}

}  // namespace cuv012

const ValidateCheck cuv012_glibc_too_new{
    CheckInfo{
        .id = "CUV012",
        .severity = report::Severity::error,
        .name = "glibc-too-new",
    },
    &cuv012::run,
};

}  // namespace cuvet::checks
