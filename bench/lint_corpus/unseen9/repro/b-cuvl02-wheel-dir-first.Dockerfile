# False CUVL02 (unseen9 t30): the wheel's own library directory comes first on
# LD_LIBRARY_PATH, so the loader finds torch's CUDA 13.0 libraries before the base's 13.2 ones
# in /usr/local/cuda/lib64. Expected: no CUVL02 (it stays right with /usr/local/cuda/lib64 first).
FROM nvidia/cuda:13.2.0-cudnn-devel-ubuntu24.04
RUN pip install torch==2.9.1 --index-url https://download.pytorch.org/whl/cu130
ENV LD_LIBRARY_PATH="/opt/venv/lib/python3.12/site-packages/nvidia/cu13/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH}"
