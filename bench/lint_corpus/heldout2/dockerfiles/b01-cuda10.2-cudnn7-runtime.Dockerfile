FROM nvidia/cuda:10.2-cudnn7-runtime-ubuntu18.04
RUN apt-get update && apt-get install -y python3-pip
RUN pip3 install torch==1.8.1 torchvision==0.9.1
