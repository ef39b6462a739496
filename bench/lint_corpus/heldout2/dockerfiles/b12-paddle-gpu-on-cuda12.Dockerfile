FROM nvidia/cuda:12.0.0-cudnn8-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip && rm -rf /var/lib/apt/lists/*
RUN python3 -m pip install paddlepaddle-gpu==2.6.1
