# Missed CUVL11 (unseen9 t12): ldconfig of the cuda-compat directory, its path built by a
# command substitution. Expected: CUVL11 (as for `ldconfig /usr/local/cuda-12.4/compat/`).
FROM nvidia/cuda:12.4.1-devel-ubuntu20.04
ARG CUDA_VERSION=12.4.1
RUN ldconfig /usr/local/cuda-$(echo $CUDA_VERSION | cut -d. -f1,2)/compat/
