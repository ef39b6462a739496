// CUV011 wrong-machine
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "check_util.hpp"
#include "checks.hpp"

namespace cuvet::checks {

namespace {

std::optional<std::uint16_t> expected_machine(const std::string& architecture) {
    static const std::map<std::string, std::uint16_t> machines = {
        {"amd64", 62}, {"arm64", 183}, {"ppc64le", 21}, {"s390x", 22}, {"386", 3}, {"arm", 40}, {"riscv64", 243}};
    auto it = machines.find(architecture);
    if (it == machines.end()) return std::nullopt;
    return it->second;
}

std::vector<report::Finding> run(const Stack& stack, const rules::Database&) {
    std::vector<report::Finding> out;
    auto want = expected_machine(stack.platform.architecture);
    if (!want || stack.elfs == nullptr) return out;
    for (const auto& [path, elf] : *stack.elfs) {
        if (elf.machine == *want || elf.machine == 0) continue;
        // Relocatable objects (firmware, cross-compile test data) are never loaded by ld.so.
        if (elf.type != 2 && elf.type != 3) continue;
        report::Finding f;
        f.message = path + " is built for " + elf::machine_name(elf.machine) + " but the image is " + stack.platform.str() +
                    " (" + elf::machine_name(*want) + "): ld.so skips it (\"wrong ELF class\") or exec fails with \"Exec format error\"";
        f.locations = {{path}};
        f.fix = "Install the " + stack.platform.architecture + " build of this file (pip/apt pick it by platform: build with --platform " +
                stack.platform.str() + "), or remove it.";
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace

const ValidateCheck cuv011_wrong_machine{
    CheckInfo{
        .id = "CUV011",
        .severity = report::Severity::error,
        .title = "An ELF file of the wrong machine for the image's platform",
        .rationale = "An x86-64 library in a linux/arm64 image (or the reverse) is skipped by the loader (\"wrong ELF class\" / \"cannot open shared object file\"), so a wheel copied from another platform or a multi-arch build that mixed stages leaves a library that silently never loads.",
        .failing_example = "image platform linux/arm64\n/opt/app/libkernels.so: ELF x86-64\n# → CUV011",
        .passing_example = "image platform linux/arm64, /opt/app/libkernels.so: ELF AArch64",
        .fix = "Install the package for the image's architecture (pip --platform manylinux2014_aarch64, the arm64 apt package) or build that stage with the right --platform.",
        .name = "wrong-machine",
    },
    &run,
};

}  // namespace cuvet::checks
