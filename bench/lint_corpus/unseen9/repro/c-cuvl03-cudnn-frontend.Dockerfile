# False CUVL03 (unseen9 t30): nvidia-cudnn-frontend is the cuDNN front-end API (Python
# bindings that load the installed cuDNN), not cuDNN; is_cudnn_package matches it by its
# "nvidia-cudnn" prefix. Expected: no CUVL03 (nvidia-cudnn-cu13 unpinned stays reported).
FROM nvidia/cuda:13.0.2-cudnn-devel-ubuntu24.04
RUN pip install "nvidia-cudnn-frontend>=1.13.0"
