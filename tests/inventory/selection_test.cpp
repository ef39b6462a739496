// Which files the single scan reads: decided from the tar header alone, so a
// wrong answer means a missing fact or a 500 MB file read for nothing.
#include <catch2/catch.hpp>

#include "cuvet/inventory/analysis.hpp"

namespace {

cuvet::image::FileEntry entry(const std::string& path, std::uint64_t size = 1000,
                              std::uint32_t mode = 0644) {
    cuvet::image::FileEntry e;
    e.path = path;
    e.size = size;
    e.mode = mode;
    return e;
}

}  // namespace

TEST_CASE("inventory: the scan's ELF selection", "[inventory]") {
    using cuvet::inventory::wants_elf;
    CHECK(wants_elf(entry("/usr/lib/x86_64-linux-gnu/libcudnn.so.9.1.0")));
    CHECK(wants_elf(entry("/opt/venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so")));
    CHECK(wants_elf(entry("/x/_C.cpython-311-x86_64-linux-gnu.so")));
    CHECK(wants_elf(entry("/usr/bin/python3.11", 6000000, 0755)));
    CHECK_FALSE(wants_elf(entry("/usr/lib/libfoo.sox")));
    CHECK_FALSE(wants_elf(entry("/usr/lib/libfoo.so.1", 10)));  // too small for an ELF header
    CHECK_FALSE(wants_elf(entry("/usr/share/script.sh", 1000, 0755)));  // not in a bin dir
    auto link = entry("/usr/lib/libfoo.so");
    link.type = cuvet::image::FileType::symlink;
    CHECK_FALSE(wants_elf(link));
}

TEST_CASE("inventory: the scan's text selection", "[inventory]") {
    using cuvet::inventory::wants_text;
    for (const char* path :
         {"/etc/os-release", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d/cuda.conf",
          "/var/lib/dpkg/status", "/var/lib/dpkg/status.d/libcudnn9",
          "/usr/include/x86_64-linux-gnu/cudnn_version_v9.h", "/usr/include/nccl.h",
          "/usr/local/cuda-12.4/version.json",
          "/x/site-packages/nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA",
          "/x/site-packages/torch-2.4.0+cu124.dist-info/METADATA",
          "/x/site-packages/torch/version.py",
          "/x/site-packages/tensorflow/python/platform/build_info.py",
          "/opt/conda/conda-meta/cudnn-9.1.0.70-h123_0.json",
          "/opt/conda/conda-meta/pytorch-2.3.1-py3.11_cuda12.1_cudnn8.9.2_0.json"}) {
        INFO(path);
        CHECK(wants_text(entry(path)));
    }
    for (const char* path : {"/x/site-packages/requests-2.31.0.dist-info/METADATA",
                             "/opt/conda/conda-meta/zlib-1.2.13-h5_0.json", "/usr/include/stdio.h",
                             "/x/site-packages/torch/__init__.py", "/srv/version.json"}) {
        INFO(path);
        CHECK_FALSE(wants_text(entry(path)));
    }
    CHECK_FALSE(wants_text(entry("/var/lib/dpkg/status", 100u << 20)));  // absurd size
}
