FROM nvcr.io/nvidia/pytorch:23.10-py3
RUN pip install flash-attn==2.5.8 --no-build-isolation
WORKDIR /workspace
