FROM nvidia/cuda:11.0.3-cudnn8-runtime-ubuntu18.04
RUN apt-get update && apt-get install -y python3-pip
RUN pip3 install tensorflow-gpu==1.15.5
