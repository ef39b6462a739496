FROM ubuntu:24.04
RUN apt-get update && apt-get install -y python3-pip && rm -rf /var/lib/apt/lists/*
RUN pip install --break-system-packages "jax[cuda12]==0.5.3"
