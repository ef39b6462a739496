#!/bin/bash
# record_env.sh OUTDIR: the GPU machine's real Python/CUDA environment, as
# cuvet's static model of JAX, CuPy and ONNX Runtime needs it: versions, the
# wheels' Requires-Dist pins and shared objects, the ELF dynamic sections and
# embedded library names of the framework plugins, and where ptxas/nvJitLink are.
O=$1; mkdir -p "$O"
V=${VENV:-/opt/torch/.venv}; PY=$V/bin/python3
SP=$($PY -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
DISTS='jax|jaxlib|jax_cuda[0-9]+_plugin|jax_cuda[0-9]+_pjrt|cupy.*|torch|nvidia_.*|onnxruntime.*|onnx|cuda_.*|triton|numpy'
{
    echo "## date"; date -u
    echo "## nvidia-smi"; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
    echo "## os"; head -2 /etc/os-release; uname -r; ldd --version | head -1
    echo "## python"; echo "venv=$V"; ls -la $V/bin/python* ; $PY -VV; cat $V/pyvenv.cfg
    echo "site-packages=$SP"; $PY -c 'import sys; print(sys.base_prefix); print(sys.path)'
    echo "## pip"; $PY -m pip --version; $PY -m pip list 2>/dev/null
} > "$O/env_python.txt" 2>&1
{
    for d in $(ls -d $SP/*.dist-info | grep -E "/($DISTS)-[^/]*\.dist-info$"); do
        echo "## $(basename $d)"
        grep -E '^(Name|Version|Requires-Dist|Provides-Extra):' $d/METADATA
        echo "# RECORD shared objects and executables"
        cut -d, -f1 $d/RECORD | grep -E '\.so(\.|$)|/bin/' | sort
    done
} > "$O/env_metadata.txt" 2>&1
SOS=$(cd $SP && ls -d jax_plugins/*/*.so jax_cuda*_plugin/*.so jax_cuda*_pjrt/*.so jaxlib/*.so jaxlib/*/*.so \
      cupy_backends/cuda/libs/*.so cupy_backends/cuda/api/*.so cupy/cuda/*.so cupy/_core/core*.so \
      onnxruntime/capi/*.so* 2>/dev/null | sort -u)
{
    for s in $SOS; do
        echo "## $s ($(stat -c %s $SP/$s) bytes)"
        readelf -d $SP/$s | grep -E 'NEEDED|RUNPATH|RPATH|SONAME'
    done
} > "$O/env_readelf.txt" 2>&1
{
    for s in $SOS; do
        echo "## $s"
        strings -a $SP/$s > /tmp/strings.txt
        echo "# library names"; grep -oE 'lib[A-Za-z0-9_+-]+\.so(\.[0-9]+)*' /tmp/strings.txt | sort -u | tr '\n' ' '; echo
        echo "# compiler/tool paths and messages"
        grep -E 'ptxas|nvlink|nvJitLink|libdevice|nvvm|/usr/local/cuda|CUDA_DIR|cuda_nvcc|PTX compilation|cuda_root|Falling back|cuDNN version|Loaded runtime|not found|CUDA_PATH|nvrtc' \
            /tmp/strings.txt | awk 'length($0) < 400' | sort -u | head -120
    done
} > "$O/env_strings.txt" 2>&1
{
    echo "## which ptxas / nvcc / nvlink"; for t in ptxas nvcc nvlink nvdisasm; do echo "$t: $(command -v $t)"; done
    echo "## PATH=$PATH"; echo "## LD_LIBRARY_PATH=$LD_LIBRARY_PATH"; echo "## CUDA_HOME=$CUDA_HOME CUDA_PATH=$CUDA_PATH XLA_FLAGS=$XLA_FLAGS"
    echo "## ptxas anywhere"; find / -xdev \( -name ptxas -o -name 'libnvJitLink.so*' -o -name 'libdevice*.bc' -o -name 'libnvrtc.so*' -o -name 'libcudart.so*' \) 2>/dev/null | sort
    for p in $(find / -xdev -name ptxas -type f 2>/dev/null); do echo "$p: $($p --version | tail -1)"; done
    echo "## /usr/local"; ls -la /usr/local /usr/local/cuda* 2>&1 | head -40
    echo "## nvidia wheel tree"; (cd $SP/nvidia && find . -maxdepth 3 | sort | head -150)
    echo "## ld.so.conf"; cat /etc/ld.so.conf.d/* 2>&1
    echo "## ldconfig -p (cuda/nvidia)"; ldconfig -p | grep -E 'cuda|cudnn|nvidia|nvrtc|nvJitLink|cublas'
    echo "## dpkg cuda/cudnn"; dpkg -l 2>/dev/null | grep -iE 'cuda|cudnn|nvidia' | awk '{print $2, $3}'
    echo "## driver dir"; ls -la /usr/local/nvidia/lib64 2>&1 | head -30
} > "$O/env_tools.txt" 2>&1
ls -la "$O"
