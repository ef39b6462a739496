#include <string>

#include "cuvet/elf/elf_info.hpp"

namespace cuvet::elf {

// Names as readelf prints them, for the machines a container image can hold.
std::string machine_name(std::uint16_t machine) {
    switch (machine) {
        case 0:
            return "none";
        case 3:
            return "x86";
        case 8:
            return "MIPS";
        case 20:
            return "PowerPC";
        case 21:
            return "PowerPC64";
        case 22:
            return "S/390";
        case 40:
            return "ARM";
        case 62:
            return "x86-64";
        case 183:
            return "AArch64";
        case 190:
            return "NVIDIA CUDA";
        case 243:
            return "RISC-V";
        case 258:
            return "LoongArch";
        default:
            return "machine " + std::to_string(machine);
    }
}

}  // namespace cuvet::elf
