FROM nvidia/cuda
RUN apt-get update && apt-get install -y python3-pip
RUN pip3 install cupy-cuda11x==12.3.0
