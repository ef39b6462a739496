FROM nvidia/cuda:11.8.0-cudnn8-devel-ubuntu22.04 AS wheels
RUN apt-get update && apt-get install -y python3-pip python3-dev
RUN pip3 install torch==2.1.2 --index-url https://download.pytorch.org/whl/cu118
COPY . /src
WORKDIR /src
RUN TORCH_CUDA_ARCH_LIST="8.0 8.6" python3 setup.py bdist_wheel

FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip && rm -rf /var/lib/apt/lists/*
RUN pip3 install torch==2.1.2 --index-url https://download.pytorch.org/whl/cu118
COPY --from=wheels /src/dist/*.whl /tmp/
RUN pip3 install /tmp/*.whl && rm /tmp/*.whl
