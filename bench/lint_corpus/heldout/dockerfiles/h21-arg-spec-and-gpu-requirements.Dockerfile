FROM nvidia/cuda:12.1.1-cudnn8-runtime-ubuntu22.04
ARG TORCH_SPEC="torch==2.1.2"
ARG TORCH_INDEX=https://download.pytorch.org/whl/cu121
RUN apt-get update && apt-get install -y python3-pip
RUN pip3 install ${TORCH_SPEC} --index-url ${TORCH_INDEX}
RUN pip3 install -r requirements-gpu.txt
