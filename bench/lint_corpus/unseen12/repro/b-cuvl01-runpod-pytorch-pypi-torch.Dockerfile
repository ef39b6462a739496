# Class a (t23): the same unknown base hides its CUDA. torch==2.1.2 from PyPI is the CUDA 12.1
# build; it replaces the base's 2.1.0+cu118 on a CUDA 11.8 image (as on nvidia/cuda:11.8.0,
# where main reports it).
# Expected: CUVL01 at line 6. main: nothing.
FROM runpod/pytorch:2.1.0-py3.10-cuda11.8.0-devel-ubuntu22.04
RUN pip install --no-cache-dir torch==2.1.2
RUN nvcc --version
