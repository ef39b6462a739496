FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04
COPY --from=ghcr.io/astral-sh/uv:0.4.18 /uv /usr/local/bin/uv
RUN apt-get update && apt-get install -y python3 && rm -rf /var/lib/apt/lists/*
RUN uv pip install --system --no-cache onnxruntime-gpu==1.20.1 numpy==1.26.4
COPY model.onnx /models/
