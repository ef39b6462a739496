#pragma once
// Real ELF files compiled at test time with the host's gcc (and nvcc when
// present), shared by the elf tests. Built once per test process.
#include <filesystem>
#include <optional>
#include <string>

#include "support/temp_dir.hpp"

namespace cuvet::test {

struct ElfFixtures {
    TempDir dir;
    std::filesystem::path base;     // libbase.so: soname libbase.so.1, verdef BASE_1.0 BASE_2.0
    std::filesystem::path user;     // libuser.so: needs libbase (verneed), DT_RPATH, dlopen strings
    std::filesystem::path runpath;  // librun.so: DT_RUNPATH (--enable-new-dtags)
    std::filesystem::path exe;      // an executable linked against libuser.so
    // -m32 -nostdlib (no 32-bit libc needed): libm32.so needs libbase32.so.1
    // (verneed BASE_1.0/BASE_2.0) with DT_RPATH /opt/m32. Empty without gcc -m32.
    std::filesystem::path lib32, lib32_base;
    std::filesystem::path
        cuda;           // libkern.so built by nvcc (sm_80 SASS, compute_90 PTX); empty without nvcc
    std::string error;  // why a required fixture failed to build
};

// Compiles every fixture on first use. REQUIRE(fixtures.error.empty()) in tests.
const ElfFixtures& elf_fixtures();

// Path of nvcc when available (PATH or /usr/local/cuda/bin), empty otherwise.
std::string find_nvcc();

}  // namespace cuvet::test
