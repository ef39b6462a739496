#include "support/rootfs_builder.hpp"

#include "support/process.hpp"

namespace cuvet::test {

namespace fs = std::filesystem;

Rootfs::Rootfs() : root_(dir_.path() / "root") { fs::create_directories(root_); }

fs::path Rootfs::host(const std::string& image_path) const {
    return root_ / fs::path(image_path).relative_path();
}

bool Rootfs::add_host_glibc() {
    auto ld = fs::path("/lib64/ld-linux-x86-64.so.2");
    auto libc = fs::path("/lib/x86_64-linux-gnu/libc.so.6");
    std::error_code ec;
    if (!fs::exists(ld, ec) || !fs::exists(libc, ec)) return false;
    mkdir("/usr/lib/x86_64-linux-gnu");
    mkdir("/usr/lib64");
    symlink("/lib", "usr/lib");
    symlink("/lib64", "usr/lib64");
    fs::copy_file(fs::canonical(ld), host("/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"), ec);
    if (!ec) fs::copy_file(fs::canonical(libc), host("/usr/lib/x86_64-linux-gnu/libc.so.6"), ec);
    if (ec) return false;
    symlink("/usr/lib64/ld-linux-x86-64.so.2", "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
    return true;
}

void Rootfs::mkdir(const std::string& path) { fs::create_directories(host(path)); }

void Rootfs::write(const std::string& path, const std::string& content) {
    fs::create_directories(host(path).parent_path());
    write_file(host(path), content);
}

void Rootfs::symlink(const std::string& path, const std::string& target) {
    fs::create_directories(host(path).parent_path());
    std::error_code ec;
    fs::remove(host(path), ec);
    fs::create_symlink(target, host(path), ec);
    if (ec && error_.empty()) error_ = "symlink " + path + ": " + ec.message();
}

void Rootfs::compile(const std::string& kind_flags, const std::string& path,
                     const std::vector<std::string>& needs, const std::string& flags,
                     const std::string& source) {
    auto src = dir_.path() / ("src" + std::to_string(counter_++) + ".c");
    std::string symbol = "f" + std::to_string(counter_);
    write_file(src, !source.empty() ? source
                    : kind_flags.find("-shared") != std::string::npos
                        ? "int " + symbol + "(void) { return 1; }\n"
                        : "int main(void) { return 0; }\n");
    fs::create_directories(host(path).parent_path());
    std::string cmd = "gcc " + kind_flags + " -o " + shell_quote(host(path).string()) + " " +
                      shell_quote(src.string()) + " -Wl,--no-as-needed " + flags;
    for (const auto& need : needs) {
        auto p = fs::path(need);
        cmd += " -L" + shell_quote(host(p.parent_path().string()).string()) +
               " -l:" + shell_quote(p.filename().string());
    }
    auto r = run_shell(cmd);
    if (r.exit_code != 0 && error_.empty()) error_ = cmd + ": " + r.err;
}

void Rootfs::lib(const std::string& path, const std::string& soname,
                 const std::vector<std::string>& needs, const std::string& flags) {
    compile("-shared -fPIC -Wl,-soname," + soname, path, needs, flags);
}

void Rootfs::lib_source(const std::string& path, const std::string& soname,
                        const std::string& source, const std::vector<std::string>& needs,
                        const std::string& flags) {
    compile("-shared -fPIC -Wl,-soname," + soname, path, needs, flags, source);
}

void Rootfs::exe(const std::string& path, const std::vector<std::string>& needs,
                 const std::string& flags) {
    compile("-Wl,--allow-shlib-undefined", path, needs, flags);
}

void Rootfs::exe_source(const std::string& path, const std::string& source,
                        const std::vector<std::string>& needs, const std::string& flags) {
    compile("-Wl,--allow-shlib-undefined", path, needs, flags, source);
}

}  // namespace cuvet::test
