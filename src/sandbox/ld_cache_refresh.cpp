#include "cuvet/sandbox/ld_cache_refresh.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "cuvet/sandbox/namespaces.hpp"
#include "cuvet/sandbox/process.hpp"

namespace cuvet::sandbox {
namespace {

namespace fs = std::filesystem;

bool is_elf(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    return in && std::memcmp(magic,
                             "\x7f"
                             "ELF",
                             4) == 0;
}

}  // namespace

fs::path host_ldconfig() {
    for (const char* candidate : {"/sbin/ldconfig.real", "/usr/sbin/ldconfig.real",
                                  "/sbin/ldconfig", "/usr/sbin/ldconfig"}) {
        if (::access(candidate, X_OK) == 0 && is_elf(candidate)) return candidate;
    }
    return {};
}

std::string refresh_ld_cache(const fs::path& rootfs, const std::vector<std::string>& folders) {
    const fs::path ldconfig = host_ldconfig();
    if (ldconfig.empty())
        return "no ldconfig on this host: the image's ld.so cache was not refreshed";
    // Both opened by host root, before the switch to the unprivileged id, which may not walk to
    // them.
    const int program = ::open(ldconfig.c_str(), O_RDONLY | O_CLOEXEC);
    const int root = ::open(rootfs.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (program < 0 || root < 0) {
        if (program >= 0) ::close(program);
        if (root >= 0) ::close(root);
        return "ldconfig: " + std::string(std::strerror(errno));
    }
    ProcessSpec spec;
    spec.argv = {ldconfig.string()};
    spec.timeout = std::chrono::seconds(60);
    std::vector<std::string> words = {"ldconfig", "-r", "."};
    words.insert(words.end(), folders.begin(), folders.end());
    spec.child_setup = [program, root, words]() -> std::string {
        const rlimit no_core{0, 0};
        ::setrlimit(RLIMIT_CORE, &no_core);
        std::string error = enter_user_namespace();
        if (!error.empty()) return error;
        if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
            return "no_new_privs: " + std::string(std::strerror(errno));
        if (::fchdir(root) != 0) return "fchdir: " + std::string(std::strerror(errno));
        // -r .: ldconfig chroots into the image (CAP_SYS_CHROOT of its own namespace) and reads its
        // ld.so.conf.
        std::vector<char*> argv;
        for (const std::string& word : words) argv.push_back(const_cast<char*>(word.c_str()));
        argv.push_back(nullptr);
        char* envp[] = {nullptr};
        ::execveat(program, "", argv.data(), envp, AT_EMPTY_PATH);
        return std::string("execute ldconfig: ") + std::strerror(errno);
    };
    const ProcessResult result = run_process(spec);
    ::close(program);
    ::close(root);
    if (result.exit_code == 0) return {};
    std::string why = result.setup_error.empty() ? result.err : result.setup_error;
    while (!why.empty() && why.back() == '\n') why.pop_back();
    return "the host's ldconfig could not refresh the image's ld.so cache (exit " +
           std::to_string(result.exit_code) + "): " + why;
}

}  // namespace cuvet::sandbox
