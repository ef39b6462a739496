# False CUVL14 (unseen9 t03): llama-cpp-python from its own CUDA index is the visible GPU stack;
# the requirements file beside it holds the app's other packages. Expected: no CUVL14.
FROM nvidia/cuda:12.4.1-cudnn-runtime-ubuntu22.04
COPY requirements.txt /app/requirements.txt
RUN pip install -r /app/requirements.txt
RUN pip install llama-cpp-python==0.3.16 --extra-index-url https://abetlen.github.io/llama-cpp-python/whl/cu124
