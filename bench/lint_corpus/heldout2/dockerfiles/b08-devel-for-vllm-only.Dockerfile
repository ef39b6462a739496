FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip && rm -rf /var/lib/apt/lists/*
RUN pip3 install --no-cache-dir vllm==0.6.3
ENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]
