// CUV011 wrong-machine
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace cuv011 {

std::optional<std::uint16_t> expected_machine(const std::string& architecture) {
    static const std::map<std::string, std::uint16_t> machines = {
        {"amd64", 62}, {"arm64", 183}, {"ppc64le", 21}, {"s390x", 22},
        {"386", 3},    {"arm", 40},    {"riscv64", 243}};
    auto it = machines.find(architecture);
    if (it == machines.end()) return std::nullopt;
    return it->second;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database&) {
    std::vector<report::Finding> out;
    auto want = expected_machine(stack.platform.architecture);
    if (!want || stack.elfs == nullptr) return out;
    // ld.so skips a library of another machine and searches on, so only a
    // root itself (a program, an extension module) or a file a root maps fails;
    // the rest (the i386 multilib, a toolkit's 32-bit helpers) is never loaded.
    std::map<std::uint16_t, std::vector<util::UnloadedProblem>> unloaded;
    for (const auto& [path, elf] : *stack.elfs) {
        if (elf.machine == *want || elf.machine == 0) continue;
        // Relocatable objects (firmware, cross-compile test data) are never loaded by ld.so.
        if (elf.type != 2 && elf.type != 3) continue;
        const auto* root = stack.root_of(path);
        if (root == nullptr) {
            unloaded[elf.machine].push_back({path, ""});
            continue;
        }
        report::Finding f;
        f.message =
            path + " is built for " + elf::machine_name(elf.machine) + " but the image is " +
            stack.platform.str() + " (" + elf::machine_name(*want) +
            "): ld.so skips it (\"wrong ELF class\") or exec fails with \"Exec format error\"";
        f.locations = {{path}};
        f.loaded_by = *root;
        f.fix = "Install the " + stack.platform.architecture +
                " build of this file (pip/apt pick it by platform: build with --platform " +
                stack.platform.str() + "), or remove it.";
        out.push_back(std::move(f));
    }
    for (const auto& [machine, problems] : unloaded) {
        const std::string what = "built for " + std::string(elf::machine_name(machine)) +
                                 ", not the image's " + std::string(elf::machine_name(*want));
        auto grouped = util::unloaded_findings(
            "CUV011", problems, "is " + what, "are " + what,
            "Nothing breaks while nothing loads them; remove them to slim the image.");
        out.insert(out.end(), grouped.begin(), grouped.end());
    }
    return out;
}

}  // namespace cuv011

const ValidateCheck cuv011_wrong_machine{
    CheckInfo{
        .id = "CUV011",
        .severity = report::Severity::error,
        .name = "wrong-machine",
    },
    &cuv011::run,
};

}  // namespace cuvet::checks
