FROM nvcr.io/nvidia/tensorflow:24.01-tf2-py3
RUN pip install --no-cache-dir tensorflow-addons==0.23.0 keras-cv==0.8.2
WORKDIR /workspace
