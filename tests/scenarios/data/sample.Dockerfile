# The Dockerfile the bundled sample image (testdata/README.md) stands for; its
# history lines match these instructions, so `validate --dockerfile` can point
# findings at the line that installed the file.
FROM ubuntu:22.04
ENV NVARCH=x86_64
ENV NVIDIA_REQUIRE_CUDA="cuda>=12.1 brand=tesla,driver>=470,driver<471 brand=tesla,driver>=525,driver<526"
ENV NV_CUDA_CUDART_VERSION=12.1.105-1
ENV CUDA_VERSION=12.1.1
RUN apt-get update && apt-get install -y --no-install-recommends cuda-cudart-12-1=${NV_CUDA_CUDART_VERSION} cuda-compat-12-1 && ln -s cuda-12.1 /usr/local/cuda
ENV NV_CUDNN_VERSION=8.6.0.163
ENV NV_CUDNN_PACKAGE_NAME=libcudnn8
RUN apt-get update && apt-get install -y --no-install-recommends ${NV_CUDNN_PACKAGE_NAME}=${NV_CUDNN_VERSION}-1+cuda11.8
ENV PATH=/opt/venv/bin:/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
RUN python3 -m venv /opt/venv && pip install --no-cache-dir torch==2.1.0+cu121 nvidia-cudnn-cu12==8.9.2.26 && rm -rf /var/cache/apt/archives/*.deb /var/lib/apt/lists && mkdir /var/lib/apt/lists
