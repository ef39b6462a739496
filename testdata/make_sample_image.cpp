// Writes the bundled sample image (testdata/README.md says what is in it):
//   make_sample_image OUT.tar LIBDIR
// LIBDIR holds the stand-in shared libraries that the build compiled with gcc.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/image_writer.hpp"

namespace {

using namespace cuvet::test;
namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

const char* const os_release = R"txt(PRETTY_NAME="Ubuntu 22.04.4 LTS"
NAME="Ubuntu"
VERSION_ID="22.04"
VERSION="22.04.4 LTS (Jammy Jellyfish)"
VERSION_CODENAME=jammy
ID=ubuntu
ID_LIKE=debian
HOME_URL="https://www.ubuntu.com/"
UBUNTU_CODENAME=jammy
)txt";

std::string dpkg_entry(const std::string& package, const std::string& version,
                       const std::string& section, const std::string& description) {
    return "Package: " + package +
           "\nStatus: install ok installed\nPriority: optional\nSection: " + section +
           "\nInstalled-Size: 1024\nMaintainer: cuvet sample <sample@cuvet.invalid>\n" +
           "Architecture: amd64\nVersion: " + version + "\nDescription: " + description + "\n\n";
}

std::string dpkg_base() {
    return dpkg_entry("libc6", "2.35-0ubuntu3.6", "libs", "GNU C Library: Shared libraries") +
           dpkg_entry("libstdc++6", "12.3.0-1ubuntu1~22.04", "libs",
                      "GNU Standard C++ Library v3") +
           dpkg_entry("perl-base", "5.34.0-3ubuntu1.3", "perl", "minimal Perl system");
}

std::string dpkg_cuda() {
    return dpkg_entry("cuda-cudart-12-1", "12.1.105-1", "devel", "CUDA Runtime native Libraries") +
           dpkg_entry("cuda-compat-12-1", "530.30.02-1", "devel", "CUDA Compatibility Platform");
}

std::string dpkg_cudnn() {
    return dpkg_entry("libcudnn8", "8.6.0.163-1+cuda11.8", "libs", "cuDNN runtime libraries");
}

Layer base_layer() {
    Layer layer;
    layer.created_by =
        "/bin/sh -c #(nop) ADD "
        "file:63d5ab3ef0aab308c0e71cb67292c5467f60deafa9b0418cbb220affcd078444 in / ";
    layer.empty_history_before = {"/bin/sh -c #(nop)  ARG RELEASE",
                                  "/bin/sh -c #(nop)  ARG LAUNCHPAD_BUILD_ARCH"};
    const std::string perl = "#!/bin/sh\n# stand-in for perl, kept small\nexit 0\n";
    layer.entries = {
        dir("etc/"),
        dir("usr/"),
        dir("usr/bin/"),
        dir("usr/lib/"),
        dir("usr/lib/x86_64-linux-gnu/"),
        dir("usr/lib64/"),
        dir("var/"),
        dir("var/lib/"),
        dir("var/lib/dpkg/"),
        dir("tmp/", 01777),
        // Ubuntu 22.04 has a merged /usr: /bin, /lib and /lib64 are symlinks.
        soft_link("bin", "usr/bin"),
        soft_link("lib", "usr/lib"),
        soft_link("lib64", "usr/lib64"),
        file("usr/lib/os-release", os_release),
        soft_link("etc/os-release", "../usr/lib/os-release"),
        file("etc/debian_version", "bookworm/sid\n"),
        file("etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n"),
        dir("etc/ld.so.conf.d/"),
        file("etc/ld.so.conf.d/x86_64-linux-gnu.conf",
             "# Multiarch support\n/usr/local/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu\n"
             "/usr/lib/x86_64-linux-gnu\n"),
        file("usr/bin/perl", perl, 0755),
        // Debian ships perl's versioned name as a hard link, not a symlink.
        hard_link("usr/bin/perl5.34.0", "usr/bin/perl"),
        file("var/lib/dpkg/status", dpkg_base()),
    };
    return layer;
}

