ARG BASE=nvidia/cuda:11.7.0-cudnn8-devel-ubuntu22.04
FROM ${BASE}
RUN apt-get update && apt-get install -y python3-pip git
COPY . /workspace
RUN pip3 install torch==1.13.1 && pip3 install -e /workspace
