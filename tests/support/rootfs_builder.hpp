#pragma once
// Root file systems built at test time: a real glibc copied from the build
// machine, libraries and programs compiled with gcc into it, links, text
// files. Read as an image through image::open_image(root), and run with
// `chroot root /lib64/ld-linux-x86-64.so.2 --list` for the loader oracle.
#include <filesystem>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"

namespace cuvet::test {

class Rootfs {
public:
    Rootfs();
    const std::filesystem::path& root() const { return root_; }
    std::filesystem::path host(const std::string& image_path) const;

    // Copies ld.so and libc.so.6 of the build machine into a merged-/usr
    // Debian layout (/lib -> usr/lib, /lib64 -> usr/lib64). False if absent.
    bool add_host_glibc();

    // gcc -shared -fPIC: soname, extra flags ("-Wl,-rpath,…"), DT_NEEDED
    // entries as "-L<image dir>" / "-l:<file>" pairs through `needs`
    // ({"/opt/b/libb.so.1"} adds -L$ROOT/opt/b -l:libb.so.1).
    void lib(const std::string& path, const std::string& soname,
             const std::vector<std::string>& needs = {}, const std::string& flags = "");
    // lib() with the C source given: its functions are what it exports, the
    // functions it calls without defining are what it imports.
    void lib_source(const std::string& path, const std::string& soname, const std::string& source,
                    const std::vector<std::string>& needs = {}, const std::string& flags = "");
    void exe(const std::string& path, const std::vector<std::string>& needs = {},
             const std::string& flags = "");
    // exe() with the C source given (a program whose .rodata says something).
    void exe_source(const std::string& path, const std::string& source,
                    const std::vector<std::string>& needs = {}, const std::string& flags = "");
    void write(const std::string& path, const std::string& content);
    void symlink(const std::string& path, const std::string& target);
    void mkdir(const std::string& path);

    // Empty when every step worked; else the first failure (gcc's stderr).
    const std::string& error() const { return error_; }

private:
    void compile(const std::string& kind_flags, const std::string& path,
                 const std::vector<std::string>& needs, const std::string& flags,
                 const std::string& source = "");

    TempDir dir_;
    std::filesystem::path root_;
    std::string error_;
    int counter_ = 0;
};

}  // namespace cuvet::test
