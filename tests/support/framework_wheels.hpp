#pragma once
// GPU framework installs as pip lays them out, built at test time into a
// CudaImage: gcc-built libraries with the real sonames, RPATHs and DT_NEEDED
// of the real wheels, and dist-info METADATA/RECORD in the real format
// (mirroring JAX 0.11.2 with the cuda13 plugin as recorded on the H100:
// testdata/gpu/env/env_metadata.txt and env_readelf.txt).
#include <set>
#include <string>

#include "support/cuda_image.hpp"

namespace cuvet::test {

struct JaxCuda13 {
    bool plugin = true;  // jax-cuda13-plugin + jax-cuda13-pjrt (false: jaxlib alone, CPU only)
    bool nvcc = true;    // nvidia-cuda-nvcc: site-packages/nvidia/cu13/bin/ptxas
    bool nvvm = true;    // nvidia-nvvm: site-packages/nvidia/cu13/nvvm/libdevice
    bool cudnn = true;   // nvidia-cudnn-cu13 in site-packages/nvidia/cudnn/lib
    std::set<std::string> drop;  // sonames left out of nvidia/cu13/lib: "libnvJitLink.so.13", …
};

// jax, jaxlib 0.11.2 and the CUDA 13 wheels into `img` (site_packages).
void jax_cuda13(CudaImage& img, const JaxCuda13& options = {});

// onnxruntime-gpu `version` (CUDA 12, cuDNN 9): capi/libonnxruntime_providers_cuda.so
// with the DT_NEEDED of the real 1.20.1 provider; its CUDA libraries are built into
// `cuda_lib_dir` except the sonames in `absent`.
void onnxruntime_gpu(CudaImage& img, const std::string& cuda_lib_dir,
                     const std::set<std::string>& absent = {},
                     const std::string& version = "1.20.1");

// cupy-cuda13x 14.2.0 with the CUDA 13 wheels it opens through cuda-pathfinder
// (NVRTC, cuBLAS, cuBLASLt in nvidia/cu13/lib, the runtime headers in
// nvidia/cu13/include), two backend modules that need libcublas.so.13 and
// the absent, optional libcutensor.so.2 without RPATH, leaving out the
// sonames in `drop` and, when `headers` is false, the headers.
void cupy_cuda13x(CudaImage& img, const std::set<std::string>& drop = {}, bool headers = true);

// A dist-info dir with METADATA (and RECORD listing `files` when given).
void dist_info(Rootfs& fs, const std::string& base, const std::string& name,
               const std::string& version, const std::string& requires_dist = "",
               const std::vector<std::string>& files = {});

}  // namespace cuvet::test
