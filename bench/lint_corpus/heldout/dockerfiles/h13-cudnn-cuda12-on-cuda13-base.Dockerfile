FROM nvidia/cuda:13.0.2-runtime-ubuntu24.04
RUN apt-get update && \
    apt-get install -y --no-install-recommends libcudnn9-cuda-12=9.13.0.50-1 && \
    rm -rf /var/lib/apt/lists/*
COPY bin/infer /usr/local/bin/infer
