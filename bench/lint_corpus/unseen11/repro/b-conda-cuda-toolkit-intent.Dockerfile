# Class b (t01): a non-CUDA base that gets CUDA and cuDNN from conda (micromamba), then installs
# its Python stack only from a requirements file. Expected: CUVL14 (info) at line 6. main: silent.
FROM python:3.12-slim
RUN micromamba create --prefix /opt/cuda -c conda-forge -c nvidia/label/cuda-12.8.0 --yes cuda-toolkit cudnn=9.7
COPY requirements.txt .
RUN pip install -r requirements.txt
