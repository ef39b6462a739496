#include "support/real_cudnn.hpp"

#include <elf.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>

namespace cuvet::test {

namespace fs = std::filesystem;

namespace {

const fs::path lib64 = "/usr/local/cuda/lib64";

std::string read_all(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

std::string header_version() {
    const std::string text = read_all("/usr/local/cuda/include/cudnn_version.h");
    std::string out;
    for (const char* name : {"CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"}) {
        std::smatch m;
        if (!std::regex_search(text, m, std::regex(std::string("#define ") + name + R"(\s+(\d+))")))
            return "";
        out += (out.empty() ? "" : ".") + m[1].str();
    }
    return out;
}

// Where the release constant a cuDNN 9 library exports (cudnn_ops_infer_version, …: 4 bytes)
// lies in the file, read with the system's <elf.h> rather than cuvet's reader under test.
std::optional<std::size_t> exported_constant_at(const std::string& bytes) {
    auto at = [&bytes](std::uint64_t offset, std::uint64_t size) {
        return offset <= bytes.size() && size <= bytes.size() - offset;
    };
    if (!at(0, sizeof(Elf64_Ehdr))) return std::nullopt;
    Elf64_Ehdr header;
    std::memcpy(&header, bytes.data(), sizeof header);
    auto section = [&](std::size_t index) -> std::optional<Elf64_Shdr> {
        const std::uint64_t offset = header.e_shoff + index * sizeof(Elf64_Shdr);
        if (index >= header.e_shnum || !at(offset, sizeof(Elf64_Shdr))) return std::nullopt;
        Elf64_Shdr out;
        std::memcpy(&out, bytes.data() + offset, sizeof out);
        return out;
    };
    for (std::size_t i = 0; i < header.e_shnum; ++i) {
        const auto dynsym = section(i);
        if (!dynsym || dynsym->sh_type != SHT_DYNSYM) continue;
        const auto strtab = section(dynsym->sh_link);
        if (!strtab || !at(dynsym->sh_offset, dynsym->sh_size)) return std::nullopt;
        for (std::uint64_t s = 1; s < dynsym->sh_size / sizeof(Elf64_Sym); ++s) {
            Elf64_Sym symbol;
            std::memcpy(&symbol, bytes.data() + dynsym->sh_offset + s * sizeof symbol,
                        sizeof symbol);
            if (symbol.st_size != 4 || symbol.st_shndx == SHN_UNDEF ||
                !at(strtab->sh_offset + symbol.st_name, 1))
                continue;
            const std::string name(bytes.c_str() + strtab->sh_offset + symbol.st_name);
            if (!name.starts_with("cudnn_") || !name.ends_with("_version")) continue;
            const auto holder = section(symbol.st_shndx);
            if (!holder) return std::nullopt;
            return holder->sh_offset + (symbol.st_value - holder->sh_addr);
        }
    }
    return std::nullopt;
}

}  // namespace

const std::vector<std::string>& RealCudnn::sonames() {
    static const std::vector<std::string> names = {"libcudnn.so.9",
                                                   "libcudnn_graph.so.9",
                                                   "libcudnn_engines_precompiled.so.9",
                                                   "libcudnn_engines_runtime_compiled.so.9",
                                                   "libcudnn_heuristic.so.9",
                                                   "libcudnn_ops.so.9",
                                                   "libcudnn_cnn.so.9",
                                                   "libcudnn_adv.so.9"};
    return names;
}

RealCudnn::RealCudnn() {
    version = header_version();
    if (version.rfind("9.", 0) != 0) {
        unavailable = "no cuDNN 9 header at /usr/local/cuda/include/cudnn_version.h";
        return;
    }
    rootfs.mkdir(dir);
    for (const auto& name : sonames()) {
        std::error_code ec;
        const auto real = lib64 / name;
        if (!fs::exists(real, ec)) {
            unavailable = "no " + real.string();
            return;
        }
        fs::create_hard_link(fs::canonical(real),
                             rootfs.host(dir + "/" + name + "." + version.substr(2)), ec);
        if (ec) {
            unavailable = "cannot hard-link " + real.string() + " into a temp dir: " + ec.message();
            return;
        }
        rootfs.symlink(dir + "/" + name, name + "." + version.substr(2));
    }
}

std::string RealCudnn::file_of(const std::string& soname) const {
    return dir + "/" + soname + (bare_ ? "" : "." + version.substr(2));
}

void RealCudnn::module(const std::string& package) {
    rootfs.lib(site + "/" + package + "/_C.cpython-310-x86_64-linux-gnu.so", "_C.so",
               {dir + "/libcudnn.so.9"}, "-Wl,-rpath," + dir);
    if (!rootfs.error().empty() && unavailable.empty()) unavailable = rootfs.error();
}

void RealCudnn::framework_module(const std::string& package, const std::string& version_py) {
    module(package);
    rootfs.write(site + "/" + package + "/version.py", version_py);
}

void RealCudnn::remove(const std::string& soname) {
    std::error_code ec;
    fs::remove(rootfs.host(file_of(soname)), ec);
    fs::remove(rootfs.host(dir + "/" + soname), ec);
}

std::string RealCudnn::other_release(const std::string& soname) {
    const auto file = rootfs.host(file_of(soname));
    std::string bytes = read_all(file);
    const std::string major = version.substr(0, version.find('.'));
    const std::string minor =
        version.substr(version.find('.') + 1, version.rfind('.') - version.find('.') - 1);
    const std::string patch = version.substr(version.rfind('.') + 1);
    // Same length, so the rest of the file stays where it was.
    std::string other = minor;
    other.back() = other.back() == '0' ? '1' : static_cast<char>(other.back() - 1);
    const std::string from = "cudnn_version_" + major + "_" + minor + "_" + patch + "_";
    const std::string to = "cudnn_version_" + major + "_" + other + "_" + patch + "_";
    // libcudnn_graph states it twice (a string and an exported constant), libcudnn_ops and
    // libcudnn_adv once (the constant), the others not at all.
    const auto string_at = bytes.find(from);
    const auto constant_at = exported_constant_at(bytes);
    if (string_at == std::string::npos && !constant_at) return "";
    if (string_at != std::string::npos) bytes.replace(string_at, from.size(), to);
    if (constant_at) bytes[*constant_at + 1] = static_cast<char>(std::stoi(other));
    std::error_code ec;
    fs::remove(file, ec);  // a hard link: write a new file, never through the link
    std::ofstream(file, std::ios::binary) << bytes;
    return major + "." + other + "." + patch;
}

void RealCudnn::name_as_release(const std::string& soname, const std::string& release) {
    const std::string renamed = soname + "." + release.substr(release.find('.') + 1);
    std::error_code ec;
    fs::rename(rootfs.host(file_of(soname)), rootfs.host(dir + "/" + renamed), ec);
    fs::remove(rootfs.host(dir + "/" + soname), ec);
    rootfs.symlink(dir + "/" + soname, renamed);
}

void RealCudnn::bare_names() {
    for (const auto& name : sonames()) {
        std::error_code ec;
        fs::remove(rootfs.host(dir + "/" + name), ec);
        fs::rename(rootfs.host(dir + "/" + name + "." + version.substr(2)),
                   rootfs.host(dir + "/" + name), ec);
    }
    bare_ = true;
}

void RealCudnn::link_into(const std::string& soname, const std::string& other_dir) {
    rootfs.mkdir(other_dir);
    std::error_code ec;
    fs::create_hard_link(rootfs.host(file_of(soname)), rootfs.host(other_dir + "/" + soname), ec);
    if (ec && unavailable.empty())
        unavailable = "hard link into " + other_dir + ": " + ec.message();
}

}  // namespace cuvet::test
