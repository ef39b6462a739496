FROM nvidia/cuda:11.8.0-devel-ubuntu20.04
RUN ln -sf /usr/local/cuda/lib64/stubs/libcuda.so /usr/local/cuda/lib64/libcuda.so.1 && ldconfig
RUN apt-get update && apt-get install -y python3-pip && pip3 install pycuda==2024.1
