#pragma once
// A root file system holding the build machine's real cuDNN 9 (/usr/local/cuda/lib64), hard
// linked rather than copied (its engine libraries are hundreds of MB), named as NVIDIA's
// archive names them (libcudnn_cnn.so.9.19.0 with the soname link beside it), and Python
// extension modules that link libcudnn.so.9 through their RUNPATH: what loads it.
#include <string>
#include <vector>

#include "support/rootfs_builder.hpp"

namespace cuvet::test {

class RealCudnn {
public:
    // Empty when usable; else why not (no cuDNN 9 here, another file system, gcc failed).
    std::string unavailable;
    std::string version;  // "9.19.0", from cudnn_version.h
    Rootfs rootfs;
    static inline const std::string dir = "/opt/cudnn/lib";
    static inline const std::string site = "/usr/local/lib/python3.10/site-packages";
    // The shim and every sub-library, by soname.
    static const std::vector<std::string>& sonames();

    RealCudnn();
    // Adds an extension module of package `package` linking libcudnn.so.9 (label "imported by
    // <package>").
    void module(const std::string& package);
    // module(package) and `package`/version.py holding `version_py`: where the framework catalog
    // (rules/frameworks.json version_files) recognises a framework and its release.
    void framework_module(const std::string& package, const std::string& version_py);
    // Deletes a library (its file and its soname link) from `dir`.
    void remove(const std::string& soname);
    // Replaces a library by a copy whose release constants say another minor; returns that
    // release ("9.18.0" for a 9.19.0 install), "" for a library that states none. libcudnn_graph
    // carries a .rodata string and an exported constant, libcudnn_ops and libcudnn_adv the
    // exported constant.
    std::string other_release(const std::string& soname);
    // Renames a library's file as NVIDIA's archive names another release
    // ("libcudnn_adv.so.9.18.0"), the soname link following it: a version in the name only.
    void name_as_release(const std::string& soname, const std::string& release);
    // Names every library by its soname only, as the pip wheel and /usr/local/cuda do: the
    // names then say only "9", and the versions are what the libraries themselves state.
    void bare_names();
    // Links an existing library of `dir` also into `other_dir` (another cuDNN dir on the path).
    void link_into(const std::string& soname, const std::string& other_dir);

private:
    bool bare_ = false;
    std::string file_of(const std::string& soname) const;  // the file, not the soname link
};

}  // namespace cuvet::test
