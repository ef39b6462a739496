#pragma once
// Facts about one ELF file, read from its bytes (a pure function of them).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuvet::elf {

struct VersionNeed {
    std::string file;                   // "libc.so.6", "libcudart.so.12"
    std::vector<std::string> versions;  // "GLIBC_2.34", "libcudart.so.12"
    bool operator==(const VersionNeed&) const = default;
};

struct ElfInfo {
    bool is_64bit = true;
    std::uint16_t machine = 0;  // EM_X86_64 = 62, EM_AARCH64 = 183
    std::uint16_t type = 0;     // ET_DYN, ET_EXEC
    std::string soname;
    std::vector<std::string> needed;   // DT_NEEDED, in order
    std::vector<std::string> rpath;    // DT_RPATH split on ':'
    std::vector<std::string> runpath;  // DT_RUNPATH split on ':'
    bool has_rpath = false, has_runpath = false;
    std::vector<VersionNeed> version_needs;
    std::vector<std::string> version_definitions;  // verdef names (the first is usually the soname)
    std::vector<std::string> imported_symbols;     // undefined dynamic symbols
    std::vector<std::string> exported_symbols;     // defined dynamic symbols (global/weak)
    std::vector<std::string>
        weak_imported_symbols;    // imported ones bound weakly: may stay unresolved
    std::vector<int> sass_archs;  // from .nv_fatbin: 80 for sm_80
    std::vector<int> ptx_archs;   // from .nv_fatbin: 90 for compute_90
    bool has_fatbin = false;
    // Where the archs above come from, per section: .nv_fatbin, plus the
    // sections where some CUDA libraries keep fatbins they load themselves
    // (libcufft: .ldata; libcublasLt, cuDNN: .cask_resource). sass_archs and
    // ptx_archs are the union of these.
    struct FatbinSource {
        std::string section;
        std::vector<int> sass_archs, ptx_archs;
        std::size_t containers = 0;
        bool operator==(const FatbinSource&) const = default;
    };
    std::vector<FatbinSource> fatbin_sources;
    std::vector<std::string> dlopen_candidates;  // "libcudnn.so.8" strings found in .rodata
    // NVIDIA's compilers (ptxas, nvcc, nvdisasm) state their toolkit release in the banner
    // --version prints ("Cuda compilation tools, release 12.8, V12.8.93"): "12.8.93".
    // Read from .rodata of files without a soname; "" when absent.
    std::string cuda_tools_release;
    // cuDNN 9's libcudnn_graph keeps its full release in a constant of .rodata
    // ("cudnn_version_9_19_0_56_"): "9.19.0". Read only from libraries whose soname
    // starts with "libcudnn"; "" when absent. The file name says only "9".
    std::string cudnn_release;

    bool operator==(const ElfInfo&) const = default;
};

// A malformed file yields nullopt and, if given, a reason. Throws only
// LimitExceeded (cuvet/core/scan_limits.hpp): a file listing more than a scan
// limit allows (DT_NEEDED entries, symbols) is bad input, not a smaller file.
std::optional<ElfInfo> inspect(std::string_view bytes, std::string* why_not = nullptr);

// True when the bytes start with the ELF magic (cheap pre-filter for the scan).
inline bool looks_like_elf(std::string_view head) {
    return head.size() >= 4 && head.substr(0, 4) == std::string_view(
                                                        "\x7f"
                                                        "ELF",
                                                        4);
}

std::string machine_name(std::uint16_t machine);  // "x86-64", "AArch64", …

}  // namespace cuvet::elf
