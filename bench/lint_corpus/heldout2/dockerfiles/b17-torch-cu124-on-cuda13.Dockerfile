FROM nvidia/cuda:13.0.1-cudnn-runtime-ubuntu24.04
RUN apt-get update && apt-get install -y python3-pip && rm -rf /var/lib/apt/lists/*
RUN pip install --break-system-packages torch==2.5.1