Layer cuda_layer(const fs::path& libdir) {
    Layer layer;
    layer.empty_history_before = {
        "ENV NVARCH=x86_64",
        "ENV NVIDIA_REQUIRE_CUDA=cuda>=12.1 brand=tesla,driver>=470,driver<471 "
        "brand=tesla,driver>=525,driver<526",
        "ENV NV_CUDA_CUDART_VERSION=12.1.105-1",
        "ENV CUDA_VERSION=12.1.1",
    };
    layer.created_by =
        "RUN /bin/sh -c apt-get update && apt-get install -y --no-install-recommends "
        "cuda-cudart-12-1=${NV_CUDA_CUDART_VERSION} cuda-compat-12-1 && "
        "ln -s cuda-12.1 /usr/local/cuda # buildkit";
    const std::string version_json = R"json({
   "cuda" : { "name" : "CUDA SDK", "version" : "12.1.1" },
   "cuda_cudart" : { "name" : "CUDA Runtime (cudart)", "version" : "12.1.105" },
   "cuda_compat" : { "name" : "CUDA Compatibility Platform", "version" : "530.30.02" }
}
)json";
    layer.entries = {
        dir("usr/local/"),
        dir("usr/local/cuda-12.1/"),
        dir("usr/local/cuda-12.1/targets/"),
        dir("usr/local/cuda-12.1/targets/x86_64-linux/"),
        dir("usr/local/cuda-12.1/targets/x86_64-linux/lib/"),
        file("usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12.1.105",
             slurp(libdir / "libcudart.so.12.1.105"), 0644),
        soft_link("usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudart.so.12",
                  "libcudart.so.12.1.105"),
        soft_link("usr/local/cuda-12.1/lib64", "targets/x86_64-linux/lib"),
        file("usr/local/cuda-12.1/version.json", version_json),
        // As update-alternatives does it: an absolute link through /etc.
        dir("etc/alternatives/"),
        soft_link("etc/alternatives/cuda", "/usr/local/cuda-12.1"),
        soft_link("usr/local/cuda", "/etc/alternatives/cuda"),
        file("etc/ld.so.conf.d/000_cuda.conf", "/usr/local/cuda/targets/x86_64-linux/lib\n"),
        dir("var/lib/apt/"),
        dir("var/lib/apt/lists/"),
        file("var/lib/apt/lists/archive.ubuntu.com_ubuntu_dists_jammy_InRelease",
             "Origin: Ubuntu\nLabel: Ubuntu\nSuite: jammy\n"),
        file("var/lib/dpkg/status", dpkg_base() + dpkg_cuda()),
    };
    return layer;
}

Layer cudnn_layer(const fs::path& libdir) {
    Layer layer;
    layer.empty_history_before = {"ENV NV_CUDNN_VERSION=8.6.0.163",
                                  "ENV NV_CUDNN_PACKAGE_NAME=libcudnn8"};
    layer.created_by =
        "RUN /bin/sh -c apt-get update && apt-get install -y --no-install-recommends "
        "${NV_CUDNN_PACKAGE_NAME}=${NV_CUDNN_VERSION}-1+cuda11.8 # buildkit";
    const std::string version_h =
        "#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n#define CUDNN_MAJOR 8\n"
        "#define CUDNN_MINOR 6\n#define CUDNN_PATCHLEVEL 0\n"
        "#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + "
        "CUDNN_PATCHLEVEL)\n#endif\n";
    layer.entries = {
        file("usr/lib/x86_64-linux-gnu/libcudnn.so.8.6.0", slurp(libdir / "libcudnn.so.8.6.0")),
        soft_link("usr/lib/x86_64-linux-gnu/libcudnn.so.8", "libcudnn.so.8.6.0"),
        dir("usr/include/"),
        dir("usr/include/x86_64-linux-gnu/"),
        file("usr/include/x86_64-linux-gnu/cudnn_version_v8.h", version_h),
        dir("var/cache/"),
        dir("var/cache/apt/"),
        dir("var/cache/apt/archives/"),
        // Left behind by this layer, deleted by the next one (a whiteout).
        file("var/cache/apt/archives/libcudnn8_8.6.0.163-1+cuda11.8_amd64.deb",
             "!<arch>\ndebian-binary   1700000000  0     0     100644  4         `\n2.0\n"),
        file("var/lib/dpkg/status", dpkg_base() + dpkg_cuda() + dpkg_cudnn()),
    };
    return layer;
}

