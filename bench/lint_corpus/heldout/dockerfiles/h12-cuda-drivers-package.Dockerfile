FROM nvidia/cuda:12.6.3-base-ubuntu24.04
RUN apt-get update && apt-get install -y cuda-drivers-560 && rm -rf /var/lib/apt/lists/*
