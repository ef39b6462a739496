#include "support/real_cudnn.hpp"

#include <filesystem>
#include <fstream>
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

void RealCudnn::module(const std::string& package) {
    rootfs.lib(site + "/" + package + "/_C.cpython-310-x86_64-linux-gnu.so", "_C.so",
               {dir + "/libcudnn.so.9"}, "-Wl,-rpath," + dir);
    if (!rootfs.error().empty() && unavailable.empty()) unavailable = rootfs.error();
}

void RealCudnn::remove(const std::string& soname) {
    std::error_code ec;
    fs::remove(rootfs.host(dir + "/" + soname + "." + version.substr(2)), ec);
    fs::remove(rootfs.host(dir + "/" + soname), ec);
}

std::string RealCudnn::other_release(const std::string& soname) {
    const auto file = rootfs.host(dir + "/" + soname + "." + version.substr(2));
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
    auto at = bytes.find(from);
    if (at == std::string::npos) return "";
    bytes.replace(at, from.size(), to);
    std::error_code ec;
    fs::remove(file, ec);  // a hard link: write a new file, never through the link
    std::ofstream(file, std::ios::binary) << bytes;
    return major + "." + other + "." + patch;
}

void RealCudnn::link_into(const std::string& soname, const std::string& other_dir) {
    rootfs.mkdir(other_dir);
    std::error_code ec;
    fs::create_hard_link(rootfs.host(dir + "/" + soname + "." + version.substr(2)),
                         rootfs.host(other_dir + "/" + soname), ec);
    if (ec && unavailable.empty())
        unavailable = "hard link into " + other_dir + ": " + ec.message();
}

}  // namespace cuvet::test
