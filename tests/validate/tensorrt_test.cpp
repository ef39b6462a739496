// TensorRT as the image has it: the Python bindings import libnvinfer, whose plugin library links
// the cuBLAS and cuDNN majors of the CUDA it was built for. A TensorRT built for CUDA 11 in a
// CUDA 12 image fails at `import tensorrt` on that link, and cuvet says so in the loader's words.
#include <catch2/catch.hpp>

#include "support/cuda_image.hpp"
#include "support/framework_wheels.hpp"

using namespace cuvet::test;
namespace fs = std::filesystem;

namespace {

// TensorRT 8.6 from the tar/apt layout in /usr/lib/x86_64-linux-gnu, its bindings in site-packages.
// `cublas` is the soname libnvinfer_plugin links ("libcublas.so.11" for the CUDA 11.8 build).
void tensorrt_86(CudaImage& img, const std::string& cuda_lib, const std::string& cublas) {
    const std::string lib = "/usr/lib/x86_64-linux-gnu";
    img.fs().lib(lib + "/libnvinfer.so.8.6.1", "libnvinfer.so.8");
    img.fs().symlink(lib + "/libnvinfer.so.8", "libnvinfer.so.8.6.1");
    img.fs().lib(cuda_lib + "/" + cublas, cublas);  // present while linking, removed below
    img.fs().lib(lib + "/libnvinfer_plugin.so.8.6.1", "libnvinfer_plugin.so.8",
                 {lib + "/libnvinfer.so.8.6.1", cuda_lib + "/" + cublas});
    img.fs().symlink(lib + "/libnvinfer_plugin.so.8", "libnvinfer_plugin.so.8.6.1");
    const std::string bindings = site_packages + "/tensorrt/tensorrt.so";
    img.fs().lib(bindings, "tensorrt.so",
                 {lib + "/libnvinfer.so.8.6.1", lib + "/libnvinfer_plugin.so.8.6.1"});
    img.fs().write(site_packages + "/tensorrt/__init__.py",
                   "from .tensorrt import *\n__version__ = \"8.6.1\"\n");
    dist_info(img.fs(), site_packages, "tensorrt", "8.6.1", "",
              {"tensorrt/tensorrt.so", "tensorrt/__init__.py"});
}

}  // namespace

TEST_CASE("TensorRT: a CUDA 11 build in a CUDA 12 image fails at import on its cuBLAS major",
          "[validate][tensorrt]") {
    for (bool cuda11_build : {true, false}) {
        CudaImage img;
        img.glibc();
        img.cuda_toolkit("12.1.105");
        const std::string cuda_lib = "/usr/local/cuda-12.1/targets/x86_64-linux/lib";
        const std::string cublas = cuda11_build ? "libcublas.so.11" : "libcublas.so.12";
        tensorrt_86(img, cuda_lib, cublas);
        // The CUDA 12 image has cuBLAS 12 only.
        if (cuda11_build) fs::remove(img.fs().host(cuda_lib + "/libcublas.so.11"));
        REQUIRE(img.fs().error().empty());
        auto findings = validate_findings(img.write());
        INFO(describe_findings(findings));
        const cuvet::report::Finding* missing = nullptr;
        for (const auto& f : findings)
            if (f.id == "CUV001" && f.message.find("libcublas.so.11") != std::string::npos)
                missing = &f;
        if (!cuda11_build) {
            CHECK(missing == nullptr);
            continue;
        }
        REQUIRE(missing != nullptr);
        CHECK(missing->severity == cuvet::report::Severity::error);
        CHECK(missing->message.find("libnvinfer_plugin.so") != std::string::npos);
        CHECK(missing->loaded_by == "imported by tensorrt");
    }
}
