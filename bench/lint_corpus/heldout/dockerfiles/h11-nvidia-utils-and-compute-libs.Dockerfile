FROM ubuntu:22.04
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update && apt-get install -y --no-install-recommends \
        nvidia-utils-535 libnvidia-compute-535 python3-pip && \
    rm -rf /var/lib/apt/lists/*
RUN pip3 install --no-cache-dir torch==2.3.1