Layer torch_layer(const fs::path& libdir) {
    Layer layer;
    layer.empty_history_before = {
        "ENV PATH=/opt/venv/bin:/usr/local/nvidia/bin:/usr/local/cuda/bin:"
        "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"};
    layer.created_by =
        "RUN /bin/sh -c python3 -m venv /opt/venv && pip install --no-cache-dir torch==2.1.0+cu121 "
        "nvidia-cudnn-cu12==8.9.2.26 && rm -rf /var/cache/apt/archives/*.deb /var/lib/apt/lists "
        "&& mkdir /var/lib/apt/lists # buildkit";
    const std::string sp = "opt/venv/lib/python3.10/site-packages/";
    const std::string version_py =
        "__version__ = '2.1.0+cu121'\ndebug = False\ncuda: Optional[str] = '12.1'\n"
        "git_version = '7bcf7da3a268b435777fe87c7794c382f444e86d'\nhip: Optional[str] = None\n";
    const std::string torch_metadata =
        "Metadata-Version: 2.1\nName: torch\nVersion: 2.1.0+cu121\n"
        "Summary: Tensors and Dynamic neural networks in Python with strong GPU acceleration\n"
        "Requires-Python: >=3.8.0\nRequires-Dist: filelock\nRequires-Dist: typing-extensions\n"
        "Requires-Dist: nvidia-cuda-runtime-cu12 (==12.1.105) ; platform_system == \"Linux\"\n"
        "Requires-Dist: nvidia-cudnn-cu12 (==8.9.2.26) ; platform_system == \"Linux\"\n";
    const std::string cudnn_metadata =
        "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 8.9.2.26\n"
        "Summary: cuDNN runtime libraries\nRequires-Python: >=3\nRequires-Dist: "
        "nvidia-cublas-cu12\n";
    layer.entries = {
        dir("usr/"),
        dir("usr/bin/"),
        file("usr/bin/python3.10", slurp(libdir / "python3.10"), 0755),
        soft_link("usr/bin/python3", "python3.10"),
        dir("opt/"),
        dir("opt/venv/"),
        dir("opt/venv/bin/"),
        soft_link("opt/venv/bin/python3", "/usr/bin/python3"),
        soft_link("opt/venv/bin/python", "python3"),
        dir("opt/venv/lib/"),
        dir("opt/venv/lib/python3.10/"),
        dir(sp),
        file("opt/venv/pyvenv.cfg",
             "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.10.12\n"),
        dir(sp + "torch/"),
        dir(sp + "torch/lib/"),
        file(sp + "torch/__init__.py", "from .version import __version__\n"),
        file(sp + "torch/version.py", version_py),
        file(sp + "torch/lib/libtorch_cuda.so", slurp(libdir / "libtorch_cuda.so"), 0755),
        dir(sp + "torch-2.1.0+cu121.dist-info/"),
        file(sp + "torch-2.1.0+cu121.dist-info/METADATA", torch_metadata),
        file(sp + "torch-2.1.0+cu121.dist-info/INSTALLER", "pip\n"),
        dir(sp + "nvidia/"),
        dir(sp + "nvidia/cudnn/"),
        dir(sp + "nvidia/cudnn/lib/"),
        file(sp + "nvidia/__init__.py", ""),
        file(sp + "nvidia/cudnn/__init__.py", ""),
        file(sp + "nvidia/cudnn/lib/libcudnn.so.8", slurp(libdir / "libcudnn.so.8.9.2"), 0755),
        dir(sp + "nvidia_cudnn_cu12-8.9.2.26.dist-info/"),
        file(sp + "nvidia_cudnn_cu12-8.9.2.26.dist-info/METADATA", cudnn_metadata),
        whiteout("var/cache/apt/archives/libcudnn8_8.6.0.163-1+cuda11.8_amd64.deb"),
        dir("var/lib/apt/lists/"),
        opaque("var/lib/apt/lists"),
    };
    return layer;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: make_sample_image OUT.tar LIBDIR\n");
        return 2;
    }
    try {
        fs::path libdir = argv[2];
        ImageSpec spec;
        spec.repo_tags = {"cuvet/sample-pytorch:2.1.0-cuda12.1"};
        spec.layers = {base_layer(), cuda_layer(libdir), cudnn_layer(libdir), torch_layer(libdir)};
        spec.env = {
            "PATH=/opt/venv/bin:/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/"
            "local/bin:"
            "/usr/sbin:/usr/bin:/sbin:/bin",
            "NVARCH=x86_64",
            "NVIDIA_REQUIRE_CUDA=cuda>=12.1 brand=tesla,driver>=470,driver<471 "
            "brand=tesla,driver>=525,driver<526",
            "NV_CUDA_CUDART_VERSION=12.1.105-1",
            "CUDA_VERSION=12.1.1",
            // The trap: the system lib dir listed here beats torch's RUNPATH, so
            // the loader takes the system cuDNN 8.6 (built for CUDA 11.8)
            // instead of the wheel's 8.9.2 that torch was built against.
            "LD_LIBRARY_PATH=/usr/local/nvidia/lib:/usr/local/nvidia/lib64:/usr/local/cuda/lib64:"
            "/usr/lib/x86_64-linux-gnu",
            "NVIDIA_VISIBLE_DEVICES=all",
            "NVIDIA_DRIVER_CAPABILITIES=compute,utility",
            "NV_CUDNN_VERSION=8.6.0.163",
            "NV_CUDNN_PACKAGE_NAME=libcudnn8",
        };
        spec.cmd = {"python3", "-c", "import torch; print(torch.backends.cudnn.version())"};
        spec.working_dir = "/workspace";
        spec.labels = {{"maintainer", "cuvet sample"}, {"com.nvidia.cudnn.version", "8.6.0.163"}};
        docker_archive({spec}, DockerLayout::blobs).write_tar(argv[1]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_sample_image: %s\n", e.what());
        return 1;
    }
    return 0;
}
