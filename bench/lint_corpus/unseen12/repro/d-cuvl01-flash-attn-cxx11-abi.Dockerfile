# Class b (t08): flash-attn's release wheels are named for the torch C++ ABI
# (cxx11abiTRUE/FALSE). torch 2.6.0 from the cu124 index is built with the pre-C++11 ABI (only
# the cu126 builds of 2.6 moved to manylinux 2.28 / cxx11-abi: pytorch/pytorch PR 141565; all
# builds from 2.7), so a cxx11abiTRUE wheel fails at import with undefined c10 symbols.
# The cxx11abiFALSE wheel of the same release is the right one and must stay silent.
# Expected: CUVL01 at line 9. main: nothing.
FROM pytorch/pytorch:2.6.0-cuda12.4-cudnn9-runtime
RUN pip install torch==2.6.0 --index-url https://download.pytorch.org/whl/cu124
RUN pip install https://github.com/Dao-AILab/flash-attention/releases/download/v2.8.3/flash_attn-2.8.3+cu12torch2.6cxx11abiTRUE-cp311-cp311-linux_x86_64.whl
