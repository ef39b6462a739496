ARG CUDA=11.4.1
ARG UBUNTU=20.04
FROM nvidia/cuda:${CUDA}-cudnn8-runtime-ubuntu${UBUNTU}
RUN apt-get update && apt-get install -y python3-pip && rm -rf /var/lib/apt/lists/*
RUN pip3 install tensorflow==2.7.0
