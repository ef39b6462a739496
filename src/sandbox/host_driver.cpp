#include "cuvet/sandbox/host_driver.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "cuvet/sandbox/process.hpp"

namespace cuvet::sandbox {
namespace {

namespace fs = std::filesystem;

bool wanted(const std::string& soname) {
    for (const std::string& prefix : driver_library_prefixes()) {
        if (soname.rfind(prefix, 0) == 0) return true;
    }
    return false;
}

// A soname is "libx.so.N" (never the unversioned dev symlink "libx.so").
bool versioned_soname(const std::string& name) {
    const std::size_t at = name.find(".so.");
    return at != std::string::npos && at + 4 < name.size();
}

std::string run_ldconfig() {
    for (const char* candidate : {"/sbin/ldconfig", "/usr/sbin/ldconfig", "/sbin/ldconfig.real"}) {
        std::error_code error;
        if (!fs::exists(candidate, error)) continue;
        ProcessSpec spec;
        spec.argv = {candidate, "-p"};
        spec.environment = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin"};
        spec.timeout = std::chrono::seconds(20);
        const ProcessResult result = run_process(spec);
        if (result.exit_code == 0) return result.out;
    }
    return {};
}

}  // namespace

const std::vector<std::string>& driver_library_prefixes() {
    static const std::vector<std::string> prefixes = {
        "libcuda.so.",           "libcudadebugger.so.",  "libnvidia-ptxjitcompiler.so.",
        "libnvidia-nvvm.so.",    "libnvidia-nvvm70.so.", "libnvidia-ml.so.",
        "libnvidia-gpucomp.so.", "libnvidia-cfg.so.",
    };
    return prefixes;
}

bool HostDriver::has_libcuda() const {
    for (const DriverLibrary& lib : libraries) {
        if (lib.soname == "libcuda.so.1") return true;
    }
    return false;
}

std::vector<DriverLibrary> parse_ldconfig(const std::string& text) {
    std::vector<DriverLibrary> found;
    std::set<std::string> seen;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        // "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1"
        const std::size_t arrow = line.find(" => ");
        const std::size_t paren = line.find(" (");
        if (arrow == std::string::npos || paren == std::string::npos || paren > arrow) continue;
        if (line.find("x86-64", paren) > arrow)
            continue;  // 32-bit copies are of no use to the probe
        std::string soname = line.substr(0, paren);
        soname.erase(0, soname.find_first_not_of(" \t"));
        if (!versioned_soname(soname) || !seen.insert(soname).second) continue;
        found.push_back({soname, line.substr(arrow + 4)});
    }
    return found;
}

HostDriver find_host_driver(const std::string& ldconfig_output, std::vector<fs::path> extra_dirs,
                            const fs::path& dev_dir) {
    HostDriver driver;
    std::set<std::string> have;
    auto add = [&](const std::string& soname, const fs::path& path) {
        std::error_code error;
        if (!wanted(soname) || have.count(soname) != 0) return;
        const fs::path real = fs::canonical(path, error);
        if (error || !fs::is_regular_file(real, error)) return;
        have.insert(soname);
        driver.libraries.push_back({soname, real});
    };

    driver.searched.push_back("ld.so cache (ldconfig -p)");
    for (const DriverLibrary& lib :
         parse_ldconfig(ldconfig_output.empty() ? run_ldconfig() : ldconfig_output)) {
        add(lib.soname, lib.path);
    }
    if (extra_dirs.empty()) {
        extra_dirs = {"/usr/local/nvidia/lib64", "/usr/lib/x86_64-linux-gnu", "/usr/lib64",
                      "/lib64", "/usr/lib/wsl/lib"};
    }
    for (const fs::path& dir : extra_dirs) {
        driver.searched.push_back(dir.string());
        std::error_code error;
        for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
            const std::string name = it->path().filename().string();
            if (versioned_soname(name) && std::count(name.begin(), name.end(), '.') == 2)
                add(name, it->path());
        }
    }

    std::error_code error;
    for (fs::directory_iterator it(dev_dir, error), end; !error && it != end; it.increment(error)) {
        if (it->path().filename().string().rfind("nvidia", 0) == 0)
            driver.device_nodes.push_back(it->path());
    }
    std::sort(driver.device_nodes.begin(), driver.device_nodes.end());
    return driver;
}

}  // namespace cuvet::sandbox
