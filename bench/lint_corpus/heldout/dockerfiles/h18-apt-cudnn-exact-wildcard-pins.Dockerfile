FROM nvidia/cuda:11.8.0-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y --no-install-recommends python3-pip \
      libcudnn8=8.9.6.*-1+cuda11.8 libcudnn8-dev=8.9.6.*-1+cuda11.8 && \
    apt-mark hold libcudnn8 libcudnn8-dev && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir onnxruntime-gpu==1.17.1
