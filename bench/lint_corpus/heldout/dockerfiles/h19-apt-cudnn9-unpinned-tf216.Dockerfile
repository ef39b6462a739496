FROM nvidia/cuda:12.3.2-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y libcudnn9-cuda-12 libcudnn9-dev-cuda-12 python3-pip
RUN pip3 install --no-cache-dir "tensorflow==2.16.1"
